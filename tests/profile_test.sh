#!/usr/bin/env bash
# tests/profile_test.sh: ./run.sh --profile, on the fakes of tests/fakes.sh and a fake perf that logs
# how it was called and what its program's environment held, runs the program and writes a fake
# data file, and whose `perf report` prints canned frames: a row of a --peers run and of a
# replication is built and run once, as its run would run it, under perf record -e cpu-clock; the
# runtime's switch for perf is set where its descriptor declares one; the file in profiles/ has its
# header and perf's frames, cut to a length one reads; nothing goes to RESULTS or the store; a bad
# row, table or write-up is one line and exit 2, a missing perf exit 1.
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh || exit 1
# shellcheck source=tests/fakes.sh
. tests/fakes.sh || exit 1

# The fake perf: record logs its arguments and the runtimes' switches, writes DATA, runs the
# command and ends as it ends; report prints 30 frames, each with two call chains (folded).
cat >"$tools/perf" <<EOF
#!/bin/sh
case \$1 in
  --version) echo "perf version 6.1.99 (fake)"; exit 0 ;;
  record)
    echo "\$*" >>"$box/perf.log"
    echo "env DOTNET_PerfMapEnabled=\${DOTNET_PerfMapEnabled-} ERL_FLAGS=\${ERL_FLAGS-} NODE_OPTIONS=\${NODE_OPTIONS-} GOMAXPROCS=\${GOMAXPROCS-}" >>"$box/perf.log"
    shift
    while [ "\$1" != -- ]; do [ "\$1" = -o ] && { data=\$2; shift; }; shift; done
    shift
    echo "fake perf data" >"\$data"
    "\$@"
    rc=\$?
    echo "written after its program ended" >>"\$data"
    echo "[ perf record: Woken up 1 times to write data ]" >&2
    echo "[ perf record: Captured and wrote 0.061 MB \$data (4321 samples) ]" >&2
    exit \$rc ;;
  report)
    echo "report \$*" >>"$box/perf.log"
    printf '# Samples: 4K of event %s\n#\n# Overhead  Shared Object  Symbol\n# ........  .............  ......\n#\n' "'cpu-clock'"
    i=1
    while [ \$i -le 30 ]; do
      printf '    %d.%02d%%  fakeprog  [.] frame_%d\n' \$((31 - i)) \$i \$i
      case " \$* " in *" folded,"*) printf '%d.00%% frame_%d;caller_a;main\n1.00%% frame_%d;caller_b;main\n0.50%% frame_%d;caller_c\n' \$((30 - i)) \$i \$i \$i ;; esac
      i=\$((i + 1))
    done ;;
  *) echo "perf: unexpected \$1" >&2; exit 1 ;;
esac
EOF
chmod +x "$tools/perf"
export PERF="$tools/perf"
# A git checkout, so that the file names its commit.
git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm sandbox
st=$(dirname "$res")/results.jsonl

# nothing_measured: no RESULTS, no store, nothing left in TMPDIR.
nothing_measured() { [ ! -e "$res" ] && [ ! -e "$st" ] && no_temp_files; }
# one_line_exit CODE REGEX: the last bench exited CODE with one line on stderr saying REGEX.
one_line_exit() { exited "$1" "$2" && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]; }
# refused REGEX [VAR=VALUE...] COMMAND...: bench exits 2 with one line saying REGEX, and profiles nothing.
refused() {
  local text=$1
  shift
  rm -f perf.log
  bench "$@"
  check "$* exits 2 with one line saying '$text'" eval 'one_line_exit 2 "$text" && [ ! -e perf.log ] && nothing_measured'
}

# 1. A row of a --peers run: built, run once under perf record, its file written.
rm -f args.log perf.log
bench SLEEP_MS=50 ./run.sh --profile go-coro_timer --peers 100 coro_timer
file=$box/profiles/peers-coro_timer-100-go-coro_timer.txt
check "a --peers row's profile exits 0" [ "$rc" -eq 0 ]
check "it prints the file's path, in profiles/ in the tree" [ "$out" = "$file" ]
text=$(cat "$file" 2>/dev/null)
check "the program ran once, at N, as the run runs it: no baseline, no RUNS" \
  eval '[ "$(cat args.log)" = "go-coro_timer 100 50" ]'
check "under perf record with the software clock and call chains, its data in PEERS_BUILD" \
  has_line "$(cat perf.log)" "record -e cpu-clock -g -o $pb/profiles/peers-coro_timer-100-go-coro_timer.data -- $pb/bin/go-coro_timer 100 50"
check "the data stays in PEERS_BUILD, not in the tree" \
  eval '[ -s "$pb/profiles/peers-coro_timer-100-go-coro_timer.data" ] && [ -z "$(find "$box" -name "*.data")" ]'
check "nothing goes to RESULTS or the store, and no temp file is left" nothing_measured
check "its header: what ran" has_line "$text" "# Profile: --peers 100 coro_timer, row go-coro_timer: go 1.19.8, goroutine + time.Sleep, WaitGroup"
check "run.sh's command line, with the settings that shape the run (the sandbox sets CXX)" \
  has "$text" "^- run.sh: SLEEP_MS=50 CXX=[^ ]+ ./run.sh --profile go-coro_timer --peers 100 coro_timer$"
check "the command, its paths as PEERS_BUILD" has_prefix "$text" "- the command, as that run runs it (under /usr/bin/time there, under perf here): PEERS_BUILD/bin/go-coro_timer 100 50"
check "perf's command and version" \
  has_line "$text" "- perf: perf record -e cpu-clock -g -o PEERS_BUILD/profiles/peers-coro_timer-100-go-coro_timer.data -- (the command); perf version 6.1.99 (fake)"
check "no runtime switch for a binary that names its own frames" has_prefix "$text" "- runtime switch: none"
check "the commit, the machine and the date" \
  eval 'has "$text" "^- commit: [0-9a-f]+; date: 20[0-9-]+ [0-9:]+ UTC$" && has "$text" "^- machine: CPU: .*; cores: [0-9]+; memory: "'
check "the samples perf record wrote" has_prefix "$text" "- samples: 4321 of cpu-clock"
check "the program's exit, wall and summary line" has "$text" '^- the program: exit 0, [0-9.]+ s of wall under perf; it printed: scenario=coro_timer .*completed=100'
check "its time limit, the measured run's, and how to lengthen it" \
  has_line "$text" "- time limit: 60 s, the measured run's (perf slows a program: PEER_TIMEOUT=S sets a longer one)"
check "and that it is no measured run" has_line "$text" "- a profile, never a measured run: no figure of it is in a table, RESULTS or the store"
check "the top 25 frames by self share, as perf printed them" \
  eval 'has_line "$text" "    6.25%  fakeprog  [.] frame_25" && ! has_text "$text" "frame_26" && has_line "$text" "# Overhead  Shared Object  Symbol"'
check "with the perf report command that gives them" \
  has_line "$text" '$ perf report -i PEERS_BUILD/profiles/peers-coro_timer-100-go-coro_timer.data --stdio --sort dso,sym --no-children -g none'
check "the call chains of the top 5 frames, 3 each" \
  eval 'has_line "$text" "29.00% frame_1;caller_a;main" && has_line "$text" "0.50% frame_5;caller_c" && ! has_text "$text" "frame_6;"'
check "and the frames with their children" has_text "$text" "--children -g none"
check "the file reads in one sitting: under 150 lines" [ "$(wc -l <"$file")" -lt 150 ]
bench SLEEP_MS=50 ./run.sh --profile go-coro_timer --peers 100 coro_timer
check "a second profile of the row is a new file; the first, which a section may cite, stays" \
  eval '[ "$out" = "${file%.txt}-2.txt" ] && [ "$(cat "$file")" = "$text" ]'
check "each written whole, no temporary file left beside them" [ -z "$(find "$box/profiles" -name "*.tmp")" ]
bench SLEEP_MS=50 PEER_TIMEOUT=90 ./run.sh --profile go-coro_timer --peers 100 coro_timer
check "PEER_TIMEOUT=90 lengthens its time limit, which its file and its run.sh line say" \
  eval '[ "$rc" -eq 0 ] && has_line "$(cat "$out")" "- time limit: 90 s, PEER_TIMEOUT'"'"'s" &&
    has "$(cat "$out")" "^- run.sh: SLEEP_MS=50 PEER_TIMEOUT=90 CXX=[^ ]+ ./run.sh --profile go-coro_timer --peers 100 coro_timer$"'
rm -f args.log
bench SLEEP_MS=50 MODE=once SPAWN_FROM=task BURST=5 BURST_PAUSE=sleep1 ./run.sh --profile go-atomic_counter --peers 20 atomic_counter
check "every variant that shapes the run is in its run.sh line: BURST_PAUSE=sleep1, Go's 1 ns" \
  eval '[ "$rc" -eq 0 ] && [ "$(cat args.log)" = "go-atomic_counter 20 50 --mode once --spawn-from task --burst 5 --burst-pause-ns 1" ] &&
    has "$(cat "$out")" "^- run.sh: SLEEP_MS=50 MODE=once SPAWN_FROM=task BURST=5 BURST_PAUSE=sleep1 CXX=[^ ]+ ./run.sh --profile go-atomic_counter --peers 20 atomic_counter$"'

# 2. The runtime's switch: set where the descriptor declares one, after what the threads knob sets.
rm -f perf.log
bench ./run.sh --profile csharp-coro_timer --peers 100 coro_timer
check "a .NET JIT row runs with DOTNET_PerfMapEnabled=1" has_prefix "$(cat perf.log)" "env DOTNET_PerfMapEnabled=1 "
check "and says so, on stderr and in its file" \
  eval 'has "$err" "set DOTNET_PerfMapEnabled=1" && has_prefix "$(cat "$out")" "- runtime switch: DOTNET_PerfMapEnabled=1, so that perf names"'
rm -f perf.log
bench ./run.sh --profile csharp-aot-coro_timer --peers 100 coro_timer
check "NativeAOT's, whose binary names its frames, without it" \
  eval '[ "$rc" -eq 0 ] && has_prefix "$(cat perf.log)" "env DOTNET_PerfMapEnabled= "'
rm -f perf.log args.log
bench THREADS="1 2" ./run.sh --profile elixir-coro_timer:2t --peers 100 coro_timer
check "an Elixir row at T=2: ERL_FLAGS holds its schedulers and +JPperf true" \
  eval '[ "$rc" -eq 0 ] && has_prefix "$(cat perf.log)" "env DOTNET_PerfMapEnabled= ERL_FLAGS=+S2:2 +JPperf true NODE_OPTIONS="'
check "a label names the threads where the run has several (:2t)" \
  has "$(cat "$out")" "^- run.sh: THREADS='1 2' CXX=[^ ]+ ./run.sh --profile elixir-coro_timer:2t --peers 100 coro_timer$"
rm -f perf.log
bench ./run.sh --profile node-coro_timer --peers 100 coro_timer
check "a Node row: NODE_OPTIONS=--perf-basic-prof" has_text "$(cat perf.log)" " NODE_OPTIONS=--perf-basic-prof "
rm -f args.log
bench ./run.sh --profile hash_collect:channel --peers 100 hash_collect
check "ours too, a variant named after a colon" eval '[ "$rc" -eq 0 ] && [ "$(cat args.log)" = "hash_collect 100 --sync channel" ]'

# 3. A row of a replication: the table's settings and the row's threads, as TABLES=TABLE runs it.
tab=$(printf '\t')
{ tiny_about; cat; } >peers/published/tiny-2099.tsv <<EOF
run${tab}scenarios${tab}coro_timer
run${tab}SLEEP_MS${tab}50
run${tab}RUNS${tab}2
table${tab}1000${tab}A thousand tasks
table${tab}100${tab}A hundred, sleeping less${tab}-${tab}id=short${tab}SLEEP_MS=40
column${tab}memory${tab}max_rss${tab}KB${tab}peak memory
row${tab}go${tab}coro_timer${tab}go-coro_timer${tab}-${tab}2${tab}Golang
row${tab}csharp${tab}coro_timer${tab}csharp-coro_timer${tab}-${tab}-${tab}C#
row${tab}graal${tab}coro_timer${tab}-${tab}-${tab}-${tab}Graal
fig${tab}go${tab}1000${tab}memory${tab}2048${tab}KB
fig${tab}go${tab}short${tab}memory${tab}1024${tab}KB
EOF
rm -f perf.log args.log
bench ./run.sh --profile go --replicate tiny-2099 short
file=$box/profiles/tiny-2099-short-go.txt
check "a replication's row: exit 0, its file named after the write-up, table and row" \
  eval '[ "$rc" -eq 0 ] && [ "$out" = "$file" ]'
check "at the table's N and sleep, once, with the row's threads (GOMAXPROCS=2)" \
  eval '[ "$(cat args.log)" = "go-coro_timer 100 40" ] && has_text "$(cat perf.log)" " GOMAXPROCS=2"'
check "its header names the write-up, table and row" \
  has_line "$(cat "$file")" "# Profile: replicate tiny-2099, table short (A hundred, sleeping less), row go: go 1.19.8, goroutine + time.Sleep, WaitGroup"
check "nothing goes to RESULTS or the store" nothing_measured
rm -f args.log
bench ./run.sh --profile Golang --replicate tiny-2099 1000
check "the row's label as its table prints it names it too" eval '[ "$rc" -eq 0 ] && [ "$(cat args.log)" = "go-coro_timer 1000 50" ]'
rm -f args.log
bench ./run.sh --profile ours:coro_timer:2t --replicate tiny-2099 short
check "and ours's row beside it" eval '[ "$rc" -eq 0 ] && [ "$(cat args.log)" = "coro_timer 100 --sleep-ms 40 --threads 2" ]'

# A table at the pause another's walls allow, and one at each runtime's sleep(1), beside its figures: the
# least wall, 0:05, is below 6 s; less the last task's 50 ms sleep, over at most 10 pauses: 594 ms.
sed -e 's/tiny-2099/tiny-2098/' -e '/^run\|^table\|^column\|^row\|^fig/d' peers/published/tiny-2099.tsv >peers/published/tiny-2098.tsv
cat >>peers/published/tiny-2098.tsv <<EOF
run${tab}scenarios${tab}atomic_counter
run${tab}SLEEP_MS${tab}50
table${tab}1000${tab}In bursts${tab}-${tab}id=b${tab}MODE=once${tab}SPAWN_FROM=task${tab}BURST=100${tab}BURST_PAUSE_MS=1000
table${tab}1000${tab}At the walls' pause${tab}-${tab}id=fit${tab}figs=b${tab}MODE=once${tab}SPAWN_FROM=task${tab}BURST=100${tab}BURST_PAUSE_MS=walls:b
table${tab}1000${tab}At sleep(1)${tab}-${tab}id=s1${tab}figs=b${tab}MODE=once${tab}SPAWN_FROM=task${tab}BURST=100${tab}BURST_PAUSE=sleep1
column${tab}wall${tab}wall${tab}m:ss${tab}Wall
row${tab}go${tab}atomic_counter${tab}go-atomic_counter${tab}-${tab}-${tab}Golang
fig${tab}go${tab}b${tab}wall${tab}0:05${tab}m:ss
EOF
git add -A && git -c user.email=t@t -c user.name=t commit -qm "a write-up of bursts"
rm -f args.log
bench ./run.sh --profile go --replicate tiny-2098 fit
check "a row at the walls' pause runs it, and its run.sh line repeats it" \
  eval '[ "$rc" -eq 0 ] && [ "$(cat args.log)" = "go-atomic_counter 1000 50 --mode once --spawn-from task --burst 100 --burst-pause-ms 594" ] &&
    has "$(cat "$out")" "^- run.sh: CXX=[^ ]+ ./run.sh --profile go --replicate tiny-2098 fit$"'
rm -f args.log
bench ./run.sh --profile go --replicate tiny-2098 s1
check "a row at each runtime's sleep(1): Go's 1 ns, its header says so, and its run.sh line repeats it" \
  eval '[ "$rc" -eq 0 ] && [ "$(cat args.log)" = "go-atomic_counter 1000 50 --mode once --spawn-from task --burst 100 --burst-pause-ns 1" ] &&
    has "$(cat "$out")" "^# Profile: replicate tiny-2098, table s1 \(At sleep\(1\)\), row go: go 1.19.8, .*bursts of 100 then a sleep\(1\), 1 ns" &&
    has "$(cat "$out")" "^- run.sh: CXX=[^ ]+ ./run.sh --profile go --replicate tiny-2098 s1$"'

# 4. Bad requests: one line, exit 2, nothing run; a failed program; a missing perf; the lock.
refused "the run has no row 'gox' \(its rows: coro_timer floor-coro_timer go-coro_timer csharp-coro_timer " \
  ./run.sh --profile gox --peers 100 coro_timer
refused "tiny-2099 has no table 'long' \(its tables: 1000 short\)" ./run.sh --profile go --replicate tiny-2099 long
refused "tiny-2099's table short has no row 'rust' \(its rows: go csharp ours:coro_timer:2t ours:coro_timer\)" \
  ./run.sh --profile rust --replicate tiny-2099 short
refused "tiny-2099's row graal has no program here" ./run.sh --profile graal --replicate tiny-2099 short
refused "unknown write-up 'nope-2099'" ./run.sh --profile go --replicate nope-2099 1000
refused "--profile needs a row" ./run.sh --profile
refused "--profile runs one row: N and one scenario after --peers" ./run.sh --profile go-coro_timer --peers 100 coro_timer coro_shared
refused "--profile takes a row of --replicate or of --peers" ./run.sh --profile go-coro_timer --sweep
refused "--profile comes first" ./run.sh --peers 100 coro_timer --profile go-coro_timer
refused "TABLES is not for --profile" TABLES=short ./run.sh --profile go --replicate tiny-2099 short
touch fail_go-coro_timer
bench ./run.sh --profile go-coro_timer --peers 100 coro_timer
rm -f fail_go-coro_timer
check "a program that fails: exit 1, its profile written, saying so" \
  eval '[ "$rc" -eq 1 ] && has "$(cat "$out")" "^- the program: exit 1, .*its last words: coro_timer: check failed"'
touch slow_go-coro_timer
rm -f slow.stopped
bench PEER_TIMEOUT=1 ./run.sh --profile go-coro_timer --peers 100 coro_timer
rm -f slow_go-coro_timer
data=$pb/profiles/$(basename "$out" .txt).data
check "at its time limit the program alone is stopped, and perf writes what it recorded once it has ended" \
  eval '[ "$rc" -eq 1 ] && [ -e slow.stopped ] && grep -q "^written after its program ended$" "$data" &&
    has "$(cat "$out")" "^- the program: stopped after its time limit of 1 s \(TERM, and perf given 120 s to write its data\), " &&
    has_line "$(cat "$out")" "- time limit: 1 s, PEER_TIMEOUT'"'"'s"'
# One that ignores TERM: KILL 5 s later, which the file says; PEER_TIMEOUT=2 is its limit, so its wall under perf is
# at least 7 s.
touch deaf_go-coro_timer
rm -f slow.finished
bench PEER_TIMEOUT=2 ./run.sh --profile go-coro_timer --peers 100 coro_timer
rm -f deaf_go-coro_timer
check "a program deaf to TERM gets KILL 5 s later, and its file says which was sent" \
  eval '[ "$rc" -eq 1 ] && [ ! -e slow.finished ] && ! kill -0 "$(cat slow.pid)" 2>/dev/null &&
    has "$(cat "$out")" "^- the program: stopped after its time limit of 2 s \(TERM, then KILL 5 s later, and perf given 120 s to write its data\), ([7-9]|[1-9][0-9])\.[0-9]+ s of wall under perf"'
rm -f perf.log
bench PERF="$tmp/no-perf" ./run.sh --profile go-coro_timer --peers 100 coro_timer
check "no perf: one line naming Debian's linux-perf, exit 1, nothing run" \
  eval 'one_line_exit 1 "needs perf .*apt-get install linux-perf" && [ ! -e perf.log ]'
flock "$BENCH_TEST_LOCK.flock" sleep 3 &
holder=$!
sleep 0.5
bench ./run.sh --profile go-coro_timer --peers 100 coro_timer
wait "$holder"
check "it takes the run lock: refused while another run.sh measures" exited 2 "another run.sh is measuring on this machine"

finish
