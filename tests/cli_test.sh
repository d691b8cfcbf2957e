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
  esac
}
scenarios=""
for s in threads coro_timer coro_shared atomic_counter running_avg hash_collect; do
  [ -f "$s.cpp" ] && scenarios="$scenarios $s"
done

keys="scenario n spawn_ms wall_ms rss_base_kib rss_wait_kib rss_avg_kib rss_peak_kib bytes_per_task completed"
well_formed() {  # $1 scenario, $2 N; reads $out
  [ "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" = 1 ] || return 1
  case $out in "scenario=$1 "*) ;; *) return 1 ;; esac
  for k in $keys; do
    printf '%s\n' "$out" | tr ' ' '\n' | grep -Eq "^$k=([0-9]+(\.[0-9]+)?|$1)$" || { echo "  missing or bad: $k"; return 1; }
  done
  printf '%s\n' "$out" | tr ' ' '\n' | grep -qx "completed=$2"
}

for s in $scenarios; do
  args=$(smoke_args "$s")
  [ -n "$args" ] || continue
  run_cmd "./$s" $args
  check "$s $args exits 0" [ "$rc" = 0 ]
  check "$s $args prints one well-formed summary line with completed=1000" well_formed "$s" 1000
  check "$s $args reports frame bytes" eval 'printf "%s\n" "$out" | grep -Eq " frame_bytes=[0-9]+(\.[0-9]+)?( |$)"'
done

# bad_input NAME PATTERN ARGS...: exit 2, one stderr line matching PATTERN (case-insensitive).
bad_input() {
  local name=$1 pattern=$2
  shift 2
  run_cmd "./$s" "$@"
  check "$s $name: exit 2" [ "$rc" = 2 ]
  check "$s $name: one line naming the problem" eval '[ "$(printf "%s\n" "$err" | wc -l | tr -d " ")" = 1 ] && printf "%s\n" "$err" | grep -Eiq -e "$pattern"'
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
  bad_input "option without its value" "--sleep-ms needs a value" 10 --sleep-ms
  bad_input "non-numeric option value" "--sleep-ms must be a whole number" 10 --sleep-ms soon
  bad_input "extra argument" "unexpected argument 'extra'" 10 extra
  bad_input "N beyond physical memory" "needs about .* GiB resident, more than this machine" 1000000000000000
  run_cmd "./$s" --help
  check "$s --help: usage on stdout, exit 0" eval '[ "$rc" = 0 ] && printf "%s\n" "$out" | grep -q "^usage: $s N"'
done

# The threads option and the modes, on every scenario that has them.
for s in $scenarios; do
  case $s in coro_timer | coro_shared | atomic_counter) ;; *) continue ;; esac
  run_cmd "./$s" 300 --sleep-ms 20 --threads 3
  check "$s --threads 3 completes every task" eval '[ "$rc" = 0 ] && well_formed "$s" 300 && printf "%s\n" "$out" | grep -q " threads=3 "'
done
if [ -f atomic_counter.cpp ]; then
  s=atomic_counter
  run_cmd ./atomic_counter 2000 --mode once --spawn-from task --threads 2 --sleep-ms 20
  check "atomic_counter once mode from a task: every task hits once" eval '[ "$rc" = 0 ] && well_formed atomic_counter 2000 && printf "%s\n" "$out" | grep -q " hits=2000 "'
  run_cmd ./atomic_counter 500 --hits 700 --sleep-ms 30
  hits=$(printf '%s\n' "$out" | tr ' ' '\n' | sed -n 's/^hits=//p')
  check "atomic_counter stops once the monitor sees the hit target" eval '[ "$rc" = 0 ] && [ "${hits:-0}" -ge 700 ] && well_formed atomic_counter 500'
  bad_input "unknown mode" "--mode must be one of: loop once" 10 --mode twice
  bad_input "burst without a spawning task" "--burst needs --spawn-from task" 10 --burst 5
  bad_input "zero threads" "--threads is too small" 10 --threads 0
fi

finish
