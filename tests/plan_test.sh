#!/usr/bin/env bash
# tests/plan_test.sh: the planner differential. ./run.sh --plan on the command lines below gives the
# listings in tests/golden/plans.md, which were made at commit f963502, before the harness moved
# to Python: ours, --sweep, --peers and --sweep --peers with THREADS; START, THREAD_CAP, every
# atomic_counter setting and PEER_TIMEOUT; PEERS, PEERS_PATCH's, PEERS_DOTNET's and PEERS_GO's copies; all seven
# write-ups with and without --quick; TABLES and RUNS. The estimate line differs from machine to
# machine and is masked. GOLDEN_WRITE=DIR writes the listings to DIR/plans.md instead.
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh || exit 1
golden=$PWD/tests/golden/plans.md
# shellcheck source=tests/fakes.sh
. tests/fakes.sh || exit 1

crate() { mkdir -p "$1" && printf '[package]\nname = "%s"\nversion = "%s"\nedition = "2021"\n' "$2" "$3" >"$1/Cargo.toml"; }
crate "$tmp/src/tokio-a" tokio 1.41.1
crate "$tmp/src/tokio-b" tokio 1.53.1
crate "$tmp/src/ppl" pin-project-lite 0.2.17

# The command lines, one a line; $A, $B and $P are the crate sources above.
lines='./run.sh --plan 1000
RUNS=3 ./run.sh --plan 1000000 coro_timer
THREADS="1 2 4" SLEEP_MS=2000 ./run.sh --plan 100000 coro_timer coro_shared
RUNS=1 THREAD_CAP=500 ./run.sh --plan 1000 threads
START=eager ./run.sh --plan 1000 running_avg hash_collect
START="gated eager" THREADS="1 2" ./run.sh --plan 1000 running_avg
HITS=5000 ./run.sh --plan 1000 atomic_counter
MODE=once SPAWN_FROM=task BURST=100 BURST_PAUSE_MS=50 POLL_MS=20 ./run.sh --plan 1000 atomic_counter
MODE=loop SPAWN_FROM=main POLL_MS=200 RUNS=2 ./run.sh --plan 500 atomic_counter
MODE=once SPAWN_FROM=task BURST=7 ./run.sh --plan 100 atomic_counter
SWEEP="1 10 100" ./run.sh --plan --sweep
SWEEP="10 1000" THREADS="1 2" ./run.sh --plan --sweep coro_timer atomic_counter
SWEEP="1 100 100000" THREAD_CAP=1000 ./run.sh --plan --sweep threads
SWEEP="1 100" START="gated eager" ./run.sh --plan --sweep hash_collect
./run.sh --plan --peers 1000
PEERS="go tokio" RUNS=3 ./run.sh --plan --peers 10000 coro_timer coro_shared
PEERS="csharp csharp-aot java" THREADS="1 2" ./run.sh --plan --peers 1000 coro_timer running_avg
PEER_TIMEOUT=20 PEERS="node python" ./run.sh --plan --peers 1000 hash_collect
PEERS="go csharp tokio" MODE=once SPAWN_FROM=task BURST=10 ./run.sh --plan --peers 100 atomic_counter
PEERS="go csharp tokio node" MODE=once SPAWN_FROM=task BURST=10 BURST_PAUSE=sleep1 ./run.sh --plan --peers 100 atomic_counter
PEERS="go node" HITS=2000 POLL_MS=50 ./run.sh --plan --peers 100 atomic_counter
START=eager PEERS="go rayon java" ./run.sh --plan --peers 100 running_avg hash_collect
THREAD_CAP=50 PEERS="rust-std java haskell" ./run.sh --plan --peers 100 threads coro_timer
SLEEP_MS=100 PEERS="floor erlang elixir nim asio" ./run.sh --plan --peers 100 coro_timer coro_shared
PEERS="bun deno node-current pypy" ./run.sh --plan --peers 100 coro_timer
PEERS_PATCH="tokio=$A" PEERS="tokio async-std rayon" ./run.sh --plan --peers 1000 coro_timer running_avg
PEERS_PATCH="tokio=$A; tokio=$B pin-project-lite=$P" ./run.sh --plan --peers 1000 coro_timer coro_shared
PEERS_DOTNET="9.0" PEERS="csharp csharp-aot" ./run.sh --plan --peers 1000 coro_timer
PEERS_DOTNET="8.0 9.0" PEERS_PATCH="tokio=$A" THREADS="1 2" ./run.sh --plan --peers 1000 coro_shared
PEERS_GO="1.23 1.22" PEERS="go csharp" ./run.sh --plan --peers 1000 coro_shared
SWEEP="1 100 1000" PEERS="go tokio node" ./run.sh --plan --sweep --peers coro_timer
SWEEP="1 100" THREADS="1 2" PEERS="go csharp" ./run.sh --plan --sweep --peers coro_timer running_avg
SWEEP="1 10" START=eager PEERS=go SLEEP_MS=100 ./run.sh --plan --sweep --peers hash_collect
SWEEP="1 10 100" THREAD_CAP=20 PEERS="go rust-std" ./run.sh --plan --sweep --peers threads atomic_counter
./run.sh --plan --replicate kjpgit-2019
./run.sh --plan --replicate kjpgit-2019 --quick
./run.sh --plan --replicate pkolaczk-2023
./run.sh --plan --replicate pkolaczk-2023 --quick
./run.sh --plan --replicate hez2010-2024
./run.sh --plan --replicate hez2010-2024 --quick
./run.sh --plan --replicate hez2010-2024-take2
./run.sh --plan --replicate hez2010-2024-take2 --quick
./run.sh --plan --replicate jantzeno-2023
./run.sh --plan --replicate jantzeno-2023 --quick
./run.sh --plan --replicate csharp-go-elixir-rust-2024
./run.sh --plan --replicate csharp-go-elixir-rust-2024 --quick
./run.sh --plan --replicate csharp-go-2022
./run.sh --plan --replicate csharp-go-2022 --quick
TABLES="once_1m burst_1m" ./run.sh --plan --replicate csharp-go-2022
TABLES=hits RUNS=2 ./run.sh --plan --replicate csharp-go-2022 --quick
RUNS=3 ./run.sh --plan --replicate pkolaczk-2023
PEERS_PATCH="tokio=$A pin-project-lite=$P" PEERS_DOTNET=9.0 ./run.sh --plan --replicate hez2010-2024
PEERS="go csharp" ./run.sh --plan --replicate kjpgit-2019
PEERS_GO=1.23 PEERS_DOTNET=9.0 ./run.sh --plan --replicate hez2010-2024-take2 --quick'
A=$tmp/src/tokio-a B=$tmp/src/tokio-b P=$tmp/src/ppl

# listing LINE: the command, its exit status, and what it printed, the estimate masked.
listing() {
  eval "bench $1"
  printf '$ %s\nexit %s\n' "$1" "$rc"
  { printf '%s\n' "$out"; [ -z "$err" ] || printf 'stderr: %s\n' "$err"; } | T=$tmp awk '
    { gsub(ENVIRON["T"], "TMP") }
    /^Estimated time here: / { $0 = "Estimated time here: #" }
    { print }'
  echo @@
}

: >"$tmp/plans.md"
count=0
while IFS= read -r line; do
  listing "$line" >"$tmp/one.md"
  cat "$tmp/one.md" >>"$tmp/plans.md"
  count=$((count + 1))
  [ -z "${GOLDEN_WRITE:-}" ] || continue
  # This command's listing as the golden file holds it: from its "$ " line to the "@@" after it.
  awk -v c="\$ $line" '$0 == c { on = 1 } on { print } on && $0 == "@@" { exit }' "$golden" >"$tmp/want.md"
  check "--plan as before: $line" cmp -s "$tmp/want.md" "$tmp/one.md"
  cmp -s "$tmp/want.md" "$tmp/one.md" || diff -u "$tmp/want.md" "$tmp/one.md" | head -n 20
done <<<"$lines"
if [ -n "${GOLDEN_WRITE:-}" ]; then
  mkdir -p "$GOLDEN_WRITE" && cp "$tmp/plans.md" "$GOLDEN_WRITE/plans.md" && echo "wrote $GOLDEN_WRITE/plans.md"
else
  check "the golden file holds these $count command lines and no others" [ "$(grep -c '^\$ ' "$golden")" -eq "$count" ]
  check "there are at least 40" [ "$count" -ge 40 ]
fi
finish
