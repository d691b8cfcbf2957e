#!/usr/bin/env bash
# tests/threads_test.sh: the threads binary with small N (a few seconds): the summary line, a
# 16 KiB stack, refused threads (impossible stack, address-space limit) released at once, bad input.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
[ -x "$bin/threads" ] || make threads >/dev/null || exit 1

# numeric KEY...: every KEY is in $out once, with a number as its value.
numeric() {
  for k in "$@"; do
    [ "$(printf '%s\n' "$out" | tr ' ' '\n' | grep -c "^$k=")" = 1 ] || return 1
    field "$k" "$out" | grep -Eq '^[0-9]+([.][0-9]+)?$' || return 1
  done
}
run_cmd "$bin/threads" 200 --sleep-ms 50
check "200 threads sleeping 50 ms exit 0" [ "$rc" = 0 ]
check "stdout is one line starting scenario=threads" \
  eval '[ "$(printf "%s\n" "$out" | wc -l)" = 1 ] && has "$out" "^scenario=threads "'
check "the line has n=200, completed=200, sleep_ms=50, stack_kib=default" \
  eval 'has "$out" " n=200 " && has "$out" " completed=200$" && has "$out" " sleep_ms=50 " && has "$out" " stack_kib=default "'
check "every measurement key has a number" \
  numeric spawn_ms wall_ms rss_base_kib rss_wait_kib rss_avg_kib rss_peak_kib bytes_per_task
check "no frame_bytes and no threads key for OS threads" eval '! has "$out" " (frame_bytes|threads)="'
check "wall_ms is at least the sleep" [ "$(field wall_ms "$out")" -ge 50 ]
check "progress lines go to stderr" has "$err" "spawning 200 threads"

run_cmd "$bin/threads" 50 --sleep-ms 20 --stack-kib 16
check "--stack-kib 16 (PTHREAD_STACK_MIN) works" eval '[ "$rc" = 0 ] && has "$out" " stack_kib=16 .* completed=50$"'

run_cmd "$bin/threads" 10 --stack-kib 1
check "a stack below the OS minimum exits 1 naming pthread_attr_setstacksize" \
  eval '[ "$rc" = 1 ] && has "$err" "pthread_attr_setstacksize.*EINVAL" && [ -z "$out" ]'

# A refused thread wakes the others at once: with a day's sleep, ending at all shows it (a hang
# would be killed after 300 s, exit 137).
within 300 "$bin/threads" 1000 --sleep-ms 86400000 --stack-kib 1073741824
check "a 1 TiB stack exits 1 at once, not after the day's sleep" [ "$rc" = 1 ]
check "the refusal names pthread_create, errno, the count and the limits" \
  eval 'has "$err" "pthread_create: .*\(E[A-Z]+\) after [0-9]+ of 1000 threads \(all woken and joined in [0-9]+ ms\); limits: kernel.pid_max=[0-9]+ " && [ -z "$out" ]'

# RLIMIT_NPROC does not bind root: an address-space limit refuses threads for everyone.
# (Not under ASan or TSan: they cannot reserve their shadow memory under ulimit -v.)
if ! skipped "asan tsan" "address-space limit tests"; then
  within 300 sh -c 'ulimit -v 200000 && exec "$0" 5000 --sleep-ms 86400000' "$bin/threads"
  check "under ulimit -v 200000, 5000 threads exit 1 at once, not after the day's sleep" [ "$rc" = 1 ]
  check "and say how many were created" has "$err" "after [0-9]+ of 5000 threads .*; limits: .*RLIMIT_AS=[0-9]+"
  within 300 sh -c 'ulimit -v 80000 && exec "$0" 5000 --sleep-ms 86400000 --stack-kib 16' "$bin/threads"
  check "thousands of sleeping threads (16 KiB stacks) are woken and joined at once" \
    eval '[ "$rc" = 1 ] && has "$err" "after [0-9]+ of 5000 threads"'
fi

# SIGTERM during a day's sleep: the run ends with 143 (a hang is killed after 300 s: 137).
: >"$tmp/err"
"$bin/threads" 100 --sleep-ms 86400000 >/dev/null 2>>"$tmp/err" &
pid=$! i=0
while ! has "$(<"$tmp/err")" "threads exist" && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL "$pid" 2>/dev/null
wait "$pid"
rc=$?
check "SIGTERM ends a day's sleep at once with exit 143" [ "$rc" = 143 ]

run_cmd "$bin/threads" --help
check "--help prints the usage on stdout and exits 0" eval '[ "$rc" = 0 ] && has "$out" "usage: threads N"'

# bad ARGS -- PATTERN: exit 2, nothing on stdout, one stderr line matching PATTERN.
bad() {
  args=()
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  pattern=$2
  run_cmd "$bin/threads" "${args[@]}"
  check "bad input '${args[*]:-(no arguments)}' exits 2: $pattern" \
    eval '[ "$rc" = 2 ] && [ -z "$out" ] && [ "$(printf "%s\n" "$err" | wc -l)" = 1 ] && has "$err" "$pattern"'
}
bad abc -- "N must be a whole number.*got 'abc'"
bad 0 -- "N is too small"
bad -1 -- "N must be a whole number.*got '-1'"
bad "" -- "N must be a whole number.*got ''"
bad 99999999999999999999999 -- "N is too large"
bad -- "missing N"
bad 10 --bogus 1 -- "unknown option --bogus"
bad 10 --sleep-ms -- "--sleep-ms needs a value"
bad 10 --sleep-ms x -- "--sleep-ms must be a whole number"
bad 10 --threads 2 -- "unknown option --threads"
bad 10 --stack-kib 0 -- "--stack-kib is too small"
bad 10 --stack-kib 2000000000 -- "--stack-kib is too large"
bad 10 extra -- "unexpected argument 'extra'"
bad 100000000000 -- "N=100000000000 needs about .* GiB resident"

finish
