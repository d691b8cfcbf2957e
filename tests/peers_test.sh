#!/usr/bin/env bash
# tests/peers_test.sh: ./run.sh --peers in a sandbox with fake toolchains (go, cargo, node, python3,
# elixir, java, javac, a C++ compiler) whose "builds" write fake programs (no real toolchain needed):
# the section and its runtime column, the 1-task baseline and bytes/task from the two max RSS,
# sleeps passed, builds outside the tree, Rust offline from Debian's crate sources, missing
# toolchains listed once, failed builds and runs, interruption, bad arguments, bash 3.2 rules.
# Most runs choose a few runtimes with PEERS, to keep it short (~30 s).
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh || exit 1

# shellcheck source=tests/fakes.sh
. tests/fakes.sh || exit 1
# rows_of SCENARIO: "runtime|variant" of each row of SCENARIO, one per line.
rows_of() { table_rows | awk -F' [|] ' -v s="| $1" '$1 == s { print $2 "|" $3 }'; }
# every_row_has_17_cells: every table line of the newest section has 17 cells ("\|" is text).
every_row_has_17_cells() {
  last_section | grep '^|' | awk '{ gsub(/\\\|/, ""); if (gsub(/\|/, "|") != 18) bad = 1; n++ } END { exit bad || n == 0 }'
}
# external_bytes_ok: every successful row past N=1: bytes/task is (max RSS − max RSS at N=1) × 1024
# / N within the rounding of the one-decimal MiB cells; and never the program's own 999999.9.
external_bytes_ok() {
  table_rows | grep -v failed | awk -F' [|] ' '
    { d = ($10 - $13) * 1048576 / $4 - $14; tol = 0.1 * 1048576 / $4 + 0.1
      if ($14 !~ /^-?[0-9]+[.][0-9]$/ || d > tol || d < -tol || $14 == "999999.9") bad = 1; n++ }
    END { exit bad || n == 0 }'
}
# ran NAME N TIMES: args.log shows NAME run TIMES times with N tasks.
ran() { [ "$(grep -c "^$1 $2\( \|$\)" args.log)" -eq "$3" ]; }
tree_listing() { (cd "$box" && find peers | sort); }

tree_listing >"$tmp/tree_before"

# 1. All toolchains present, crates.io reachable: one section, one table with a runtime column.
bench RUNS=1 SLEEP_MS=50 ./run.sh --peers 50
sec=$(last_section)
check "a peers run exits 0" [ "$rc" -eq 0 ]
check "--render prints the peers section again from the store, baselines and all" renders_again
check "the heading names peers, N and RUNS" has "$sec" '^## .* UTC — peers N=50, RUNS=1$'
check "the machine is described as in a plain run" has "$sec" '^- compiler: g\+\+ \(Fake\) 12.2.0$'
check "the header has the runtime column and units" has "$sec" '^\| scenario \| runtime \| variant \| N \| threads \| wall s \| user s \| sys s \| CPU s \| max RSS MiB \| RSS at wait MiB \| avg RSS MiB \| max RSS at N=1 MiB \| bytes/task \| spawn s \| all alive \| hits/s \|$'
check "every row has 17 cells" every_row_has_17_cells
check "ours comes first in each scenario" \
  [ "$(table_rows | awk -F' [|] ' 'prev != $1 { print $2 } { prev = $1 }' | sort -u)" = "c++20 (this repo)" ]
check "the scenarios come in their order" \
  [ "$(table_rows | awk -F' [|] ' '{ print substr($1, 3) }' | uniq | tr '\n' ' ')" = "threads coro_timer coro_shared atomic_counter running_avg hash_collect " ]
check "coro_timer: every runtime, its version detected at run time" \
  [ "$(rows_of coro_timer | cut -d'|' -f1 | tr '\n' ';')" = "c++20 (this repo);floor: no coroutine, g++ 12.2.0;go 1.19.8;c# .NET 10.0.3 JIT;c# .NET 10.0.2 NativeAOT;c# .NET 10.0.3 JIT;c# .NET 10.0.2 NativeAOT;rust tokio 1.99.0;rust tokio 1.99.0;rust tokio 1.99.0;rust async-std 1.99.1;rust async-std 1.99.1;node 20.0.0;bun 1.4.4;deno 2.9.6;node 26.10.0 (npm);python 3.11.0;pypy 7.3.11;elixir 1.14.0 (OTP 25);erlang/OTP 25;java 17.0.2;haskell ghc 9.0.2;nim 1.6.10;boost.asio 1.74.0;" ]
check "tokio has a spawn and a join_all row" has "$(rows_of coro_timer)" '^rust tokio 1.99.0\|join_all '
check "coro_shared has the same runtimes" [ "$(rows_of coro_shared | wc -l)" -eq 21 ]
check "threads: ours, Rust std::thread and Java platform threads" \
  [ "$(rows_of threads | cut -d'|' -f1 | tr '\n' ';')" = "c++20 (this repo);rust 1.70.0 std;java 17.0.2;" ]
check "atomic_counter: ours, Go, C# twice, tokio and Node" \
  [ "$(rows_of atomic_counter | cut -d'|' -f1 | tr '\n' ';')" = "c++20 (this repo);go 1.19.8;c# .NET 10.0.3 JIT;c# .NET 10.0.2 NativeAOT;rust tokio 1.99.0;node 20.0.0;" ]
check "C#: the SDK and the newest 10.0 runtime are named" has "$sec" '^- dotnet: SDK 10.0.100, runtime Microsoft.NETCore.App 10.0.3$'
check "C#: each build's GC mode and runtime, from its programs' own lines" eval \
  'has "$sec" "^- c# .NET 10.0.3 JIT: the workstation-concurrent GC ran, runtime 10.0.3 " && has "$sec" "^- c# .NET 10.0.2 NativeAOT: the workstation-concurrent GC ran"'
check "C#: dotnet publish -c Release, once per program and build, never dotnet run" \
  eval '[ "$(grep -c "^dotnet publish .* -c Release " tools.log)" -eq 12 ] && [ "$(grep -c "^dotnet run" tools.log)" -eq 0 ]'
check "C#: NativeAOT is asked for in its build only" [ "$(grep -c 'PublishAot=true' tools.log)" -eq 6 ]
check "C#: the JIT program runs through its apphost where it was published, DOTNET_ROOT the runtime found" \
  grep -qF -- "exec 'env' 'DOTNET_ROOT=/opt/fake dotnet' '$pb/dotnet/csharp/coro_timer/csharp-coro_timer'" "$pb/bin/csharp-coro_timer"
check "each program ran once with 1 task, the baseline" ran go-coro_timer 1 1
check "ours gets the same 1-task run" ran coro_shared 1 1
check "the interpreted peers too" ran elixir-coro_shared 1 1
check "bytes/task is (max RSS at N − max RSS at N=1) × 1024 / N for every row" external_bytes_ok
check "the N=1 column is a MiB figure" [ "$(table_rows | awk -F' [|] ' '$13 !~ /^[0-9]+[.][0-9]$/' | wc -l)" -eq 0 ]
check "a peer gets N and SLEEP_MS as plain arguments" grep -q '^node-coro_timer 50 50$' args.log
check "ours gets --sleep-ms" grep -q '^coro_timer 50 --sleep-ms 50$' args.log
check "the section names each toolchain's version" has "$sec" '^- go: go version go1.19.8 linux/amd64$'
check "and where the crates came from" has "$sec" '^- rust crates: crates.io'
check "JDK 17: virtual threads are not run, said once" [ "$(printf '%s\n' "$sec" | grep -c 'virtual threads: not run, they need JDK 21')" -eq 1 ]
# The section's bar charts: one per scenario, a bar per measured row at N, smallest first, ours marked.
charts_of_section() { printf '%s\n' "$sec" | sed -n 's/^!\[[^]]*\](charts\/\(.*\))$/\1/p'; }
check "a bar chart per scenario, linked from the section" \
  [ "$(charts_of_section | sed 's/^peers-[0-9]\{8\}-[0-9]\{4\}-//' | tr '\n' ' ')" = "threads.svg coro_timer.svg coro_shared.svg atomic_counter.svg running_avg.svg hash_collect.svg " ]
c=$tmp/charts/$(charts_of_section | grep coro_timer)
# bars FILE: "label|MiB" of each bar, top to bottom.
bars() { grep '<g class="bar"' "$1" | sed 's/.* data-label="\([^"]*\)" data-mib="\([^"]*\)".*/\1|\2/'; }
check_bars() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
check "the coro_timer chart is well-formed XML" check_bars "$c"
check "a bar per coro_timer row, each the row's max RSS, smallest first" \
  [ "$(bars "$c" | cut -d'|' -f2 | tr '\n' ' ')" = "$(table_rows | awk -F' [|] ' '$1 == "| coro_timer" { print $10 }' | sort -n | tr '\n' ' ')" ]
check "a bar is labelled with its runtime, and the tokio programs apart" \
  eval 'bars "$c" | grep -q "^rust tokio 1.99.0 join_all|" && bars "$c" | grep -q "^rust tokio 1.99.0|" && bars "$c" | grep -q "^c# .NET 10.0.2 NativeAOT Task list|"'
check "ours is marked, and only ours" \
  eval '[ "$(grep -c "data-marked=\"yes\"" "$c")" -eq 1 ] && grep -q "<g class=\"bar\" data-label=\"c++20 (this repo)\" [^>]*data-marked=\"yes\"" "$c"'
check "the bars name the machine in the subtitle" grep -qF -- "g++ (Fake) 12.2.0 · $(date -u +%Y-%m-%d)" "$c"
check "Elixir runs with +P raised, the same at N=1" [ "$(grep -c '^elixir --erl +P 1048576 ' tools.log)" -eq 4 ]
check "no go run, no cargo run: the built programs are measured" [ "$(grep -c -E '^(go|cargo) run' tools.log)" -eq 0 ]
check "the peers are built in PEERS_BUILD" [ -x "$pb/bin/tokio-coro_timer_join_all" ]
check "Cargo.lock exists only in the build copy" [ -f "$pb/rust/rust-tokio/Cargo.lock" ]
check "online, no offline cargo config is written" [ ! -e "$pb/rust/rust-tokio/.cargo/config.toml" ]
check "nothing is added to or built in peers/" cmp -s "$tmp/tree_before" <(tree_listing)
check "no temp files are left" no_temp_files

# 2. Without SLEEP_MS every program gets --peers's defaults: 30000 ms, atomic_counter 1000 ms;
# THREADS=2 reaches ours as --threads 2 and each peer with a knob through it; RUNS runs at N.
rm -f args.log env.log
bench RUNS=3 THREADS=2 PEERS="go tokio" ./run.sh --peers 10 coro_timer atomic_counter
check "a run without SLEEP_MS exits 0" [ "$rc" -eq 0 ]
check "each program ran RUNS times with N tasks" ran tokio-coro_timer_join_all 10 3
check "and once with 1 task" ran tokio-coro_timer_join_all 1 1
check "wall, CPU and max RSS each stand with their range over RUNS" \
  [ "$(table_rows | awk -F' [|] ' -v r='^[0-9.]+ [(][0-9.]+–[0-9.]+[)]( †)?$' '$6 !~ r || $9 !~ r || $10 !~ r' | wc -l)" -eq 0 ]
check "a peer gets 30000" grep -q '^go-coro_timer 10 30000$' args.log
check "an atomic_counter peer gets 1000" grep -q '^tokio-atomic_counter 10 1000$' args.log
check "ours gets --sleep-ms 30000, and THREADS" grep -q '^coro_timer 10 --sleep-ms 30000 --threads 2$' args.log
check "Go gets GOMAXPROCS=2" grep -qx 'go-atomic_counter 10 GOMAXPROCS=2 TOKIO_WORKER_THREADS= BENCH_THREADS= RAYON_NUM_THREADS=' env.log
check "tokio gets TOKIO_WORKER_THREADS=2" grep -qx 'tokio-coro_timer 10 GOMAXPROCS= TOKIO_WORKER_THREADS=2 BENCH_THREADS= RAYON_NUM_THREADS=' env.log
check "every row's threads column says 2" [ "$(table_rows | awk -F' [|] ' '$5 != 2' | wc -l)" -eq 0 ]
check "the section says which sleep" has "$(last_section)" '^- sleep: 30000 ms \(atomic_counter: 1000 ms'
check "only the chosen scenarios run" [ "$(grep -c -E '^(threads|java-threads|coro_shared) ' args.log)" -eq 0 ]
check "PEERS chooses the runtimes" \
  [ "$(table_rows | awk -F' [|] ' '{ print $2 }' | sort -u | tr '\n' ';')" = "c++20 (this repo);go 1.19.8;rust tokio 1.99.0;" ]
check "and the section names them" has "$(last_section)" '^- PEERS=go tokio$'

# 2b. Spawn time and "all alive": a program that says some tasks ended before spawning did is
# flagged "no", one whose spawning outlasted the sleep without losing any is flagged too; ours is
# held to the same rule; atomic_counter rows show hits/s.
rm -f args.log
touch early_go-coro_timer due_node-coro_timer
bench RUNS=1 SLEEP_MS=50 PEERS="go node" ./run.sh --peers 10 coro_timer coro_shared atomic_counter
rm early_go-coro_timer due_node-coro_timer
# cells SCENARIO RUNTIME: its row's spawn s, all alive and hits/s cells, ";"-separated.
cells() { table_rows | awk -F' [|] ' -v s="| $1" -v r="$2" '{ sub(/ [|]$/, "") } $1 == s && $2 == r { print $15 ";" $16 ";" $17; exit }'; }
check "a run with flagged rows exits 0: they are measured, and say what they are" [ "$rc" -eq 0 ]
check "spawn s, from the program's spawn_ms" [ "$(cells coro_shared "go 1.19.8")" = "0.00;yes;-" ]
check "tasks ended before spawning did: no, with how many" [ "$(cells coro_timer "go 1.19.8")" = "0.06;no: 2 of 10 had ended;-" ]
check "spawning outlasted the sleep, none ended: flagged" [ "$(cells coro_timer "node 20.0.0")" = "0.06;yes; spawning outlasted the sleep;-" ]
check "ours gets the same columns" [ "$(cells coro_timer "c++20 (this repo)")" = "0.00;yes;-" ]
sec=$(last_section)
chart=$tmp/charts/$(charts_of_section | grep coro_timer)
check "a bar of a row that held fewer than N tasks at once says so on the bar: hatched, and in its value" \
  eval 'grep -q "data-label=\"go 1.19.8\"[^>]* data-alive=\"no\".*fill=\"url(#not-alive)\".*class=\"value\"[^>]*>[^<]*, not all alive<" "$chart"'
check "and only that one" [ "$(grep -c 'data-alive="no"' "$chart")" -eq 1 ]
check "the key explains the hatching" grep -q 'not all N alive at once' "$chart"
check "atomic_counter rows show hits/s, no alive cell" [ "$(cells atomic_counter "go 1.19.8")" = "-;-;100" ]
check "the section states the rule" has "$(last_section)" '^- spawn s: ours, from the first spawn until every task waited .*; a peer, until its spawn loop returned'
# The spawn and all-alive cells, and bytes/task: tests/test_harness.py.

# 3. crates.io unreachable: the Rust peers build offline from Debian's crate sources, through a
# config in the build copy only.
rm -rf "$pb/rust"
touch offline
bench RUNS=1 SLEEP_MS=50 PEERS="tokio async-std" ./run.sh --peers 10 coro_timer
rm offline
check "offline with Debian's crates, the run exits 0" [ "$rc" -eq 0 ]
check "tokio's version is the one Debian ships" has "$(rows_of coro_timer)" '^rust tokio 1.24.2\|'
check "and async-std's" has "$(rows_of coro_timer)" '^rust async-std 1.12.0\|'
check "tokio before 1.26: both coro_timer rows name its 640-byte Sleep" \
  [ "$(rows_of coro_timer | grep -c '^rust tokio 1.24.2|.*(tokio < 1.26: 640-byte Sleep, see notes)$')" -eq 3 ]
check "and a note says why, and that tokio 1.26 changed it" \
  has "$(last_section)" '^- rust tokio 1.24.2: each Sleep is 640 bytes, 128-aligned, in every tokio before 1.26.0, .*tokio-rs/tokio#5468'
check "async-std's rows say nothing of it" [ "$(rows_of coro_timer | grep -c 'async-std.*640-byte')" -eq 0 ]
check "the config lives in the build copy and names the registry" \
  grep -qxF -- "directory = \"$reg\"" "$pb/rust/rust-tokio/.cargo/config.toml"
check "the section says the crates came from Debian, offline" has_line "$(last_section)" "- rust crates: Debian's sources in $reg, built offline"
check "and that crates.io could not be reached" has "$(last_section)" '^- crates.io could not be reached'
check "peers/ still holds no cargo config and no Cargo.lock" cmp -s "$tmp/tree_before" <(tree_listing)
# Unreachable and no Debian crates: the build fails, its row gives cargo's error (not the warning
# before it), and a note says which packages would have helped.
rm -rf "$pb/rust"
mkdir -p "$tmp/no-crates"
touch offline
bench RUNS=1 SLEEP_MS=50 PEERS=tokio PEERS_CARGO_REGISTRY="$tmp/no-crates" ./run.sh --peers 10 coro_timer
rm offline
check "no crates at all: tokio's row gives cargo's error" \
  has "$(table_rows)" '^\| coro_timer \| rust tokio \| [^|]+ \| 10 \| [^|]+ \| build failed: error: failed to get `tokio`: Could not resolve host'
check "and a note names the packages" has "$(last_section)" "^- crates.io could not be reached and .*/no-crates is empty: .*librust-tokio-dev"

# 4. Missing toolchains: listed once each, with the install command; the others still run.
rm -f args.log
bench RUNS=1 SLEEP_MS=50 NODE="$tmp/absent/node" CARGO="$tmp/absent/cargo" PEERS="go tokio async-std node" \
  ./run.sh --peers 10 coro_timer coro_shared atomic_counter
sec=$(last_section)
check "missing toolchains do not fail the run" [ "$rc" -eq 0 ]
check "node is listed once in the section, with its install command" \
  [ "$(printf '%s\n' "$sec" | grep -c -E '^- not run: node: `.*/absent/node` not found; install: (apt-get install nodejs|sudo apt-get install nodejs|brew install node)$')" -eq 1 ]
check "rust is listed once, with the crates for offline builds" \
  [ "$(printf '%s\n' "$sec" | grep -c -E '^- not run: rust: .* install: (.*cargo librust-tokio-dev librust-futures-dev librust-async-std-dev|brew install rust)')" -eq 1 ]
check "and once on stderr" [ "$(printf '%s\n' "$err" | grep -c 'node: .* not found')" -eq 1 ]
check "no node or Rust rows" [ "$(table_rows | grep -c -E '\| (node|rust) ')" -eq 0 ]
check "the other runtimes still run" [ "$(rows_of coro_shared | cut -d'|' -f1 | tr '\n' ';')" = "c++20 (this repo);go 1.19.8;go 1.19.8;" ]

# 5. A peer that fails to build gets a row saying so in every scenario; the others still run.
touch break_go
bench RUNS=1 SLEEP_MS=50 PEERS="go node" ./run.sh --peers 10 coro_timer atomic_counter
rm break_go
check "a failed build makes run.sh exit 1" [ "$rc" -eq 1 ]
check "its rows say build failed, with the error and the log" \
  [ "$(table_rows | grep -c -E "^\| [a-z_]+ \| go 1.19.8 \| [^|]+ \| 10 \| [^|]+ \| build failed: error: go broke here \(log: PEERS_BUILD/logs/go.log\) \|")" -eq 2 ]
check "the log it names exists" grep -q 'go broke here' "$pb/logs/go.log"
check "the failed rows have 17 cells too" every_row_has_17_cells
check "the other peers still ran" [ "$(table_rows | grep -c -E '^\| [a-z_]+ \| node 20.0.0 \| [^|]+ \| 10 \| [^|]+ \| [0-9]')" -eq 2 ]
touch break_aot
bench RUNS=1 SLEEP_MS=50 PEERS="csharp csharp-aot" ./run.sh --peers 10 coro_timer
rm break_aot
check "NativeAOT cannot link: its row says why in one line" \
  has "$(table_rows)" "^\| coro_timer \| c# .NET NativeAOT \| [^|]+ \| 10 \| [^|]+ \| build failed: error : Platform linker \('clang' or 'gcc'\) not found in PATH. \(log: PEERS_BUILD/logs/csharpaot.log\) \|"
check "and the JIT row still runs" has "$(table_rows)" '^\| coro_timer \| c# .NET 10.0.3 JIT \| [^|]+ \| 10 \| [^|]+ \| [0-9]'
bench RUNS=1 SLEEP_MS=50 DOTNET="$tmp/absent/dotnet" PEERS="csharp csharp-aot go" ./run.sh --peers 10 coro_timer
check "no dotnet: listed once, with Microsoft's packages or Homebrew" \
  [ "$(last_section | grep -c -E "^- not run: dotnet: .* not found; install: ((sudo )?apt-get install dotnet-sdk-10.0 .*Microsoft's package repository|brew install dotnet)")" -eq 1 ]
check "and Go still runs" has "$(rows_of coro_timer)" '^go 1.19.8\|'
touch no_boost
bench RUNS=1 SLEEP_MS=50 PEERS=asio ./run.sh --peers 10 coro_shared
rm no_boost
check "no Boost headers: listed as missing, not as a failed build" \
  has "$(last_section)" '^- not run: asio: Boost headers \(boost/version.hpp, for .*\) not found; install: .*(libboost-dev|brew install boost)'

# 6. A peer that fails at run time, or loses a task, gets a failed row.
touch fail_node-coro_timer short_python-coro_timer
bench RUNS=1 SLEEP_MS=50 PEERS="node python" ./run.sh --peers 10 coro_timer
rm fail_node-coro_timer short_python-coro_timer
check "a failed run makes run.sh exit 1" [ "$rc" -eq 1 ]
check "the failed row quotes the program's error" \
  has "$(table_rows)" '^\| coro_timer \| node 20.0.0 \| [^|]+ \| 10 \| [^|]+ \| failed \(exit 1\): coro_timer: check failed: completed 0 of 10 \|'
check "a lost task is a failure too" has "$(table_rows)" '^\| coro_timer \| python 3.11.0 \| [^|]+ \| 10 \| [^|]+ \| failed: completed=9 of 10 \|'
check "so is a failed 1-task run, in its own cell" has "$(table_rows)" '^\| coro_timer \| python 3.11.0 \| .* \| N=1 failed: completed=0 of 1 \| - \| - \| - \| - \|$'

# A run past PEER_TIMEOUT is stopped (TERM to its group), its row says so and how far it got, the
# remaining runs of that program at that N are skipped, and the other peers still run.
touch slow_go-coro_timer
rm -f args.log slow.stopped slow.finished
bench RUNS=2 SLEEP_MS=50 PEER_TIMEOUT=1 PEERS="go node" ./run.sh --peers 10 coro_timer
rm slow_go-coro_timer
check "a timed-out run makes run.sh exit 1, and it ends before the hung program would (it never waits out its 30 s)" \
  eval '[ "$rc" -eq 1 ] && [ ! -f slow.finished ]'
check "the row says it timed out, and the program's last progress line" \
  has "$(table_rows)" '^\| coro_timer \| go 1.19.8 \| [^|]+ \| 10 \| [^|]+ \| timed out after 1 s \(last: coro_timer: 3 of 10 done\) \|'
check "the stopped program got SIGTERM" [ -f slow.stopped ]
check "its second run at N is skipped" ran go-coro_timer 10 1
check "the other peers still ran" has "$(table_rows)" '^\| coro_timer \| node 20.0.0 \| [^|]+ \| 10 \| [^|]+ \| [0-9]'
check "the section states the limit" has "$(last_section)" '^- coro_timer: a run is stopped after 1 s \(PEER_TIMEOUT\)$'
# The default limit's arithmetic: tests/test_harness.py (test_the_default_time_limit).

# 7. JDK 21: the virtual-thread peers are built and run.
echo 21.0.4 >jdk
bench RUNS=1 SLEEP_MS=50 PEERS=java ./run.sh --peers 10 coro_timer coro_shared
rm jdk
check "with JDK 21 the run exits 0" [ "$rc" -eq 0 ]
check "virtual threads get a row in coro_timer and coro_shared" \
  [ "$(table_rows | grep -c '| java 21.0.4 | virtual thread')" -eq 2 ]
check "their sources were compiled apart" [ -f "$pb/java21/VirtualTimer.class" ]
check "the CompletableFuture rows say they are not virtual threads" \
  [ "$(table_rows | grep -c '| java 21.0.4 | [^|]*CompletableFuture[^|]*(not virtual threads) |')" -eq 2 ]

# 7b. A second JDK beside the one on PATH (17): the newest in PEERS_JDKS runs the virtual threads,
# unless JAVA_HOME names one of 21 or newer.
# fake_jdk DIR VERSION: a JDK whose javac and java say VERSION and otherwise are the fake tools.
fake_jdk() {
  mkdir -p "$1/bin"
  printf '#!/bin/sh
[ "$1" = -version ] && { echo "javac %s"; exit 0; }
exec "%s" "$@"
' "$2" "$tools/javac" >"$1/bin/javac"
  printf '#!/bin/sh
[ "$1" = -version ] && { echo "openjdk version \\"%s\\" 2025-10-21" >&2; exit 0; }
echo "%s $*" >>"%s/jdk.log"
exec "%s" "$@"
' \
    "$2" "$1" "$box" "$tools/java" >"$1/bin/java"
  chmod +x "$1/bin/javac" "$1/bin/java"
}
fake_jdk "$tmp/jdks/jdk-21" 21.0.4
fake_jdk "$tmp/jdks/temurin-25" 25.0.1
fake_jdk "$tmp/jdks/old-11" 11.0.2
bench RUNS=1 SLEEP_MS=50 PEERS=java ./run.sh --peers 10 coro_timer
check "with a JDK 25 in PEERS_JDKS the run exits 0" [ "$rc" -eq 0 ]
check "the newest JDK there runs the virtual threads, the one on PATH the rest" eval \
  '[ "$(table_rows | grep -c "| java 25.0.1 | virtual thread")" -eq 1 ] && [ "$(table_rows | grep -c "| java 17.0.2 | CompletableFuture")" -eq 1 ]'
check "its java ran them" has_prefix "$(cat jdk.log)" "$tmp/jdks/temurin-25 "
check "the section names it" eval 'has "$(last_section)" "^- java: .*virtual threads: " &&
  has_text "$(last_section)" "virtual threads: openjdk version \"25.0.1\" 2025-10-21 ($tmp/jdks/temurin-25)"'
rm -f jdk.log
JAVA_HOME=$tmp/jdks/jdk-21 bench RUNS=1 SLEEP_MS=50 PEERS=java ./run.sh --peers 10 coro_timer
check "JAVA_HOME of 21 or newer comes first" [ "$(table_rows | grep -c "| java 21.0.4 | virtual thread")" -eq 1 ]
JAVA_HOME=$tmp/jdks/old-11 bench RUNS=1 SLEEP_MS=50 PEERS=java ./run.sh --peers 10 coro_timer
check "JAVA_HOME older than 21 is passed over" [ "$(table_rows | grep -c "| java 25.0.1 | virtual thread")" -eq 1 ]
rm -rf "${tmp:?}/jdks"

# 8. THREAD_CAP caps every runtime's threads, and N=1 is its own baseline.
rm -f args.log
bench RUNS=1 SLEEP_MS=50 THREAD_CAP=20 ./run.sh --peers 50 threads
check "a capped run exits 0" [ "$rc" -eq 0 ]
check "every threads row runs THREAD_CAP" [ "$(table_rows | awk -F' [|] ' '$4 != 20' | wc -l)" -eq 0 ]
check "the section says so" has "$(last_section)" '^- threads: every runtime ran min\(N, THREAD_CAP=20\) threads\.$'
rm -f args.log
bench RUNS=1 SLEEP_MS=50 PEERS=go ./run.sh --peers 1 coro_shared
check "with N=1 no second 1-task run is made" ran go-coro_shared 1 1
check "an N=1 row is its own baseline, without bytes/task" has "$(table_rows | grep 'go 1.19.8')" '\| [0-9.]+ \(this run\) \| - \|'

# 8b. A THREADS list: every runtime with a knob runs at each T, the threads column says which T;
# a runtime of one thread runs once, and its row says so.
rm -f args.log env.log
bench RUNS=1 SLEEP_MS=50 THREADS="1 2" PEERS="go tokio node" ./run.sh --peers 10 coro_timer
check "a THREADS list with peers exits 0" [ "$rc" -eq 0 ]
check "ours runs at each T" \
  [ "$(grep -c -E '^coro_timer 10 --sleep-ms 50 --threads (1|2)$' args.log)" -eq 2 ]
check "Go runs at each T with GOMAXPROCS=T" \
  [ "$(grep -c -E '^go-coro_timer 10 GOMAXPROCS=(1|2) ' env.log)" -eq 2 ]
check "both tokio programs run at each T with TOKIO_WORKER_THREADS=T" \
  [ "$(grep -c -E '^tokio-coro_timer(_join_all)? 10 GOMAXPROCS= TOKIO_WORKER_THREADS=(1|2) ' env.log)" -eq 4 ]
check "the threads column holds T" \
  [ "$(table_rows | awk -F' [|] ' '$2 == "go 1.19.8" { printf "%s ", $5 }')" = "1 2 " ]
check "Node runs once, and its row says one thread" \
  [ "$(table_rows | awk -F' [|] ' '$2 == "node 20.0.0" { printf "%s;", $5 }')" = "1 (one thread);" ]
check "Node ran once at N" ran node-coro_timer 10 1
check "the section names each runtime's knob" has "$(last_section)" '^- Threads: each runtime at each T of THREADS=1 2, .*Go GOMAXPROCS=T'

# 8b2. running_avg and hash_collect: no sleep; each variant in turn, ours with --sync V and every
# peer with PROGRAM N V; the variant cell names it first; Rust's std::thread peers are capped.
rm -f args.log
bench RUNS=1 SLEEP_MS=50 THREAD_CAP=20 PEERS="go rust-std rayon node" ./run.sh --peers 50 running_avg
check "running_avg with peers exits 0" [ "$rc" -eq 0 ]
check "each variant: ours, then the peers; every variant cell names the variant first" \
  [ "$(table_rows | awk -F' [|] ' '{ split($3, w, "[,:]"); printf "%s/%s ", w[1], $2 }')" = \
    "mutex/c++20 (this repo) mutex/go 1.19.8 mutex/rust 1.70.0 std mutex/rust rayon 1.99.2 mutex/node 20.0.0 channel/c++20 (this repo) channel/go 1.19.8 channel/rust 1.70.0 std channel/rust rayon 1.99.2 channel/node 20.0.0 " ]
check "ours gets --sync V and no sleep" [ "$(grep -c -E '^running_avg 50 --sync (mutex|channel)$' args.log)" -eq 2 ]
check "a peer gets N and the variant" [ "$(grep -c -E '^go-running_avg 50 (mutex|channel)$' args.log)" -eq 2 ]
check "Rust std::thread runs THREAD_CAP threads" [ "$(grep -c -E '^rust-running_avg 20 (mutex|channel)$' args.log)" -eq 2 ]
check "and its rows say so, a thread per task" \
  [ "$(table_rows | grep -c -E '^\| running_avg \| rust 1.70.0 std \| (mutex|channel), gated: [^|]+ \(capped at THREAD_CAP=20\) \| 20 \| one per task \| [0-9]')" -eq 2 ]
check "the section says only that runtime was capped" \
  eval 'has "$(last_section)" "^- running_avg: rust 1.70.0 std ran min\(N, THREAD_CAP=20\) threads" && ! has "$(last_section)" "^- threads: every runtime"'
check "rayon's rows say it never has N tasks at once" \
  [ "$(table_rows | grep -c '| rust rayon 1.99.2 | [a-z]*, one shape: par_iter over 0..N, never N tasks at once')" -eq 2 ]
check "the section says no sleep was given to them" has "$(last_section)" '^- sleep: .*running_avg and hash_collect have none'
rm -f args.log env.log
bench RUNS=1 THREADS="1 2" PEERS="go rayon node" ./run.sh --peers 10 hash_collect
check "hash_collect with a THREADS list exits 0" [ "$rc" -eq 0 ]
check "rayon runs at each T with RAYON_NUM_THREADS" [ "$(grep -c -E '^rayon-hash_collect 10 .* RAYON_NUM_THREADS=(1|2)$' env.log)" -eq 4 ]
check "ours runs each variant at each T" [ "$(grep -c -E '^hash_collect 10 --sync (mutex|channel) --threads (1|2)$' args.log)" -eq 4 ]
check "Node runs once per variant" [ "$(grep -c -E '^node-hash_collect 10 (mutex|channel)$' args.log)" -eq 2 ]

# 8b3. The write-ups' variants: atomic_counter's modes reach ours and every peer as the same options,
# after their own arguments; the 1-task baseline keeps the default hit target; the heading, the
# variant cells and the notes name the mode. START runs each value in turn; a program of one shape
# runs once. Every coro_timer row shows the program's own RSS at wait.
rm -f args.log
bench RUNS=1 SLEEP_MS=50 MODE=once HITS=77 SPAWN_FROM=task BURST=5 BURST_PAUSE_MS=10 POLL_MS=200 PEERS="go node" ./run.sh --peers 20 atomic_counter
check "atomic_counter in once mode from a task, in bursts, exits 0" [ "$rc" -eq 0 ]
check "ours gets the options after its own" grep -qx -- 'atomic_counter 20 --sleep-ms 50 --mode once --spawn-from task --poll-ms 200 --burst 5 --burst-pause-ms 10' args.log
check "a peer gets the same options after N and the sleep" grep -qx -- 'go-atomic_counter 20 50 --mode once --spawn-from task --poll-ms 200 --burst 5 --burst-pause-ms 10' args.log
check "the heading names them" has "$(last_section)" '^## .* UTC — peers N=20, RUNS=1, HITS=77, MODE=once, SPAWN_FROM=task, POLL_MS=200, BURST=5, BURST_PAUSE_MS=10$'
check "HITS, loop mode's, is not passed in once mode, and the notes say so" \
  eval '! grep -q -- "--hits" args.log && has "$(last_section)" "HITS applies to loop mode only: HITS=77 was not passed"'
check "every row's variant cell names the mode" \
  [ "$(table_rows | grep -c '; once mode: one sleep, one hit, no loop, spawned from a task, bursts of 5 then 10 ms, polled every 200 ms |')" -eq 3 ]
check "the notes say what once mode does, and the bursts" \
  eval 'has "$(last_section)" "^- atomic_counter, once mode \(MODE=once\): " && has "$(last_section)" "^- atomic_counter, SPAWN_FROM=task: .*pauses 10 ms after every 5 spawns"'
rm -f args.log
bench RUNS=1 SLEEP_MS=50 MODE=once SPAWN_FROM=task BURST=5 BURST_PAUSE=sleep1 PEERS="go node" ./run.sh --peers 20 atomic_counter
check "BURST_PAUSE=sleep1: Go's sleep(1) is a nanosecond, Node's and ours a millisecond" \
  eval 'grep -qx -- "go-atomic_counter 20 50 --mode once --spawn-from task --burst 5 --burst-pause-ns 1" args.log &&
    grep -qx -- "node-atomic_counter 20 50 --mode once --spawn-from task --burst 5 --burst-pause-ms 1" args.log &&
    grep -qx -- "atomic_counter 20 --sleep-ms 50 --mode once --spawn-from task --burst 5 --burst-pause-ms 1" args.log'
check "and each row's variant cell and the notes say which" \
  eval '[ "$(table_rows | grep -c "bursts of 5 then a sleep(1), 1 ms |")" -eq 2 ] && [ "$(table_rows | grep -c "bursts of 5 then a sleep(1), 1 ns |")" -eq 1 ] &&
    has "$(last_section)" "pauses a sleep\(1\) in its runtime.s unit \(Go.s time.Sleep\(1\) 1 ns, every other 1 ms\) after every 5 spawns \(BURST, BURST_PAUSE\)"'
rm -f args.log
bench RUNS=1 HITS=400 PEERS=go ./run.sh --peers 20 atomic_counter
check "HITS reaches ours and the peers at N" eval 'grep -qx -- "go-atomic_counter 20 1000 --hits 400" args.log && grep -qx -- "atomic_counter 20 --sleep-ms 1000 --hits 400" args.log'
check "but not their 1-task baselines, which keep 10 x 1 hits" eval 'grep -qx "go-atomic_counter 1 1000" args.log && grep -qx "atomic_counter 1 --sleep-ms 1000" args.log'
check "the time limit follows the HITS / N rounds" has "$(last_section)" '^- atomic_counter: a run is stopped after 201 s$'
check "the cells say loop mode and the target" [ "$(table_rows | grep -c '; loop mode, 400 hits |')" -eq 2 ]
rm -f args.log
bench RUNS=1 START="gated eager" PEERS="go rayon" ./run.sh --peers 10 running_avg
check "running_avg with START=\"gated eager\" exits 0" [ "$rc" -eq 0 ]
check "ours runs each variant at each start" [ "$(grep -c -E '^running_avg 10 --sync (mutex|channel) --start (gated|eager)$' args.log)" -eq 4 ]
check "a peer gets --start after its variant" [ "$(grep -c -E '^go-running_avg 10 (mutex|channel) --start (gated|eager)$' args.log)" -eq 4 ]
check "rayon, of one shape, runs once per variant, without --start" [ "$(grep -c -E '^rayon-running_avg 10 (mutex|channel)$' args.log)" -eq 2 ]
check "the cells say which start" \
  [ "$(table_rows | awk -F' [|] ' '$2 == "go 1.19.8" { split($3, w, ":"); printf "%s;", w[1] }')" = "mutex, gated;mutex, eager;channel, gated;channel, eager;" ]
check "and rayon's that it has one shape" [ "$(table_rows | grep -c '| rust rayon 1.99.2 | [a-z]*, one shape: ')" -eq 2 ]
check "the heading names START" has "$(last_section)" '^## .* UTC — peers N=10, RUNS=1, START=gated eager$'
sec=$(last_section)
check "the chart tells an eager bar from a gated one" \
  eval 'bars "$(dirname "$res")/charts/$(charts_of_section | grep running_avg)" | grep -q "^go 1.19.8, mutex, eager|"'
bench RUNS=1 SLEEP_MS=50 PEERS=go ./run.sh --peers 10 coro_timer
check "RSS at wait is the program's own rss_wait_kib, in MiB" \
  [ "$(table_rows | awk -F' [|] ' '$2 == "go 1.19.8" { print $11 }')" = 1.4 ]

# 8c. --sweep --peers: every runtime at every N, one table, a chart per scenario with a line per
# runtime, ours marked, memory on a log axis; a run that timed out ends its series, the others go on.
rm -f args.log
touch slow_node-coro_shared
bench RUNS=1 SLEEP_MS=50 SWEEP="1 10 100" PEER_TIMEOUT=1 PEERS="go node" ./run.sh --sweep --peers coro_timer coro_shared
rm slow_node-coro_shared
sec=$(last_section)
check "a peers sweep with a timed-out run exits 1" [ "$rc" -eq 1 ]
check "--render gives the peers sweep again from the store, its timed-out row and what it stopped" renders_again
check "one row per runtime and N, in the peers table's shape" \
  [ "$(table_rows | awk -F' [|] ' '{ printf "%s/%s/%s ", substr($1, 3), $2, $4 }')" = \
    "coro_timer/c++20 (this repo)/1 coro_timer/c++20 (this repo)/10 coro_timer/c++20 (this repo)/100 coro_timer/go 1.19.8/1 coro_timer/go 1.19.8/10 coro_timer/go 1.19.8/100 coro_timer/node 20.0.0/1 coro_timer/node 20.0.0/10 coro_timer/node 20.0.0/100 coro_shared/c++20 (this repo)/1 coro_shared/c++20 (this repo)/10 coro_shared/c++20 (this repo)/100 coro_shared/go 1.19.8/1 coro_shared/go 1.19.8/10 coro_shared/go 1.19.8/100 coro_shared/go 1.19.8/1 coro_shared/go 1.19.8/10 coro_shared/go 1.19.8/100 coro_shared/node 20.0.0/1 coro_shared/node 20.0.0/10 coro_shared/node 20.0.0/100 " ]
check "every row has 16 cells" \
  eval '[ "$(table_rows | awk '"'"'{ gsub(/\\\|/, ""); if (gsub(/\|/, "|") != 17) bad = 1 } END { print bad + 0 }'"'"')" = 0 ]'
check "each N=1 row that ran is its program's baseline (node's coro_shared timed out)" \
  [ "$(table_rows | awk -F' [|] ' '$4 == 1 && $13 == "baseline"' | wc -l)" -eq 6 ]
check "the peers got N and the sleep at every N" eval 'ran go-coro_timer 1 1 && ran go-coro_timer 10 1 && ran go-coro_timer 100 1'
check "the run that timed out says so" \
  has "$(table_rows)" '^\| coro_shared \| node 20.0.0 \| [^|]+ \| 1 \| [^|]+ \| timed out after 1 s \(last: coro_shared: 3 of 1 done\) \|'
check "and the larger N of that runtime were not run" \
  [ "$(table_rows | grep -c -E '^\| coro_shared \| node 20.0.0 \| [^|]+ \| 1?0?0 \| [^|]+ \| not run: it timed out at N=1 \|')" -eq 2 ]
check "nor started" [ "$(grep -c '^node-coro_shared' args.log)" -eq 1 ]
charts_of_section() { printf '%s\n' "$sec" | sed -n 's/^!\[[^]]*\](charts\/\(.*\))$/\1/p'; }
check "a chart per scenario, linked from the section" \
  [ "$(charts_of_section | sed 's/^sweep-[0-9]\{8\}-[0-9]\{4\}-//' | tr '\n' ' ')" = "coro_timer.svg coro_shared.svg " ]
for c in $(charts_of_section); do
  check "$c is written beside RESULTS" [ -s "$tmp/charts/$c" ]
done
c=$tmp/charts/$(charts_of_section | grep coro_timer)
check "the chart has one line per runtime" \
  [ "$(grep -o '<polyline class="series" data-series="[^"]*"' "$c" | sed 's/.*data-series="//; s/"$//' | sort | tr '\n' ';')" = "c++20 (this repo);go 1.19.8;node 20.0.0;" ]
check "ours is marked, and only ours" \
  eval '[ "$(grep -c "data-marked=\"yes\"" "$c")" -eq 1 ] && grep -q "<g id=\"series-1\" [^>]*data-marked=\"yes\"" "$c"'
check "memory is on a log axis" grep -q 'data-y-scale="log"' "$c"
check "the chart names the machine's compiler and the date" grep -qF -- "g++ (Fake) 12.2.0 · $(date -u +%Y-%m-%d)" "$c"
check "its points are the table's max RSS" [ "$(grep -o 'data-series="go 1.19.8" data-n="[0-9]*" data-mib="[0-9.]*"' "$c" | sed 's/.*data-n="\([0-9]*\)" data-mib="\([0-9.]*\)"/\1:\2/' | tr '\n' ' ')" = \
  "$(table_rows | awk -F' [|] ' '$1 == "| coro_timer" && $2 == "go 1.19.8" { printf "%s:%s ", $4, $10 }')" ]
c=$tmp/charts/$(charts_of_section | grep coro_shared)
check "the chart notes the run that timed out" grep -q 'node 20.0.0 at N=1: timed out after 1 s' "$c"
check "the timed-out runtime has no line" [ "$(grep -c 'data-series="node 20.0.0"' "$c")" -eq 0 ]

# 8d. As root where apt-get is, a missing toolchain is installed before the run, and the section
# says so; PEERS_INSTALL=no (the rest of this test) never installs. A fake id says root, and a
# fake apt-get fails an install until its package lists are updated, as on a fresh image.
mkdir -p "$tmp/apt"
printf '#!/bin/sh
[ "$1" = -u ] && { echo 0; exit 0; }
exec /usr/bin/id "$@"
' >"$tmp/apt/id"
cat >"$tmp/apt/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$box/apt.log"
[ "\$1" = update ] && { : >"$box/apt.updated"; exit 0; }
[ -f "$box/apt.updated" ] || { echo "E: Unable to locate package" >&2; exit 100; }
mkdir -p "$tmp/installed" && cp "$tools/node" "$tmp/installed/node"
EOF
chmod +x "$tmp/apt/apt-get" "$tmp/apt/id"
rm -f apt.log apt.updated
bench RUNS=1 SLEEP_MS=50 PATH="$tmp/apt:$PATH" NODE="$tmp/installed/node" PEERS_INSTALL=auto PEERS="node csharp" DOTNET="$tmp/absent/dotnet" \
  ./run.sh --peers 10 coro_timer
check "the missing toolchain's packages were installed, the lists updated after a first failure" \
  [ "$(tr '\n' ';' <apt.log)" = "apt-get install -y nodejs;apt-get update;apt-get install -y nodejs;" ]
check "and then it ran" has "$(table_rows)" '^\| coro_timer \| node 20.0.0 \| [^|]+ \| 10 \| [^|]+ \| [0-9]'
check "the section says run.sh installed it" has "$(last_section)" '^- node: installed by run.sh \(apt-get install nodejs\)$'
check "dotnet, which apt cannot give, is not asked for and stays missing" \
  eval '! grep -q dotnet apt.log && has "$(last_section)" "^- not run: dotnet: "'
rm -rf "$tmp/installed" apt.log apt.updated
bench RUNS=1 SLEEP_MS=50 PATH="$tmp/apt:$PATH" NODE="$tmp/installed/node" PEERS=node ./run.sh --peers 10 coro_timer
check "PEERS_INSTALL=no installs nothing, even as root" eval '[ ! -f apt.log ] && has "$(last_section)" "^- not run: node: "'

# 9. An interrupted run leaves RESULTS byte-identical, no temp files, nothing still running: while
# a peer runs and while a peer builds.
interrupt() { # interrupt SIGNAL STATUS MARKER WHAT PEERS
  cp "$res" "$tmp/before"
  interrupted "$1" "$3" RUNS=1 SLEEP_MS=50 PEERS="$5" ./run.sh --peers 10 coro_timer
  check "SIG$1 $4 ends run.sh with $2" [ "$rc" -eq "$2" ]
  check "SIG$1 $4 leaves RESULTS unchanged" cmp -s "$res" "$tmp/before"
  check "SIG$1 $4 leaves no temp files" no_temp_files
  check "SIG$1 $4 stops what was running" stopped
}
interrupt TERM 143 slow_python-coro_timer "during a peer's run" "go python"
interrupt INT 130 slow_java-coro_timer "during a peer's run" java
interrupt TERM 143 slow_cargo "during a build" tokio

# 9b. At a commit, a peers run stopped halfway resumes: run again, what it measured is not measured
# again, and the section says so; once a run has completed, the next one measures anew.
rm -f args.log
git init -q . && git add run.sh peers && git -c user.email=t@t -c user.name=t commit -qm sandbox  # the logs stay untracked
interrupted TERM slow_python-coro_timer RUNS=1 SLEEP_MS=50 PEERS="go python" ./run.sh --peers 10 coro_timer
go_runs=$(grep -c '^go-coro_timer ' args.log)
bench RUNS=1 SLEEP_MS=50 PEERS="go python" ./run.sh --peers 10 coro_timer
check "a peers run stopped at a commit resumes: Go, measured before the stop, is not measured again" \
  eval '[ "$rc" -eq 0 ] && [ "$go_runs" -eq 2 ] && [ "$(grep -c "^go-coro_timer " args.log)" -eq 2 ] && has "$(table_rows)" "^\| coro_timer \| go 1.19.8 \|"'
check "the section says how many configurations came from the stopped run" has "$(last_section)" \
  '^- resumed: [1-9][0-9]* of the 6 configurations \(the N=1 baselines among them\) were measured by an earlier run of this command at commit [0-9a-f]+ that was stopped, kept in PEERS_BUILD/resume$'
check "Go's row has its figures, from the stopped run's records, and --render gives the section again" \
  eval 'has "$(table_rows)" "^\| coro_timer \| go 1.19.8 \| [^|]* \| 10 \| [^|]* \| [0-9]+[.][0-9]{2} \| [0-9]+[.][0-9]{2} \|" && renders_again'
bench RUNS=1 SLEEP_MS=50 PEERS="go python" ./run.sh --peers 10 coro_timer
check "a completed run leaves nothing to resume: the next one measures Go again" \
  eval '[ "$(grep -c "^go-coro_timer " args.log)" -eq 4 ] && ! has "$(last_section)" "^- resumed:"'
interrupted TERM slow_python-coro_timer RUNS=1 SLEEP_MS=50 PEERS="go python" ./run.sh --peers 10 coro_timer
go_runs=$(grep -c '^go-coro_timer ' args.log)
bench STORE="$tmp/other.jsonl" RUNS=1 SLEEP_MS=50 PEERS="go python" ./run.sh --peers 10 coro_timer
check "a kept result whose records are not in this run's STORE is measured again, and says so" \
  eval '[ "$rc" -eq 0 ] && [ "$(grep -c "^go-coro_timer " args.log)" -eq $((go_runs + 2)) ] && has "$err" "kept by an earlier run, but its records are not in .*/other.jsonl: measured again$"'
rm -rf .git

# 10. Bad arguments: exit 2 with one line naming the problem, RESULTS untouched.
cp "$res" "$tmp/before"
bad_case "missing N \(usage: ./run.sh --peers N" ./run.sh --peers
bad_case "N must be" ./run.sh --peers ten
bad_case "unknown scenario 'nosuch'" ./run.sh --peers 10 nosuch
bad_case "--peers comes first" ./run.sh 10 --peers
bad_case "--peers is given twice" ./run.sh --peers --sweep --peers coro_timer
bad_case "PEERS_INSTALL must be auto or no" PEERS_INSTALL=yes ./run.sh --peers 10
bad_case "PEERS_CARGO must be auto, crates-io or debian" PEERS_CARGO=maybe ./run.sh --peers 10
bad_case "PEERS_BUILD must be outside this tree" PEERS_BUILD="$box/build" ./run.sh --peers 10
touch "$tmp/a-file"
bench RUNS=1 PEERS=go PEERS_BUILD="$tmp/a-file/pb" ./run.sh --peers 10 coro_timer
check "a PEERS_BUILD that cannot be made is one line naming the failed call, exit 1, RESULTS untouched" \
  eval 'exited 1 "^run.sh: makedirs failed: Not a directory [(]$tmp/a-file/pb" && [ "$(printf "%s\n" "$err" | grep -c .)" -le 3 ] && cmp -s "$res" "$tmp/before"'
bad_case "PEERS: unknown runtime 'rust'" PEERS="go rust" ./run.sh --peers 10
bad_case "PEER_TIMEOUT must be a whole number of seconds >= 1, got '0'" PEER_TIMEOUT=0 ./run.sh --peers 10
bad_case "PEER_TIMEOUT must be a whole number of seconds >= 1, got '1.5'" PEER_TIMEOUT=1.5 ./run.sh --peers 10
bench ./run.sh --help
check "--help shows the --peers usage" has "$out" '^       ./run.sh --peers N \[scenario ...\]$'
check "--help names PEERS_BUILD" has "$out" '^  PEERS_BUILD='

# 11. The pure helpers, and bash 3.2 / BSD rules in run.sh.
printf '[[package]]\nname = "tokio-macros"\nversion = "1.7.0"\n\n[[package]]\nname = "tokio"\nversion = "1.24.2"\n' >"$tmp/lock"
check "lock_version reads the resolved crate, not a prefix of its name" [ "$(peerlib lock_version "$tmp/lock" tokio)" = "1.24.2" ]
check "first_version: node" [ "$(peerlib first_version v20.20.2)" = "20.20.2" ]
check "first_version: java" [ "$(peerlib first_version 'openjdk version "17.0.15" 2025-04-15')" = "17.0.15" ]
# .ci/run asks peers/lib.sh for the crates a fresh machine needs.
check "peers/lib.sh lists the crate packages" has "$(peerlib crate_packages 2>&1)" '^librust-tokio-dev$'
# Every group the descriptors' programs name has its runtime line and a build function; every
# toolchain of those, a detect function and a toolchain line.
tables_complete() (
  . peers/lib.sh || exit 1
  tables | awk '/^@@ /{ part = $2; next } part == "programs" { split($0, f, / *[|] */); if (f[3] != "ours") print f[3] }' | sort -u >"$tmp/groups"
  while read -r g; do
    t=$(printf '%s' "$group_lines" | awk -F ' *[|] *' -v g="$g" '$1 == g { print $3 }')
    [ -n "$t" ] || { echo "  # $g: no family_runtime line"; exit 1; }
    [ "$(type -t "build_$g")" = function ] || { echo "  # $g: no build_$g"; exit 1; }
  done <"$tmp/groups"
  for t in $(printf '%s' "$group_lines" | awk -F ' *[|] *' '{ print $3 }' | sort -u); do
    [ "$(type -t "detect_$t")" = function ] || { echo "  # $t: no detect_$t"; exit 1; }
    [ -n "$(printf '%s' "$toolchain_lines" | awk -v t="$t" '$1 == t')" ] || { echo "  # $t: no family_toolchain line"; exit 1; }
  done
)
# 8e. PEERS_PATCH: the Rust peers built against crate sources, a copy per set, beside the unpatched.
mkdir -p "$tmp/src/tokio-a" "$tmp/src/tokio-b" "$tmp/src/ppl" "$tmp/src/tokio-dropped"
crate() { printf '[package]\nname = "%s"\nversion = "%s"\nedition = "2021"\n' "$2" "$3" >"$1/Cargo.toml"; }
crate "$tmp/src/tokio-a" tokio 1.41.1
crate "$tmp/src/tokio-b" tokio 1.53.1
crate "$tmp/src/ppl" pin-project-lite 0.2.15
crate "$tmp/src/tokio-dropped" tokio 1.40.0
touch "$tmp/src/tokio-dropped/cargo-ignores-me"
(cd "$tmp/src/tokio-b" && git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm b)
b_commit=$(git -C "$tmp/src/tokio-b" rev-parse --short=7 HEAD)
cp peers/rust-tokio/Cargo.toml "$tmp/tokio.toml.before"
bench RUNS=1 SLEEP_MS=50 PEERS="tokio rayon" PEERS_PATCH="tokio=$tmp/src/tokio-a pin-project-lite=$tmp/src/ppl; tokio=$tmp/src/tokio-b" \
  ./run.sh --peers 10 coro_timer running_avg
sec=$(last_section)
check "a run with two patch sets exits 0" [ "$rc" -eq 0 ]
check "its heading's settings line names the sets by their crates, their directories left out" \
  has "$sec" '^- N=10, RUNS=1, SLEEP_MS=50, PEERS_PATCH=tokio=… pin-project-lite=…; tokio=…$'
check "each set's rows beside the unpatched ones, the version from the build's Cargo.lock" \
  [ "$(rows_of coro_timer | cut -d'|' -f1 | sort | uniq -c | awk '{ $1 = $1; print }' | tr '\n' ';')" = \
    "1 c++20 (this repo);3 rust tokio 1.41.1 (patched);3 rust tokio 1.53.1 (patched, $b_commit);3 rust tokio 1.99.0;" ]
check "the set's patch is in the build copy's Cargo.toml only" \
  eval 'grep -qx "tokio = { path = \"$tmp/src/tokio-a\" }" "$pb/rust/rust-tokio@1/Cargo.toml" && cmp -s peers/rust-tokio/Cargo.toml "$tmp/tokio.toml.before"'
check "the patched lock holds each crate at its source's version" \
  eval '[ "$(peerlib lock_version "$pb/rust/rust-tokio@1/Cargo.lock" pin-project-lite)" = 0.2.15 ] && [ "$(peerlib lock_version "$pb/rust/rust-tokio@2/Cargo.lock" tokio)" = 1.53.1 ]'
check "rayon, which uses no tokio, is not built against it, and the notes say so" \
  eval '[ "$(rows_of running_avg | grep -c rayon)" -eq 2 ] && has "$sec" "^- PEERS_PATCH set 1: the rust rayon peers use no tokio"'
check "no path of the sources in the section" eval '! has_text "$sec" "$tmp/src"'
echo '# a local change' >>"$tmp/src/tokio-b/Cargo.toml"
check "a checkout that differs from its commit is labelled COMMIT-dirty" \
  [ "$(patch_sets="tokio=$tmp/src/tokio-b" peerlib patch_label 1 tokio)" = "(patched, $b_commit-dirty)" ]
git init -q "$tmp/src"
check "a crate inside another repository's tree, not tracked there, gets no commit" \
  [ "$(patch_sets="tokio=$tmp/src/tokio-a" peerlib patch_label 1 tokio)" = "(patched)" ]
bench RUNS=1 SLEEP_MS=50 PEERS=tokio PEERS_PATCH="tokio=$tmp/src/tokio-dropped" ./run.sh --peers 10 coro_timer
check "a patch cargo did not use fails that build, loudly, in its rows" \
  [ "$(table_rows | grep -c 'build failed: error: patch not used: tokio 1.40.0 (PEERS_PATCH set 1), cargo resolved tokio 1.99.0 (log: ')" -eq 3 ]
check "and no row is labelled patched" eval '! has "$(table_rows)" "patched[,)]" && has "$(table_rows)" "rust tokio 1.99.0 \(PEERS_PATCH set 1 not used\)"'
check "and the build copy keeps no lock resolved without the patch, which would hold cargo there once the source is fixed" \
  [ ! -e "$pb/rust/rust-tokio@1/Cargo.lock" ]
mkdir -p "$tmp/src/tokio-new" && crate "$tmp/src/tokio-new" tokio 9.9.9 && touch "$tmp/src/tokio-new/cargo-fails-on-me"
bench RUNS=1 SLEEP_MS=50 PEERS=tokio PEERS_PATCH="tokio=$tmp/src/tokio-new" ./run.sh --peers 10 coro_timer
check "a patched build that fails says why in its rows, with no path of this machine's" \
  eval '[ "$(table_rows | grep -c "build failed: error: package \`tokio v9.9.9 (PEERS_PATCH set 1.s tokio)\` cannot be built")" -eq 3 ] && ! has_text "$(last_section)" "$tmp/src"'
cp "$res" "$tmp/before"
bad_case "PEERS_PATCH: .* holds no crate tokio \(its Cargo.toml's package is pin-project-lite\)" PEERS_PATCH="tokio=$tmp/src/ppl" ./run.sh --peers 10 coro_timer
bad_case "PEERS_PATCH: no directory /nonexistent for tokio" PEERS_PATCH="tokio=/nonexistent" ./run.sh --peers 10 coro_timer
bad_case "PEERS_PATCH: 'tokio' is not CRATE=DIRECTORY" PEERS_PATCH="tokio" ./run.sh --peers 10 coro_timer
bad_case "PEERS_PATCH: a set names tokio twice" PEERS_PATCH="tokio=$tmp/src/tokio-a tokio=$tmp/src/tokio-b" ./run.sh --peers 10 coro_timer
here=$PWD
cd "$tmp/src" && bench PEERS=tokio PEERS_PATCH="tokio=tokio-a" "$here/run.sh" --plan --peers 10 coro_timer
cd "$here" || exit 1
check "a relative PEERS_PATCH directory is taken from where run.sh was started" \
  eval '[ "$rc" = 0 ] && has "$out" " tokio-coro_timer@1 "'
# 8f. PEERS_DOTNET: the C# peers built again for another .NET, a copy per version, beside .NET 10's.
bench RUNS=1 SLEEP_MS=50 PEERS="csharp csharp-aot tokio" PEERS_PATCH="tokio=$tmp/src/tokio-a pin-project-lite=$tmp/src/ppl" \
  PEERS_DOTNET=9.0 ./run.sh --peers 10 coro_timer
sec=$(last_section)
check "a run with PEERS_DOTNET exits 0" [ "$rc" -eq 0 ]
check "its heading's settings line names PEERS_DOTNET, after PEERS_PATCH" \
  has "$sec" '^- N=10, RUNS=1, SLEEP_MS=50, PEERS_PATCH=tokio=… pin-project-lite=…, PEERS_DOTNET=9[.]0$'
check "each version's rows follow .NET 10's, named by the runtime pack or ILCompiler restored; the patch set's by its tokio" \
  [ "$(rows_of coro_timer | cut -d'|' -f1 | awk '!seen[$0]++' | tr '\n' ';')" = \
    "c++20 (this repo);c# .NET 10.0.3 JIT;c# .NET 9.0.7 JIT;c# .NET 10.0.2 NativeAOT;c# .NET 9.0.7 NativeAOT;rust tokio 1.99.0;rust tokio 1.41.1 (patched);" ]
check "the JIT copy ran the runtime it was published with, and the notes say why it is self-contained" \
  eval 'has "$sec" "^- c# .NET 9.0.7 JIT: the workstation-concurrent GC ran, runtime 9.0.7 \(the program.s own report\)$" &&
    has "$sec" "^- c# .NET 9.0.7 JIT: published self-contained, so the runtime that ran is the one restored from NuGet, not one installed here$"'
check "the copies build for net9.0 in copies of their own, this tree's TargetFramework untouched" \
  eval '[ -f "$pb/dotnet/csharp@2/coro_timer/csharp-coro_timer.deps.json" ] && [ -x "$pb/bin/csharp-aot-coro_timer@2" ] &&
    grep -q "<TargetFramework>net9.0</TargetFramework>" "$pb/src/csharpaot@2/Directory.Build.props" &&
    grep -q "<TargetFramework>net10.0</TargetFramework>" peers/csharp/Directory.Build.props'
touch "$box/break_net8.0"
bench RUNS=1 SLEEP_MS=50 PEERS=csharp PEERS_DOTNET="9.0 8.0" ./run.sh --peers 10 coro_timer
check "a version the SDK cannot build gets rows that say so, under its version" \
  eval '[ "$(table_rows | grep -c "c# .NET 8.0 JIT .*build failed: error NETSDK1045: The current .NET SDK does not support targeting .NET 8.0.")" -eq 2 ] &&
    [ "$(rows_of coro_timer | grep -c "c# .NET 9.0.7 JIT")" -eq 2 ]'
rm -f "$box/break_net8.0"
cp "$res" "$tmp/before"
bad_case "PEERS_DOTNET: 10.0 is the C# peers' own .NET" PEERS_DOTNET=10.0 ./run.sh --peers 10 coro_timer
bad_case "PEERS_DOTNET: '9' is not a .NET of 5.0 or newer, such as 9.0 or 8.0" PEERS_DOTNET=9 ./run.sh --peers 10 coro_timer
bad_case "PEERS_DOTNET: '4.0' is not a .NET of 5.0 or newer" PEERS_DOTNET=4.0 ./run.sh --peers 10 coro_timer
bad_case "PEERS_DOTNET: '\*' is not a .NET of 5.0 or newer" PEERS_DOTNET='*' ./run.sh --peers 10 coro_timer
bad_case "PEERS_DOTNET names 9.0 twice" PEERS_DOTNET="9.0 9.0" ./run.sh --peers 10 coro_timer
# 8g. PEERS_GO: the Go peers built again with another Go (Debian's golang-V in /usr/lib/go-V; here fakes where
# PEERS_GOROOT says), a copy per version under the default Go's rows; a Go that is not there gets rows that say why.
mkdir -p "$tmp/goroot/go-1.23/bin" "$tmp/not-root"
sed 's/go1[.]19[.]8/go1.23.5/' "$tools/go" >"$tmp/goroot/go-1.23/bin/go" && chmod +x "$tmp/goroot/go-1.23/bin/go"
bench RUNS=1 SLEEP_MS=50 PEERS=go PEERS_GOROOT="$tmp/goroot/go-@V@" PEERS_GO="1.23 1.22" ./run.sh --peers 10 coro_timer coro_shared
sec=$(last_section)
check "a run with PEERS_GO exits 1 when a copy's build failed, as any failed build does" [ "$rc" -eq 1 ]
check "its heading's settings line names PEERS_GO, each version" has "$sec" '^- N=10, RUNS=1, SLEEP_MS=50, PEERS_GO=1[.]23 1[.]22$'
check "each Go's rows follow the default Go's, named by the version that Go reports" \
  [ "$(rows_of coro_shared | cut -d'|' -f1 | tr '\n' ';')" = \
    "c++20 (this repo);go 1.19.8;go 1.19.8;go 1.23.5;go 1.23.5;go 1.22;go 1.22;" ]
check "the copies ran their own builds, each from its own copy of the sources" \
  eval 'ran go-coro_timer@1 10 1 && ran go-coro_shared_sleeper@1 10 1 && [ -f "$pb/src/go@1/go.mod" ] &&
    [ ! -e "$pb/bin/go-coro_timer@2" ]'
check "the heading names the copy's Go under the default Go's line" \
  eval 'has_text "$(printf "%s\n" "$sec" | grep -A1 "^- go: ")" "- go: go version go1.19.8 linux/amd64${nl}- go (PEERS_GO=1.23): go version go1.23.5 linux/amd64"'
check "a Go that is not there: its rows say so, under its version" \
  [ "$(table_rows | grep -c '| go 1.22 | .*build failed: error: go 1.22 is not installed where PEERS_GOROOT says (no bin/go there) (log: ')" -eq 3 ]
# Debian's path: not root (a fake id says 1000), run.sh installs nothing and the rows say how to.
printf '#!/bin/sh\n[ "$1" = -u ] && echo 1000\n' >"$tmp/not-root/id" && chmod +x "$tmp/not-root/id"
bench RUNS=1 SLEEP_MS=50 PATH="$tmp/not-root:$PATH" PEERS_INSTALL=auto PEERS=go PEERS_GO=1.99 ./run.sh --peers 10 coro_timer
check "not root: the copy's rows say run.sh installs that Go only as root, and how" \
  eval '[ "$rc" -eq 1 ] && [ "$(table_rows | grep -c "| go 1.99 | .*build failed: error: go 1.99 is not installed (no /usr/lib/go-1.99/bin/go); run.sh installs it as root only: sudo apt-get install golang-1.99 (Debian 12: bookworm-backports) (log: ")" -eq 1 ]'
bench RUNS=1 SLEEP_MS=50 PEERS=go PEERS_GO=1.99 ./run.sh --peers 10 coro_timer
check "PEERS_INSTALL=no: the rows say so" \
  has "$(table_rows)" '[|] go 1[.]99 [|] .*build failed: error: go 1[.]99 is not installed [(]no /usr/lib/go-1[.]99/bin/go[)]; PEERS_INSTALL=no: apt-get install golang-1[.]99 '
cp "$res" "$tmp/before"
bad_case "PEERS_GO: 1.19 is the default Go's own [(]GO=.*/go is Go 1[.]19[.]8[)]; name another, such as 1.23" PEERS_GO=1.19 ./run.sh --peers 10 coro_timer
bad_case "PEERS_GO: '1.23.5' is not a Go release as MAJOR.MINOR, such as 1.23 [(]Debian's golang-1.23[)]" PEERS_GO=1.23.5 ./run.sh --peers 10 coro_timer
bad_case "PEERS_GO: 'go1.23' is not a Go release as MAJOR.MINOR" PEERS_GO=go1.23 ./run.sh --peers 10 coro_timer
bad_case "PEERS_GO names 1.23 twice" PEERS_GO="1.23 1.23" ./run.sh --peers 10 coro_timer
# Debian's backports suite, added to apt's sources only where it has the package (fakes of apt-get and apt-cache: a
# package is there once a list names backports, and "golang-1.99" never is).
if [ "$(. /etc/os-release 2>/dev/null && echo "${ID:-}")" = debian ]; then
  mkdir -p "$tmp/apt/etc/sources.list.d" "$tmp/apt/bin" "$tmp/apt/pw"
  printf '#!/bin/sh
echo "$*" >>"%s/updates"
' "$tmp/apt" >"$tmp/apt/bin/apt-get"
  printf '#!/bin/sh
cat "%s"/etc/sources.list.d/*.list 2>/dev/null | grep -q backports && [ "$2" != golang-1.99 ] &&
  echo "  Candidate: 1.23.5-1" || echo "  Candidate: (none)"
' "$tmp/apt" >"$tmp/apt/bin/apt-cache"
  chmod +x "$tmp/apt/bin/"*
  backports() { run_cmd env PATH="$tmp/apt/bin:$PATH" apt_etc="$tmp/apt/etc" pw="$tmp/apt/pw" bash peers/lib.sh apt_backports "$1" "$tmp/apt/log"; }
  backports golang-1.23
  check "a package only backports has: the suite added to apt's sources, and the notes say so" \
    eval '[ "$rc" -eq 0 ] && grep -q "^deb http://deb.debian.org/debian [a-z]*-backports main$" "$tmp"/apt/etc/sources.list.d/*-backports.list &&
      grep -q "^apt: run.sh added Debian.s [a-z]*-backports suite to apt.s sources" "$tmp/apt/pw/notes"'
  rm -f "$tmp"/apt/etc/sources.list.d/*
  backports golang-1.99
  check "a package backports lacks too: the suite taken out again, apt left as it was" \
    eval '[ "$rc" -eq 1 ] && [ -z "$(ls "$tmp/apt/etc/sources.list.d")" ] && has "$err" "has no golang-1.99 either; taking it out of apt.s sources again$" &&
      [ "$(grep -c . "$tmp/apt/updates")" -eq 5 ]'
fi
bad_case "PEERS_GOROOT must be an absolute path, got 'goroot/go-@V@'" PEERS_GO=1.23 PEERS_GOROOT=goroot/go-@V@ ./run.sh --peers 10 coro_timer
bad_case "PEERS_GOROOT names one Go for every version of PEERS_GO: put @V@ where the version goes, got '/opt/go'" \
  PEERS_GO="1.23 1.22" PEERS_GOROOT=/opt/go ./run.sh --peers 10 coro_timer
# No tokio peer needs tokio's macros: each builds, as #[tokio::main] expands to, the multi-thread
# runtime with every driver and blocks on the program.
tokio_shape() {
  local f bad=''
  for f in "$repo"/peers/rust-tokio/src/bin/*.rs; do
    grep -v '^[[:space:]]*//' "$f" | grep -q 'tokio::main' && bad="$bad $f"  # comments may name it
    grep -q 'Builder::new_multi_thread().enable_all().build().expect("Failed building the Runtime").block_on(run())' "$f" || bad="$bad $f"
  done
  grep -v '^[[:space:]]*#' "$repo/peers/rust-tokio/Cargo.toml" | grep -q '"macros"' && bad="$bad Cargo.toml"
  [ -z "$bad" ] || { echo "  # not the shape:$bad"; return 1; }
}
check "every tokio peer builds its multi-thread runtime as #[tokio::main] would, without the macros feature" tokio_shape

check "each program's group has its runtime line and build function, each toolchain its detect" tables_complete
bash32_clean() {  # grep's 1: no line matched (2: a file it was given is missing)
  grep -n -E 'mapfile|readarray|declare -[An]|local -n|,,\}|\^\^\}|&>>|\|&|wait -n|EPOCHREALTIME|date \+%N|nproc|sed -i|[A-Za-z_]=\(' "$repo/run.sh" "$repo/peers/lib.sh" "$repo"/peers/*/runtimes.sh "$repo/tests/lib.sh"
  [ $? -eq 1 ]
}
check "run.sh, peers/lib.sh, the descriptors and tests/lib.sh use nothing bash 3.2 or BSD tools lack" bash32_clean

# 12. A runtime added the way peers/README.md says ("Adding a runtime"): a folder with its descriptor, in the
# sandbox's copy. Nothing else has to know it: PEERS accepts it, --plan lists it with its knob, and a
# run gives its rows, threads cells, version, chart suffix and Threads line.
mkdir -p peers/zeta
cat >peers/zeta/runtimes.sh <<EOF
family_runtime 'zeta | zeta | node | zeta @V@ | BENCH_THREADS=@T@ | -'
family_threads 'zeta: one fiber scheduler' 'zeta BENCH_THREADS=T'
family_programs <<'PROGRAMS'
coro_timer  | zeta-coro_timer  | zeta | -       | -     | fibers | - | a zeta fiber per task
running_avg | zeta-running_avg | zeta | mutex   | start | -      | - | mutex: a zeta fiber per task
running_avg | zeta-running_avg | zeta | channel | start | -      | - | channel: a zeta fiber per task
PROGRAMS
build_zeta() {
  local p
  for p in \$(programs_of zeta); do launcher "\$p" "$tools/fakepeer" "\$p" "\${p#zeta-}" || return 1; done
  echo 0.1 >"\$pw/zeta.version"
}
EOF
rm -f args.log env.log
bench THREADS="1 2" PEERS=zeta ./run.sh --plan --peers 10 coro_timer running_avg
check "--plan lists the new runtime's runs, at each T with its knob" \
  [ "$(printf '%s\n' "$out" | awk '$3 == "zeta" && $1 == "row" { print $2, $6, $8 }' | tr '\n' ';')" = \
    "coro_timer 1 BENCH_THREADS=1;coro_timer 2 BENCH_THREADS=2;running_avg 1 BENCH_THREADS=1;running_avg 2 BENCH_THREADS=2;running_avg 1 BENCH_THREADS=1;running_avg 2 BENCH_THREADS=2;" ]
bench RUNS=1 SLEEP_MS=50 THREADS="1 2" PEERS=zeta ./run.sh --peers 10 coro_timer running_avg
sec=$(last_section)
check "a run with it exits 0" [ "$rc" -eq 0 ]
check "its rows carry the version its build wrote, its variants and its threads" \
  [ "$(table_rows | awk -F' [|] ' '$2 == "zeta 0.1" { print $1 "/" $3 "/" $5 }' | tr '\n' ';')" = \
    "| coro_timer/a zeta fiber per task/1;| coro_timer/a zeta fiber per task/2;| running_avg/mutex, gated: a zeta fiber per task/1;| running_avg/mutex, gated: a zeta fiber per task/2;| running_avg/channel, gated: a zeta fiber per task/1;| running_avg/channel, gated: a zeta fiber per task/2;" ]
check "its programs got N and the sleep or the variant, and its knob" \
  eval 'ran zeta-coro_timer "10 50" 2 && ran zeta-running_avg "10 mutex" 2 && grep -q "^zeta-coro_timer 10 .*BENCH_THREADS=2 " env.log'
check "its chart bar has its suffix" \
  has "$(bars "$(dirname "$res")/charts/$(charts_of_section | grep coro_timer)")" '^zeta 0.1 fibers, threads=2[|]'
check "the Threads line names its knob" has "$sec" '^- Threads: .*; zeta BENCH_THREADS=T; a runtime without a knob'
rm -r peers/zeta

check "no temp files are left at the end" no_temp_files

finish
