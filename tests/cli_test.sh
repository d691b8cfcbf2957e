#!/usr/bin/env bash
# Every scenario binary: a small run prints one well-formed summary line and exits 0; every class
# of bad input exits 2 with one line that names the problem.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# The smoke-run arguments of each coroutine scenario that exists (threads has its own test).
smoke_args() {
  case $1 in
    coro_timer | coro_shared) echo "1000 --sleep-ms 50" ;;
    atomic_counter) echo "1000 --sleep-ms 50 --threads 2" ;;
    running_avg | hash_collect) echo "1000 --sync channel --threads 2" ;;  # mutex: below
  esac
}
# A numeric option each scenario reads, for the missing-value and non-numeric checks (running_avg
# and hash_collect never sleep, so --sleep-ms is an unknown option there; threads has no --threads).
numeric_option() {
  case $1 in
    threads) echo --sleep-ms ;;
    *) echo --threads ;;
  esac
}
scenarios="threads coro_timer coro_shared atomic_counter running_avg hash_collect"

# The scenarios' table, as harness/scenarios.py prints it (NAME|OPTIONS|SUMMARY KEYS), and the keys
# every binary prints: its line "*".
table=$(python3 harness/scenarios.py) || { echo "cli_test.sh: python3 harness/scenarios.py failed" >&2; exit 1; }
keys=${table%%$nl*} keys=${keys#*||}
well_formed() {  # $1 scenario, $2 N; reads $out
  local k re
  [[ $out != *$nl* && $out == "scenario=$1 "* ]] || return 1
  for k in $keys; do
    re=" $k=([0-9]+(\.[0-9]+)?|$1) "
    [[ " $out " =~ $re ]] || { echo "  missing or bad: $k"; return 1; }
  done
  [[ " $out " == *" completed=$2 "* ]]
}

for s in $scenarios; do
  args=$(smoke_args "$s")
  [ -n "$args" ] || continue
  run_cmd "$bin/$s" $args
  check "$s $args exits 0" [ "$rc" = 0 ]
  check "$s $args prints one well-formed summary line with completed=1000" well_formed "$s" 1000
  check "$s $args reports frame bytes" eval 'has "$out" " frame_bytes=[0-9]+(\.[0-9]+)?( |$)"'
done

# Each binary as harness/scenarios.py describes it: its summary line has the keys the table lists,
# no more, no fewer; its usage names every option run.sh passes it.
same_keys() {  # LINE KEY...: LINE's key=value words are KEY..., each once, in any order
  local line=" $1 " k
  shift
  for k; do [[ $line == *" $k="* ]] || { echo "  # missing: $k"; return 1; }; done
  k=$#
  set -- $line
  [ "$#" -eq "$k" ] || { echo "  # $# keys, not $k"; return 1; }
}
names_options() {  # USAGE OPTION...: USAGE has "[OPTION " for each
  local usage=$1 o
  shift
  for o; do [[ $usage == *"[$o "* ]] || return 1; done
}
checked=''
while IFS='|' read -r s options own <&3; do
  [ "$s" != '*' ] || continue
  checked="$checked $s"
  args=10
  case " $options " in *" --sleep-ms "*) args="10 --sleep-ms 10" ;; esac
  run_cmd "$bin/$s" $args
  check "$s: its summary's keys are the ones harness/scenarios.py lists" eval '[ "$rc" = 0 ] && same_keys "$out" $own'
  run_cmd "$bin/$s" --help
  check "$s: its usage names each option harness/scenarios.py says run.sh passes it" names_options "$out$err" $options
done 3<<<"$table"
check "every scenario is in harness/scenarios.py" [ "$checked" = " $scenarios" ]

# Wake-up lateness, from the timer scenarios: the latest in ms, and a 99th-percentile bound no
# larger than it (coro_shared: its setter's timer, the only one).
for s in coro_timer coro_shared atomic_counter; do
  run_cmd "$bin/$s" 1000 --sleep-ms 20
  max=$(field late_max_ms) p99=$(field late_p99_ms)
  check "$s prints late_max_ms, in ms with two decimals" has "$max" '^[0-9]+[.][0-9]{2}$'
  check "$s prints late_p99_ms <= late_max_ms" \
    eval 'has "$p99" "^[0-9]+[.][0-9]{2}$" && [ "$((10#${p99/./}))" -le "$((10#${max/./}))" ]'
done

# How many tasks had ended once every task waited (run.sh's "all alive"): none with one loop,
# whose start_all fires no timer, however short the sleep; a count of at most N with two loops.
for s in coro_timer coro_shared; do
  run_cmd "$bin/$s" 20000 --sleep-ms 1
  check "$s 20000 --sleep-ms 1: ended_at_spawn=0 on one loop, waiting_ms >= spawn_ms" \
    eval '[ "$rc" -eq 0 ] && [ "$(field ended_at_spawn)" = 0 ] && [ "$(field waiting_ms)" -ge "$(field spawn_ms)" ]'
  run_cmd "$bin/$s" 20000 --sleep-ms 1 --threads 2
  check "$s with two loops: ended_at_spawn is a count of at most N" \
    eval '[ "$rc" -eq 0 ] && has "$(field ended_at_spawn)" "^[0-9]+$" && [ "$(field ended_at_spawn)" -le 20000 ]'
done

# An N just past what fits: the frame the binary measured (frame_bytes of a run of 1000) times N is
# 10 % more than MemAvailable. Refused up front, with the figures (inside a container with a smaller
# memory limit, that limit's: tests/container_test.sh).
if [ -r /proc/meminfo ]; then
  for s in coro_timer coro_shared atomic_counter; do
    run_cmd "$bin/$s" 1000 --sleep-ms 1
    frame=$(field frame_bytes)
    n=$(awk -v f="$frame" '/^MemAvailable:/ { printf "%.0f\n", $2 * 1024 * 1.1 / f }' /proc/meminfo)
    run_cmd "$bin/$s" "$n" --sleep-ms 1
    check "$s $n (${frame}-byte frames, 1.1 x MemAvailable) is refused with exit 2 and the figures" \
      exited 2 "N=$n needs about [0-9.]+ GiB resident with all N alive at once \\([0-9]+ bytes a task, 0[.]21 % more for page tables and the owner table, and [0-9.]+ MiB besides\\), more than the [0-9.]+ GiB (available now \\(MemAvailable\\)|left under the cgroup.s [a-z_.]+ \\(.*\\)): at most [0-9]+ fit"
  done
fi

# The frame region's bound is exact: the largest N it names is not refused for the region, one
# more is (that N is refused for memory instead, on any host with less than 32 GiB available).
for s in coro_timer coro_shared; do
  run_cmd "$bin/$s" 1000000000000000
  most=${err##*at most }
  most=${most%% *}
  frame=$(printf '%s\n' "$err" | sed -n 's/.*(\([0-9]*\) bytes each).*/\1/p')
  run_cmd "$bin/$s" $((most + 1))
  check "$s $((most + 1)) ($frame-byte frames): refused, one past the region's bound" \
    exited 2 "N=$((most + 1)) needs .* GiB of frames \\($frame bytes each\\).*: at most $most \\(see --help\\)$"
  if [ "$(awk -v n="$most" -v f="$frame" '/^MemAvailable:/ { print ($2 * 1024 < n * f) }' /proc/meminfo)" = 1 ]; then
    run_cmd "$bin/$s" "$most"
    check "$s $most: within the region's bound, refused for memory only" exited 2 "N=$most needs about .* GiB resident"
  fi
done

# bad_input NAME PATTERN ARGS...: exit 2, one stderr line matching PATTERN (case-insensitive).
bad_input() {
  local name=$1 pattern=$2
  shift 2
  run_cmd "$bin/$s" "$@"
  check "$s $name: exit 2" [ "$rc" = 2 ]
  check "$s $name: one line naming the problem" eval '[[ $err != *$nl* ]] && has_i "$err" "$pattern"'
  check "$s $name: nothing on stdout" [ -z "$out" ]
}

for s in $scenarios; do
  bad_input "non-numeric N" "N must be a whole number" abc
  bad_input "empty N" "N must be a whole number" ""
  bad_input "zero N" "N is too small" 0
  bad_input "negative N" "N must be a whole number" -5
  bad_input "N past 64 bits" "N is too large" 99999999999999999999999
  bad_input "missing N" "missing N"
  bad_input "unknown option" "unknown option --bogus" 10 --bogus 1
  opt=$(numeric_option "$s")
  bad_input "option without its value" "$opt needs a value" 10 "$opt"
  bad_input "non-numeric option value" "$opt must be a whole number" 10 "$opt" soon
  bad_input "extra argument" "unexpected argument 'extra'" 10 extra
  case $s in
    threads) bad_input "N beyond physical memory" "needs about .* GiB resident with all N alive at once .*, more than the .* GiB available now" 1000000000000000 ;;
    *) bad_input "N beyond the frame region" "needs .* GiB of frames \\([0-9]+ bytes each\\), more than the 32 GiB their region spans .*: at most [0-9]+ " 1000000000000000 ;;
  esac
  run_cmd "$bin/$s" --help
  check "$s --help: usage on stdout, exit 0" eval '[ "$rc" = 0 ] && has "$out" "^usage: $s N"'
done

# The threads option, on every scenario that has it: two and three loops.
for s in coro_timer coro_shared atomic_counter; do
  for t in 2 3; do
    run_cmd "$bin/$s" 300 --sleep-ms 20 --threads $t
    check "$s --threads $t completes every task" eval '[ "$rc" = 0 ] && well_formed "$s" 300 && has_text "$out" " threads=$t "'
  done
done

# The edges of every accepted range: each value the parser takes must run, or be refused up front.
# The smallest sleep with many tasks: spawning outlasts the sleep, so timers are due all along.
within 60 "$bin/coro_shared" 200000 --sleep-ms 1
check "coro_shared 200000 --sleep-ms 1 (the setter due before the waiters start) completes" eval '[ "$rc" = 0 ] && well_formed coro_shared 200000'
for t in 1 2; do
  within 60 "$bin/atomic_counter" 100000 --sleep-ms 1 --threads $t
  check "atomic_counter 100000 --sleep-ms 1 --threads $t ends (timers always due)" eval '[ "$rc" = 0 ] && well_formed atomic_counter 100000'
done
within 60 "$bin/atomic_counter" 20000 --sleep-ms 1 --mode once --spawn-from task --threads 2
check "atomic_counter once mode from a task, 1 ms sleeps, ends" eval '[ "$rc" = 0 ] && well_formed atomic_counter 20000'
within 60 "$bin/coro_timer" 100000 --sleep-ms 0 --threads 2
check "coro_timer --sleep-ms 0 completes" eval '[ "$rc" = 0 ] && well_formed coro_timer 100000'
for s in coro_timer coro_shared atomic_counter running_avg hash_collect; do
  args="--threads 4"
  case $s in coro_timer | coro_shared | atomic_counter) args="--sleep-ms 5 --threads 4" ;; esac
  within 60 "$bin/$s" 1 $args
  check "$s N=1 with --threads above N completes" eval '[ "$rc" = 0 ] && well_formed "$s" 1'
  within 60 "$bin/$s" 1 --threads 1024 $( [ "$s" = running_avg ] || [ "$s" = hash_collect ] || echo --sleep-ms 5)
  check "$s --threads 1024, the largest accepted, completes" eval '[ "$rc" = 0 ] && well_formed "$s" 1'
done
within 60 "$bin/threads" 1 --sleep-ms 0
check "threads N=1 --sleep-ms 0 completes" eval '[ "$rc" = 0 ] && well_formed threads 1'
# The largest sleep is accepted and reaches the wait; SIGTERM then ends it at once.
# The err file is emptied first: the child truncates it only once it runs, and a stale line from an
# earlier test would send SIGTERM before the handler exists.
for s in coro_timer coro_shared atomic_counter threads; do
  : >"$tmp/err"
  "$bin/$s" 1000 --sleep-ms 86400000 >"$tmp/out" 2>>"$tmp/err" &
  pid=$! i=0
  while ! has_text "$(<"$tmp/err")" " exist, resident set" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  kill -TERM "$pid"
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  check "$s --sleep-ms 86400000 reaches the wait and SIGTERM ends it with 143" eval '[ "$rc" = 143 ] && has_text "$(<"$tmp/err")" "terminated (SIGTERM)"'
done
if true; then
  s=coro_shared
  bad_input "a zero sleep, which would set the event before anyone waits" "--sleep-ms is too small: 0" 10 --sleep-ms 0
fi
if true; then
  s=atomic_counter
  run_cmd "$bin/atomic_counter" 2000 --mode once --spawn-from task --threads 2 --sleep-ms 20
  check "atomic_counter once mode from a task: every task hits once" eval '[ "$rc" = 0 ] && well_formed atomic_counter 2000 && has_text "$out" " hits=2000 "'
  run_cmd "$bin/atomic_counter" 500 --hits 700 --sleep-ms 30
  hits=$(field hits)
  check "atomic_counter stops once the monitor sees the hit target, and every task then ends" eval '[ "$rc" = 0 ] && [ "${hits:-0}" -ge 700 ] && well_formed atomic_counter 500'
  bad_input "unknown mode" "--mode must be one of: loop once" 10 --mode twice
  bad_input "a zero sleep, which would never yield" "--sleep-ms is too small: 0" 10 --sleep-ms 0
  bad_input "burst without a spawning task" "--burst needs --spawn-from task" 10 --burst 5
  bad_input "a burst pause without bursts" "--burst-pause-ms needs --burst" 10 --spawn-from task --burst-pause-ms 5
  bad_input "a hit target in once mode" "--hits applies to --mode loop only" 10 --mode once --hits 5
  bad_input "a zero poll" "--poll-ms is too small: 0" 10 --poll-ms 0
  bad_input "zero threads" "--threads is too small" 10 --threads 0
  # Once mode ends at the poll that sees N hits: not before the last task's sleep, and within about
  # a poll of it (lower bounds only: a busy machine is late, never early).
  run_cmd "$bin/atomic_counter" 300 --mode once --poll-ms 150 --sleep-ms 40 --threads 2
  check "atomic_counter once mode: the monitor, polling every 150 ms, sees all N hits at its first poll after the sleep" \
    eval '[ "$rc" = 0 ] && well_formed atomic_counter 300 && [ "$(field hits)" = 300 ] && [ "$(field reached_ms)" -ge 150 ] && [ "$(field poll_ms)" = 150 ]'
  run_cmd "$bin/atomic_counter" 300 --mode once --spawn-from task --burst 100 --burst-pause-ms 60 --sleep-ms 10
  check "atomic_counter bursts: two pauses of 60 ms before the last spawn" \
    eval '[ "$rc" = 0 ] && well_formed atomic_counter 300 && [ "$(field spawn_ms)" -ge 120 ] && [ "$(field burst_pause_ms)" = 60 ]'
  run_cmd "$bin/atomic_counter" 300 --spawn-from task --burst 100 --sleep-ms 10 --hits 600
  check "atomic_counter bursts pause 1000 ms by default, and say so" \
    eval '[ "$rc" = 0 ] && well_formed atomic_counter 300 && [ "$(field spawn_ms)" -ge 2000 ] && [ "$(field burst_pause_ms)" = 1000 ]'
fi

# running_avg and hash_collect: the mutex mode (smoke_args ran the channel), their own keys and options.
for s in $scenarios; do
  case $s in running_avg | hash_collect) ;; *) continue ;; esac
  run_cmd "$bin/$s" 1000 --sync mutex
  check "$s --sync mutex completes every task" eval '[ "$rc" = 0 ] && well_formed "$s" 1000 && has_text "$out" " sync=mutex start=gated threads=1 "'
  run_cmd "$bin/$s" 300 --sync mutex --threads 3
  check "$s --sync mutex --threads 3 completes every task" eval '[ "$rc" = 0 ] && well_formed "$s" 300 && has_text "$out" " sync=mutex start=gated threads=3 "'
  run_cmd "$bin/$s" 500 --seed 18446744073709551615
  check "$s takes any 64-bit --seed and prints it" eval '[ "$rc" = 0 ] && well_formed "$s" 500 && has_text "$out" " seed=18446744073709551615 "'
  bad_input "unknown sync mode" "--sync must be one of: mutex channel" 10 --sync lockfree
  bad_input "--sleep-ms, which it does not take" "unknown option --sleep-ms" 10 --sleep-ms 5
  bad_input "zero threads" "--threads is too small" 10 --threads 0
  bad_input "more than 1024 threads" "--threads is too large" 10 --threads 1025
  bad_input "seed past 64 bits" "--seed is too large" 10 --seed 18446744073709551616
  bad_input "an unknown start" "--start must be one of: gated eager" 10 --start lazy
  for t in 1 2 3; do
    for v in mutex channel; do
      run_cmd "$bin/$s" 3000 --sync $v --start eager --threads $t
      check "$s --sync $v --start eager --threads $t completes every task and says eager" \
        eval '[ "$rc" = 0 ] && well_formed "$s" 3000 && [ "$(field start)" = eager ]'
    done
  done
done
if true; then
  s=running_avg
  run_cmd "$bin/running_avg" 2000 --seed 7 --sync mutex
  mean=$(field mean) variance=$(field variance)
  check "running_avg prints mean= in [0, 100) and a positive variance=" \
    eval 'awk -v m="$mean" -v v="$variance" "BEGIN { exit !(m != \"\" && m >= 0 && m < 100 && v > 0) }"'
  run_cmd "$bin/running_avg" 2000 --seed 7 --sync channel
  check "running_avg: one seed gives the same mean and variance with either sync" \
    eval '[ "$rc" = 0 ] && [ -n "$mean" ] && [ "$(field mean) $(field variance)" = "$mean $variance" ]'
  run_cmd "$bin/running_avg" 2000 --seed 8
  check "running_avg: another seed gives another mean" eval '[ "$rc" = 0 ] && [ "$(field mean)" != "$mean" ]'
  run_cmd "$bin/running_avg" 2000
  check "running_avg without --seed uses a fixed seed" eval '[ "$rc" = 0 ] && [ "$(field seed)" = 1 ]'
fi
if true; then
  s=hash_collect
  run_cmd "$bin/hash_collect" 100
  seed1=$(field seed)
  run_cmd "$bin/hash_collect" 100
  check "hash_collect without --seed takes a new seed from the OS each run" \
    eval '[ "$rc" = 0 ] && [ -n "$seed1" ] && [ -n "$(field seed)" ] && [ "$(field seed)" != "$seed1" ]'
fi

finish
