#!/usr/bin/env bash
# tests/faults_test.sh: signals end a run with a million tasks alive at once, and running out of
# memory mid-spawn says how far it got; neither leaves a trace or hangs.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
[ -x "$bin/coro_timer" ] || make coro_timer >/dev/null || exit 1

# signal_run SIGNAL: starts a 60 s coro_timer run, waits until every task exists, sends SIGNAL,
# and waits for the exit (at most 20 s, far less than the sleep); sets $rc and $err.
signal_run() {
  : >"$tmp/err" # emptied first: a stale "tasks exist" would send the signal before the handler exists
  "$bin/coro_timer" 1000000 --sleep-ms 60000 >"$tmp/out" 2>>"$tmp/err" &
  local pid=$! i=0
  while ! grep -q "tasks exist" "$tmp/err" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  kill "-$1" "$pid"
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
  wait "$pid"
  rc=$?
  err=$(grep -v -e "spawning" -e "tasks exist" "$tmp/err")
}

signal_run TERM
check "SIGTERM with a million tasks alive: exit 143, not at the end of the sleep" [ "$rc" = 143 ]
check "SIGTERM: one line on stderr saying so, nothing on stdout" \
  eval '[ "$err" = "coro_timer: terminated (SIGTERM)" ] && [ ! -s "$tmp/out" ]'
signal_run INT
check "SIGINT with a million tasks alive: exit 130" [ "$rc" = 130 ]
check "SIGINT: one line on stderr saying so" [ "$err" = "coro_timer: interrupted (SIGINT)" ]

# (Not under ASan or TSan: they cannot reserve their shadow memory under ulimit -v.)
if ! skipped "asan tsan" "address-space limit tests"; then
  run_cmd sh -c 'ulimit -v 400000 && exec "$0" 10000000 --sleep-ms 100' "$bin/coro_timer"
  check "out of memory mid-spawn exits 1" [ "$rc" = 1 ]
  check "and says how many tasks it had made" \
    eval 'printf "%s\n" "$err" | tail -n 1 | grep -Eq "^coro_timer: out of memory after [0-9]+ of 10000000 tasks \(std::bad_alloc\)$"'
  check "with no abort trace and nothing on stdout" \
    eval '! printf "%s\n" "$err" | grep -qi -e abort -e "terminate called" && [ -z "$out" ]'
fi

finish
