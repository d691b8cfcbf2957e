#!/usr/bin/env bash
# tests/real_csharp_test.sh: the real C# peers, when dotnet is installed: run.sh --peers builds csharp
# (JIT) and csharp-aot (NativeAOT) once, in a sandbox beside real binaries of ours, and runs them
# with few tasks; then each program's bad arguments, BENCH_THREADS and its own checks. About a
# minute, most of it NativeAOT. Without dotnet it says "skip" and passes.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

DOTNET=${DOTNET:-dotnet} # the SDK run.sh would use
if ! command -v "$DOTNET" >/dev/null 2>&1; then
  echo "skip - the C# peers: $DOTNET is not installed"
  finish
  exit
fi
if skipped "asan tsan" "the C# peers (make test-peers runs them)"; then
  finish
  exit
fi
scenarios="coro_timer coro_shared atomic_counter running_avg hash_collect"
for s in $scenarios; do [ -x "$bin/$s" ] || make "$s" >/dev/null || exit 1; done

box=$tmp/sandbox # run.sh, peers/ and our binaries; RESULTS and PEERS_BUILD outside it
res=$tmp/RESULTS.md
pb=$tmp/peers-build
mkdir -p "$box" "$tmp/tmpdir"
cp -R run.sh peers harness "$box/"
rm -rf "${box:?}"/peers/csharp/*/bin "${box:?}"/peers/csharp/*/obj # a build by hand in peers/ is not the test's
printf 'all:\n\t@:\nprint-build:\n\t@echo "compiler=g++"\n\t@echo "flags=-O2"\n' >"$box/Makefile"
for s in $scenarios; do cp "$bin/$s" "$box/"; done
cd "$box" || exit 1

# 1. run.sh builds both and runs every C# program: at N and at N=1, each passing its own checks.
bench RUNS=1 SLEEP_MS=50 PEERS="csharp csharp-aot" PEERS_BUILD="$pb" ./run.sh --peers 20 $scenarios
sec=$(last_section)
check "run.sh --peers with csharp and csharp-aot exits 0" [ "$rc" -eq 0 ]
check "sixteen C# rows (running_avg and hash_collect: both variants), each with a measured wall time" \
  [ "$(table_rows | grep -c -E '^\| [a-z_]+ \| c# \.NET 10\.[0-9.]+ (JIT|NativeAOT) \| [^|]+ \| 20 \| [^|]+ \| [0-9]+[.][0-9]{2} \|')" -eq 16 ]
check "the section names the SDK and the runtime" has "$sec" '^- dotnet: SDK 10\.[0-9.]+, runtime Microsoft\.NETCore\.App 10\.[0-9.]+$'
check "and the GC mode each build ran with" \
  [ "$(printf '%s\n' "$sec" | grep -c -E '^- c# \.NET 10\.[0-9.]+ (JIT|NativeAOT): the [a-z]+-[a-z]+ GC ran, runtime 10\.')" -eq 2 ]
check "nothing is built inside the tree" [ -z "$(find peers/csharp -name bin -o -name obj)" ]
check "the NativeAOT program is one native file" eval '[ -x "$pb/bin/csharp-aot-coro_timer" ] && ! head -c 2 "$pb/bin/csharp-aot-coro_timer" | grep -q "#!"'

# 2. Each program on its own: a usage line and exit 2 on bad arguments, nothing on stdout.
for p in csharp-coro_timer csharp-aot-coro_timer_list csharp-aot-coro_shared csharp-atomic_counter csharp-aot-atomic_counter; do
  for args in "" "x" "0" "5 -1" "5 50 1 extra" "-5" "99999999999"; do
    # shellcheck disable=SC2086 # the arguments are words
    run_cmd "$pb/bin/$p" $args
    check "$p '$args': exit 2 with one usage line, nothing on stdout" \
      eval '[ "$rc" -eq 2 ] && has "$err" "^usage: [a-z_]+ N " && [ "$(printf "%s\n" "$err" | wc -l)" -eq 1 ] && [ -z "$out" ]'
  done
done
for p in csharp-running_avg csharp-aot-hash_collect; do
  for args in "" "5" "5 foo" "0 mutex" "x channel" "5 mutex extra" "5 mutex --start lazy" "5 mutex --start"; do
    # shellcheck disable=SC2086 # the arguments are words
    run_cmd "$pb/bin/$p" $args
    check "$p '$args': exit 2 with one usage line, nothing on stdout" \
      eval '[ "$rc" -eq 2 ] && has "$err" "^usage: [a-z_]+ N mutex\|channel" && [ "$(printf "%s\n" "$err" | wc -l)" -eq 1 ] && [ -z "$out" ]'
  done
done
for args in "5 50 --hits 0" "5 50 --mode twice" "5 50 --mode once --hits 9" "5 50 --burst 5" "5 50 --spawn-from task --burst-pause-ms 5" "5 50 --poll-ms 0" "5 50 --hits"; do
  # shellcheck disable=SC2086 # the arguments are words
  run_cmd "$pb/bin/csharp-aot-atomic_counter" $args
  check "atomic_counter '$args': exit 2 with one usage line" \
    eval '[ "$rc" -eq 2 ] && has "$err" "^usage: atomic_counter N" && [ "$(printf "%s\n" "$err" | wc -l)" -eq 1 ] && [ -z "$out" ]'
done
run_cmd env BENCH_THREADS=0 "$pb/bin/csharp-coro_timer" 5 10
check "BENCH_THREADS=0: exit 2 naming it" exited 2 'BENCH_THREADS must be a whole number >= 1'
run_cmd env BENCH_THREADS=abc "$pb/bin/csharp-aot-coro_timer" 5 10
check "BENCH_THREADS=abc: exit 2 naming it" exited 2 'BENCH_THREADS must be a whole number >= 1'

# 3. Tiny runs: every task completes, none early (lower bounds only: by the Stopwatch, which may
# read up to 3 ms less than the delays' coarse clock), and the line says which build.
for p in csharp-coro_timer csharp-aot-coro_timer csharp-coro_timer_list csharp-aot-coro_timer_list csharp-coro_shared \
  csharp-aot-coro_shared; do
  run_cmd "$pb/bin/$p" 1000 30
  kind=jit
  case $p in csharp-aot-*) kind=aot ;; esac
  check "$p 1000 30: exit 0, 1000 completed, no sooner than the sleep, runtime=dotnet-$kind" \
    eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = 1000 ] && [ "$(field wall_ms)" -ge 27 ] && [ "$(field runtime)" = dotnet-$kind ]'
  check "$p: spawn_ms and ended_at_spawn, counts of at most the wall and N" \
    eval 'has "$(field spawn_ms)" "^[0-9]+$" && [ "$(field spawn_ms)" -le "$(field wall_ms)" ] && has "$(field ended_at_spawn)" "^[0-9]+$" && [ "$(field ended_at_spawn)" -le 1000 ]'
done
for p in csharp-running_avg csharp-aot-running_avg csharp-hash_collect csharp-aot-hash_collect; do
  for v in mutex channel; do
    for st in gated eager; do
      run_cmd "$pb/bin/$p" 20000 "$v" --start "$st"
      check "$p 20000 $v --start $st: exit 0, every task completed, the variant and start named" \
        eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = 20000 ] && [ "$(field sync)" = "$v" ] && [ "$(field start)" = "$st" ]'
    done
  done
done
run_cmd "$pb/bin/csharp-aot-atomic_counter" 100 20 --hits 500
check "atomic_counter 100 20 --hits 500: at least 500 hits, every task ended" \
  eval '[ "$rc" -eq 0 ] && [ "$(field hits)" -ge 500 ] && [ "$(field completed)" = 100 ]'
for p in csharp-atomic_counter csharp-aot-atomic_counter; do
  run_cmd "$pb/bin/$p" 300 40 --mode once --spawn-from task --burst 100 --burst-pause-ms 30 --poll-ms 20
  check "$p once mode from a task in bursts: one hit each, no sooner than a sleep, the mode named" \
    eval '[ "$rc" -eq 0 ] && [ "$(field hits)" = 300 ] && [ "$(field completed)" = 300 ] && [ "$(field reached_ms)" -ge 100 ] && [ "$(field mode)" = once ] && [ "$(field spawn_from)" = task ]'
done
run_cmd env BENCH_THREADS=1 "$pb/bin/csharp-coro_timer" 1000 20
check "BENCH_THREADS=1: one pool worker, below the core count, and the line says who chose it" \
  eval '[ "$rc" -eq 0 ] && [ "$(field threads)" = 1 ] && [ "$(field pool)" = BENCH_THREADS ]'

finish
