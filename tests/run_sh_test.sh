#!/usr/bin/env bash
# tests/run_sh_test.sh: run.sh against fake scenarios in a sandbox (no real binaries; ~10 s):
# the section it appends, failed rows, interruption, both time parsers, bad arguments, THREAD_CAP.
cd "$(dirname "$0")/.." || exit 1
repo=$PWD
# shellcheck source=tests/lib.sh
. tests/lib.sh

box=$tmp/sandbox
res=$tmp/RESULTS.md
mkdir -p "$box" "$tmp/tmpdir"
mkdir -p "$box/peers" && cp run.sh "$box/" && cp -R peers harness "$box/"
# shellcheck disable=SC2016 # $(FAIL_MAKE) is make syntax
printf 'all:\n\t@test -z "$(FAIL_MAKE)" || { echo "boom.cpp:1: error: expected ;" >&2; exit 1; }\n' >"$box/Makefile"
printf 'print-build:\n\t@echo "compiler=g++ (Fake) 12.2.0"\n\t@echo "flags=-std=c++20 -pthread -O2"\n' >>"$box/Makefile"

# fake NAME EXTRA: a stand-in binary. It logs its arguments, prints a realistic summary line, and
# fails (fail_NAME) or hangs (slow_NAME: until SIGTERM, then it leaves slow.stopped) when a marker
# file of that name exists.
fake() {
  cat >"$box/$1" <<EOF
#!/bin/sh
echo "$1 \$*" >>args.log
[ -f fail_$1 ] && { echo "spawning \$1" >&2; echo "$1: pthread_create: Resource temporarily unavailable | ulimit -u" >&2; echo >&2; exit 1; }
[ -f slow_$1 ] && { trap 'echo >slow.stopped; exit 143' TERM; echo \$\$ >slow.pid; sleep 30 & wait; exit 0; }
echo "spawning \$1 tasks" >&2
sleep 0.05
echo "scenario=$1 n=\$1 threads=1 sleep_ms=50 spawn_ms=1 wall_ms=50 rss_base_kib=1500 rss_wait_kib=1600 rss_avg_kib=1550 rss_peak_kib=1650 bytes_per_task=102.4 ${2}completed=\$1"
echo "done" >&2
EOF
  chmod +x "$box/$1"
}
# The real reading of fresh memory (make test builds it first), and below, its failures.
mkdir -p "$box/tools" && cp tools/fault_rate "$box/tools/"
fake threads ""
fake coro_timer "frame_bytes=64 late_max_ms=3.25 "
fake coro_shared "frame_bytes=48 "
fake atomic_counter "frame_bytes=64 hits=100 "
fake running_avg "frame_bytes=56 mean=49.9 variance=833.1 "
fake hash_collect "frame_bytes=64 distinct=10 "
cd "$box" || exit 1

# cells LINE: the number of cells in a table row; "\|" inside a cell is not a separator.
cells() { printf '%s\n' "$1" | awk '{ gsub(/\\\|/, ""); print gsub(/\|/, "|") - 1 }'; }
# all_rows_have_16_cells: the newest section has table lines, and every one has 16 cells.
all_rows_have_16_cells() {
  last_section | grep '^|' | { ok=1; while IFS= read -r l; do [ "$(cells "$l")" = 16 ] || exit 1; ok=0; done; exit $ok; }
}
# numbers_parse: there are successful rows, and in each, columns N..late max ms are numbers or
# "-", wall, CPU and max RSS each with its range over the runs, "(a–b)", and † where that is wide.
numbers_parse() {
  table_rows | grep -v 'failed' | awk -F' [|] ' '{
      sub(/ [|]$/, "")
      for (i = 3; i <= 16; i++) if ($i !~ /^([0-9]+([.][0-9]+)?( [(][0-9.]+–[0-9.]+[)]( †)?)?|-)$/) bad = 1
      if ($5 !~ /–/ || $8 !~ /–/ || $10 !~ /–/) bad = 1
      n++
    } END { exit bad || n == 0 }'
}

# 1. A normal run appends a title, then one complete section.
bench RUNS=2 ./run.sh 10
sec=$(last_section)
check "a normal run exits 0" [ "$rc" -eq 0 ]
check "and says once how long it took against the estimate" \
  eval '[ "$(printf "%s\n" "$err" | grep -c "^run.sh: took [0-9]")" -eq 1 ] && has "$err" "^run.sh: took [0-9]+ (s|min|h [0-9]+ min); estimated [0-9]+ (s|min|h [0-9]+ min)$"'
check "a new RESULTS starts with its title" has "$(head -n 1 "$res")" '^# Results$'
check "the section has a heading with N and RUNS" has "$sec" '^## .* UTC — N=10, RUNS=2$'
check "the section names commit, OS, kernel, CPU, cores, memory" \
  has "$(printf '%s\n' "$sec" | grep -c -e '^- commit: [0-9a-z-]*$' -e '^- OS: ' -e '^- kernel: ' -e '^- CPU: ' \
    -e '^- cores: [0-9]' -e '^- memory: [0-9.]* GiB$')" '^6$'
check "the heading says how fast fresh memory came, first touch and again" \
  has "$sec" '^- fresh memory: first touch [1-9][0-9]* MB/s, again [1-9][0-9]* MB/s [(]256 MiB, a write a page[)]$'
check "the compiler line comes from make print-build" has "$sec" '^- compiler: g\+\+ \(Fake\) 12.2.0$'
check "the flags line comes from make print-build" has "$sec" '^- flags: -std=c\+\+20 -pthread -O2$'
check "the header row has 16 columns with units" has "$sec" '^\| scenario \| variant \| N \| threads \| wall s \| user s \| sys s \| CPU s \| spawn s \| max RSS MiB \| avg RSS MiB \| RSS at wait MiB \| own avg RSS MiB \| bytes/task \| frame bytes \| late max ms \|$'
check "a separator row follows the header" has "$sec" '^\|---\|'
check "one row per scenario and variant, in order" \
  [ "$(table_rows | awk -F' [|] ' '{ printf "%s/%s ", substr($1, 3), $2 }')" = "threads/- coro_timer/- coro_shared/- atomic_counter/- running_avg/--sync mutex running_avg/--sync channel hash_collect/--sync mutex hash_collect/--sync channel " ]
check "every row has 16 cells" all_rows_have_16_cells
check "numeric cells are numbers" numbers_parse
ranged='[0-9.]+ [(][0-9.]+–[0-9.]+[)]( †)?'  # a best figure with its range over the runs
check "the row shows the summary's values" has "$(table_rows | grep coro_timer)" "\\| 10 \\| 1 \\| $ranged \\| [0-9.]* \\| [0-9.]* \\| $ranged \\| 0.00 \\| $ranged \\| ([0-9.]+|-) \\| 1.6 \\| 1.5 \\| 102.4 \\| 64 \\| 3.25 \\|$"
check "threads has no frame bytes and no lateness" has "$(table_rows | grep '^| threads')" '\| 102.4 \| - \| - \|$'
check "each variant ran RUNS times" [ "$(grep -c 'running_avg 10 --sync channel$' args.log)" -eq 2 ]
check "each progress line says which run of how many: 1 to 16 of 16 (8 rows, RUNS=2)" \
  [ "$(printf '%s\n' "$err" | sed -n 's/.*(run [12]\/2; \([0-9]*\) of \([0-9]*\) runs.*/\1\/\2/p' | tr '\n' ' ')" = \
    "$(i=1; while [ $i -le 16 ]; do printf '%s/16 ' $i; i=$((i + 1)); done)" ]
check "and from the second run on, the time left" \
  [ "$(printf '%s\n' "$err" | grep -c -E ' of 16 runs, about [0-9]+ (s|min) left\)$')" -eq 15 ]
check "no temp files are left" no_temp_files

# Settings reach only the scenarios that accept them; a second section is appended, not a title.
rm -f args.log
bench RUNS=1 SLEEP_MS=20 THREADS=2 ./run.sh 10 threads running_avg coro_timer
check "a run with THREADS and SLEEP_MS exits 0" [ "$rc" -eq 0 ]
check "threads gets --sleep-ms only" [ "$(grep '^threads' args.log)" = "threads 10 --sleep-ms 20" ]
check "running_avg gets --sync and --threads, no --sleep-ms" \
  [ "$(grep '^running_avg' args.log | tr '\n' ';')" = "running_avg 10 --sync mutex --threads 2;running_avg 10 --sync channel --threads 2;" ]
check "coro_timer gets both" [ "$(grep '^coro_timer' args.log)" = "coro_timer 10 --sleep-ms 20 --threads 2" ]
check "the variant column shows the options passed" has "$(table_rows)" '^\| running_avg \| --sync channel --threads 2 \| 10 \|'
check "the title is written once" [ "$(grep -c '^# Results' "$res")" -eq 1 ]
check "the second section is appended" [ "$(grep -c '^## ' "$res")" -eq 2 ]

# A THREADS list: each scenario that takes --threads runs once per T, in order; threads once.
rm -f args.log
bench RUNS=1 THREADS="1  3" ./run.sh 10 threads running_avg coro_timer
check "a THREADS list exits 0" [ "$rc" -eq 0 ]
check "coro_timer runs at T=1, then T=3" [ "$(grep '^coro_timer' args.log | tr '\n' ';')" = "coro_timer 10 --threads 1;coro_timer 10 --threads 3;" ]
check "running_avg runs each variant at each T" [ "$(grep -c '^running_avg' args.log)" -eq 4 ]
check "threads runs once, with no --threads" [ "$(grep '^threads' args.log)" = "threads 10" ]
check "the settings line names the list" has "$(last_section)" '^- N=10, RUNS=1, THREAD_CAP=10000, THREADS=1 3$'

# The write-ups' variants reach ours as options, only the scenarios they belong to, and name
# themselves in the heading, the settings line and the variant column.
rm -f args.log
bench RUNS=1 START="eager gated eager" MODE=once SPAWN_FROM=task BURST=3 POLL_MS=50 ./run.sh 10 running_avg atomic_counter coro_timer
check "a run with START and atomic_counter's modes exits 0" [ "$rc" -eq 0 ]
check "running_avg runs each variant at each START, repeats dropped" \
  [ "$(grep '^running_avg' args.log | tr '\n' ';')" = "running_avg 10 --sync mutex --start eager;running_avg 10 --sync mutex --start gated;running_avg 10 --sync channel --start eager;running_avg 10 --sync channel --start gated;" ]
check "atomic_counter gets its modes" [ "$(grep '^atomic_counter' args.log)" = "atomic_counter 10 --mode once --spawn-from task --poll-ms 50 --burst 3" ]
check "coro_timer gets none of them" [ "$(grep '^coro_timer' args.log)" = "coro_timer 10" ]
check "the heading names them" has "$(last_section)" '^## .* UTC — N=10, RUNS=1, MODE=once, SPAWN_FROM=task, POLL_MS=50, BURST=3, START=eager gated$'
check "the variant column shows them" has "$(table_rows)" '^\| running_avg \| --sync channel --start gated \| 10 \|'
rm -f args.log
bench RUNS=1 MODE=once START=eager ./run.sh 10 coro_timer
check "a variable of a scenario that does not run is left out of the heading" has "$(last_section)" '^## .* UTC — N=10, RUNS=1$'

# 2. A failing scenario gets a row saying why; the others still run.
touch fail_threads
bench RUNS=1 ./run.sh 10
rm fail_threads
check "a failed row makes run.sh exit 1" [ "$rc" -eq 1 ]
check "the failed row quotes the last stderr line, pipes escaped" \
  has "$(table_rows | grep '^| threads')" '\| failed \(exit 1\): threads: pthread_create: Resource temporarily unavailable \\\| ulimit -u \|'
check "the other rows are present" [ "$(table_rows | grep -c -v failed)" -eq 7 ]
check "the failed row has 16 cells too" all_rows_have_16_cells
# The table is written from the store, so the store gives the section again, byte for byte.
check "--render SECTION (its run id) prints the section again from the store, failed row and all" renders_again
sec=$(last_section)
bench ./run.sh --render "$(printf '%s\n' "$sec" | sed -n '1s/^## \([0-9-]* [0-9:]*\) UTC.*/\1/p')"
check "or its heading's time" eval '[ "$rc" -eq 0 ] && [ "$out" = "$sec" ] || has "$err" " sections have the heading "'

# 3. An interrupted run.sh leaves RESULTS byte-identical, no temp files and no running benchmark.
interrupt() { # interrupt SIGNAL EXPECTED_STATUS
  cp "$res" "$tmp/before"
  interrupted "$1" slow_coro_timer RUNS=1 ./run.sh 10 coro_timer
  check "SIG$1 ends run.sh with $2" [ "$rc" -eq "$2" ]
  check "SIG$1 leaves RESULTS unchanged" cmp -s "$res" "$tmp/before"
  check "SIG$1 leaves no temp files" no_temp_files
  check "SIG$1 stops the running benchmark" stopped
}
interrupt TERM 143
interrupt INT 130

# 4. The time parsers, the samples' means and the figures: tests/test_harness.py, on tests/data/.

# --plan's estimate, the one a finished run sets beside its time.
bench RUNS=2 SLEEP_MS=2000 ./run.sh --plan 1000000 coro_timer
check "--plan ends with its estimate: runs x (sleep + 0.1 s to start + 0.5 s a million to spawn)" \
  [ "$(printf '%s\n' "$out" | tail -n 1)" = "Estimated time here: about 5 s: 5 s of runs (each its sleep, start-up and spawning)." ]
bench RUNS=3 ./run.sh --plan 100000 atomic_counter
check "atomic_counter's estimate counts its rounds: 3 x (10 x 1 s + a poll + 0.1 s + 0.05 s)" \
  [ "$(printf '%s\n' "$out" | tail -n 1)" = "Estimated time here: about 31 s: 31 s of runs (each its sleep, start-up and spawning)." ]

# 5. Bad arguments: exit 2, one line naming the problem, RESULTS untouched.
cp "$res" "$tmp/before"
bad_case "N must be" ./run.sh abc
bad_case "N must be >= 1, got '0'" ./run.sh 0
bad_case "N must be >= 1, got '000'" ./run.sh 000
bad_case "N must be a whole number >= 1 [(]digits only[)], got '²'" ./run.sh ²
bad_case "RUNS must be a whole number >= 1 [(]digits only[)], got '٣'" RUNS=٣ ./run.sh 10
bench ./run.sh "$(printf '9%.0s' $(seq 5000))"
check "an N of 5,000 digits exits 2 saying it is too large, in one short line" \
  eval 'exited 2 "^run.sh: N is too large: 9{27}[.][.][.] [(]run.sh takes at most" && [ ${#err} -lt 120 ]'
bad_case "N is too large: 99999999999999999999 [(]run.sh takes at most 999999999999999999[)]" ./run.sh 99999999999999999999
bad_case "RUNS is too large" RUNS=1000000000000000000 ./run.sh 10
printf '# Results\n' >RESULTS.md  # the sandbox's tracked RESULTS.md, which an empty RESULTS must not touch
tracked=$(cksum <RESULTS.md)
bad_case "RESULTS is empty: unset it to append to RESULTS.md beside run.sh" RESULTS= ./run.sh 10
check "an empty RESULTS leaves the tracked RESULTS.md alone" [ "$(cksum <RESULTS.md)" = "$tracked" ]
bad_case "missing N" ./run.sh
bad_case "unknown scenario 'nosuch'" ./run.sh 10 nosuch
bad_case "RUNS must be" RUNS=x ./run.sh 10
bad_case "THREAD_CAP must be" THREAD_CAP=0 ./run.sh 10
bad_case "THREADS must be" THREADS=-1 ./run.sh 10
bad_case "THREADS must be" THREADS="1 x" ./run.sh 10
bad_case "THREADS must be" THREADS="2 1025" ./run.sh 10
bad_case "SLEEP_MS must be" SLEEP_MS=1.5 ./run.sh 10
bad_case "unknown option '--fast' [(]allowed: --plan, --sweep, --peers, --replicate [[]NAME [[]--quick[]][]], --profile, --export, --render, --gaps, --compare, --check-store, --help;" ./run.sh --fast 10
bad_case "HITS must be a whole number from 1 to 9007199254740991, got '0'" HITS=0 ./run.sh 10
bad_case "HITS must be a whole number" HITS=9007199254740992 ./run.sh 10
bad_case "MODE must be loop or once, got 'twice'" MODE=twice ./run.sh 10
bad_case "SPAWN_FROM must be main or task, got 'thread'" SPAWN_FROM=thread ./run.sh 10
bad_case "POLL_MS must be a whole number from 1 to 86400000, got '0'" POLL_MS=0 ./run.sh 10
bad_case "BURST must be a whole number from 1 to 2147483647, got '-5'" SPAWN_FROM=task BURST=-5 ./run.sh 10
bad_case "BURST_PAUSE_MS must be a whole number from 0 to 86400000, got '1.5'" SPAWN_FROM=task BURST=5 BURST_PAUSE_MS=1.5 ./run.sh 10
bad_case "BURST needs SPAWN_FROM=task" BURST=5 ./run.sh 10
bad_case "BURST_PAUSE_MS needs BURST" SPAWN_FROM=task BURST_PAUSE_MS=5 ./run.sh 10
bad_case "HITS is a target for one N" HITS=50 ./run.sh --sweep atomic_counter
bad_case "START must be gated, eager or both" START="gated lazy" ./run.sh 10
bench ./run.sh --help
check "--help exits 0" [ "$rc" -eq 0 ]
check "--help prints usage on stdout" has "$out" '^usage: ./run.sh N'
mv tools/fault_rate tools/fault_rate.real
printf '#!/bin/sh\necho "fault_rate: mmap failed: Cannot allocate memory" >&2\nexit 1\n' >tools/fault_rate && chmod +x tools/fault_rate
bench RUNS=1 ./run.sh 10 coro_timer
check "a failed reading of fresh memory is named in the heading, and the run goes on" \
  eval '[ "$rc" -eq 0 ] && has "$(last_section)" "^- fresh memory: not measured: fault_rate: mmap failed: Cannot allocate memory$"'
rm tools/fault_rate
bench RUNS=1 ./run.sh 10 coro_timer
check "without tools/fault_rate the heading says it was not built" \
  eval '[ "$rc" -eq 0 ] && has "$(last_section)" "^- fresh memory: not measured: tools/fault_rate was not built$"'
mv tools/fault_rate.real tools/fault_rate
cp "$res" "$tmp/before"
bench FAIL_MAKE=1 ./run.sh 10
check "a failed make exits 1 and says so, RESULTS untouched" eval 'exited 1 "make failed" && cmp -s "$res" "$tmp/before"'

# 5b. RESULTS is checked before anything is built or run: a device, a directory, a file that
# cannot be written. (A read-only place and a disk that fills: tests/container_test.sh.)
rm -f args.log
bad_case "RESULTS must be a regular file \\(or absent\\), and /dev/full is not one" RESULTS=/dev/full ./run.sh 10
check "RESULTS=/dev/full is refused before building or running anything" [ ! -e args.log ]
mkdir -p "$tmp/results_dir"
bad_case "RESULTS must be a regular file \\(or absent\\), and .*/results_dir is not one" RESULTS="$tmp/results_dir" ./run.sh 10
ln -s "$res" "$tmp/results_link"
bad_case "RESULTS must be a regular file, not a symbolic link" RESULTS="$tmp/results_link" ./run.sh 10
bad_case "RESULTS directory .*/nowhere does not exist" RESULTS="$tmp/nowhere/RESULTS.md" ./run.sh 10
mkdir -p "$tmp/cdir" && touch "$tmp/cdir/charts"
bad_case "charts go in .*/cdir/charts, which is not a directory" RESULTS="$tmp/cdir/RESULTS.md" ./run.sh --sweep coro_timer
check "none of them ran anything" [ ! -e args.log ]

# 5c. One run.sh at a time: a second one refuses, naming the first; the lock is an flock, which the
# kernel gives back when its holders end, however they end, the program run.sh measures among them;
# a lock directory of a run.sh from before the flock still counts while its owner runs; --help and
# bad arguments never touch the lock.
touch slow_coro_timer
rm -f args.log slow.pid
env RESULTS="$res" TMPDIR="$tmp/tmpdir" RUNS=1 ./run.sh 10 coro_timer >/dev/null 2>&1 &
first=$!
i=0
while [ ! -s slow.pid ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done  # at most a minute
bench RUNS=1 ./run.sh 10 coro_shared
check "a second run.sh refuses with exit 2, naming the first one's pid and command line" \
  exited 2 "^run.sh: another run.sh is measuring on this machine \(pid [0-9]+: ./run.sh 10 coro_timer\)"
check "and ran nothing" eval '[ -s args.log ] && ! grep -q "^coro_shared" args.log'
check "the lock is the test's own (BENCH_TEST_LOCK), not the machine's" [ -s "$BENCH_TEST_LOCK.flock" ]
check "and any user's run.sh can open it, whatever the umask" [ "$(stat -c %a "$BENCH_TEST_LOCK.flock")" = 666 ]
bench ./run.sh --help
check "--help does not wait for the lock" [ "$rc" -eq 0 ]
bench ./run.sh 0
check "a bad argument is refused for what it is, not for the lock" exited 2 "N must be"
# A run.sh killed outright leaves the program it measured running, which holds the lock on.
kill -KILL "$first"
wait "$first" 2>/dev/null
bench RUNS=1 ./run.sh 10 coro_shared
check "a run.sh killed with SIGKILL: the program it left running still holds the lock" \
  exited 2 "^run.sh: another run.sh is measuring on this machine"
# Its process group: /usr/bin/time, the program and what the program started (its sleep).
kill -TERM -- "-$(ps -o pgid= -p "$(cat slow.pid)" | tr -d ' ')"
i=0
while kill -0 "$(cat slow.pid)" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
rm -f slow_coro_timer slow.pid slow.stopped
bench RUNS=1 ./run.sh 10 coro_timer
check "once that program has ended, the lock is free: nothing is ever stale" [ "$rc" -eq 0 ]
rm -rf "$tmp/tmpdir"/run_sh.*  # what the run.sh killed with SIGKILL could not remove
(exec -a "bash ./run.sh" sleep 30) &
old_run=$!
mkdir "$BENCH_TEST_LOCK" && echo "$old_run ./run.sh --peers 1000000" >"$BENCH_TEST_LOCK/owner"
bench RUNS=1 ./run.sh 10 coro_timer
kill "$old_run"
check "a run.sh from before the flock, still running (its lock directory), is waited for: refused" \
  exited 2 "another run.sh is measuring on this machine \(pid $old_run: ./run.sh --peers 1000000\)"
echo "999999 ./run.sh --peers 1000000" >"$BENCH_TEST_LOCK/owner"
bench RUNS=1 ./run.sh 10 coro_timer
check "and one whose owner no longer runs is no lock" [ "$rc" -eq 0 ]
rm -rf "$BENCH_TEST_LOCK"
cp "$res" "$tmp/before"

# 5d. Output does not depend on the locale or on Python's idea of the terminal's encoding: a heading
# with "—" in it comes out whole.
bench PYTHONUTF8=0 PYTHONIOENCODING=ascii LANG=C LC_ALL=C RUNS=1 ./run.sh 10 coro_timer
check "with PYTHONIOENCODING=ascii and the C locale, the section is written and printed whole" \
  eval '[ "$rc" -eq 0 ] && has "$out" "^## .* UTC — N=10, RUNS=1$" && has "$(last_section)" "^## .* UTC — N=10, RUNS=1$"'
id=$(printf '%s\n' "$err" | sed -n 's/^run.sh: appended to .*(run \(.*\))$/\1/p')
bench PYTHONIOENCODING=ascii ./run.sh --render "$id"
check "and --render with it" eval '[ "$rc" -eq 0 ] && has "$out" "^## .* UTC — N=10, RUNS=1$"'

# 6. THREAD_CAP caps the threads scenario only, and its row says so.
rm -f args.log
bench RUNS=1 THREAD_CAP=20 ./run.sh 50 threads coro_timer
check "a capped run exits 0" [ "$rc" -eq 0 ]
check "threads runs THREAD_CAP threads" [ "$(grep '^threads' args.log)" = "threads 20" ]
check "the threads row shows the cap and the N run" has "$(table_rows)" '^\| threads \| \(capped at THREAD_CAP=20\) \| 20 \| '
check "other scenarios run the full N" has "$(table_rows)" '^\| coro_timer \| - \| 50 \| '
check "the section names THREAD_CAP" has "$(last_section)" '^- N=50, RUNS=1, THREAD_CAP=20$'

# 6a. A runtime's own switch, read from the environment by the runtime and not by run.sh, is named in the settings
# line, its value quoted where it has a blank; the SDK's own variables are not.
bench RUNS=1 GOGC=50 JDK_JAVA_OPTIONS="-XX:MaxRAM=64g -XX:ActiveProcessorCount=16" DOTNET_NOLOGO=1 ./run.sh 10 coro_timer
check "a run with runtimes' switches set exits 0" [ "$rc" -eq 0 ]
check "the section names each switch set, in name order" has "$(last_section)" \
  '^- N=10, RUNS=1, GOGC=50, JDK_JAVA_OPTIONS="-XX:MaxRAM=64g -XX:ActiveProcessorCount=16"$'

# 6b. avg RSS is run.sh's own: the mean of its 100 ms samples of the program itself (time's child),
# here a fake that touches 64 MiB at once, holds it for 3 s and reports its own VmRSS as rss_wait,
# and how long the touching took: a loaded machine, or one slow to fault memory in, takes longer,
# and the samples taken before the memory was held are lower by as much.
if [ -r /proc/self/status ] && command -v "${CXX:-c++}" >/dev/null 2>&1; then
  cat >"$tmp/hold.cpp" <<'EOF'
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
int main(int, char** argv) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<char> held(64 << 20);
    std::memset(held.data(), 1, held.size());
    const auto touched = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    long rss = 0;
    char line[256];
    std::FILE* f = std::fopen("/proc/self/status", "r");
    while (f && std::fgets(line, sizeof line, f)) std::sscanf(line, "VmRSS: %ld", &rss);
    std::printf("scenario=coro_timer n=%s rss_wait_kib=%ld completed=%s held=%d\n", argv[1], rss, argv[1], held[7]);
    if (std::FILE* t = std::fopen("touched_ms", "w")) std::fprintf(t, "%lld\n", static_cast<long long>(touched.count())), std::fclose(t);
}
EOF
  mv coro_timer coro_timer.sh
  "${CXX:-c++}" -O1 -o coro_timer "$tmp/hold.cpp"
  bench RUNS=1 ./run.sh 10 coro_timer
  row=$(table_rows)
  avg=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $11 }') held=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $12 }')
  touched=$(<touched_ms)
  echo "  avg RSS $avg MiB, the program's own resident set $held MiB, touched in $touched ms" >&2
  # The share of the samples that can predate the held memory: the touching, and one 100 ms sample.
  check "avg RSS is sampled from outside: at most 102 % of the program's own steady resident set, at least 90 % of its share of the run" \
    awk -v a="$avg" -v h="$held" -v t="$touched" 'BEGIN { exit !(h > 64 && a >= 0.9 * h * 3000 / (3000 + t + 100) && a <= 1.02 * h) }'
  check "the binary's own avg RSS is a column of its own (none here)" \
    [ "$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $13 }')" = - ]
  rm -f coro_timer touched_ms
  mv coro_timer.sh coro_timer
fi

# 7. The commit line: short hash, "-dirty" for changed tracked files, but not for RESULTS.md.
if command -v git >/dev/null 2>&1; then
  g() { git -c user.name=test -c user.email=test@example.com "$@" >/dev/null 2>&1; }
  g init && g add Makefile run.sh && g commit -m fake
  hash=$(git rev-parse --short HEAD)
  run_cmd env RUNS=1 TMPDIR="$tmp/tmpdir" ./run.sh 10 coro_timer
  check "inside git the commit is the short hash" has "$(last_section RESULTS.md)" "^- commit: $hash$"
  g add RESULTS.md results.jsonl && g commit -m results
  hash=$(git rev-parse --short HEAD)
  run_cmd env RUNS=1 TMPDIR="$tmp/tmpdir" ./run.sh 10 coro_timer
  check "an appended RESULTS.md and store do not make the tree dirty" has "$(last_section RESULTS.md)" "^- commit: $hash$"
  echo '# changed' >>Makefile
  run_cmd env RUNS=1 TMPDIR="$tmp/tmpdir" ./run.sh 10 coro_timer
  check "a changed tracked file makes it dirty" has "$(last_section RESULTS.md)" "^- commit: $hash-dirty$"
fi
# 8. The store: every execution a JSON record, appended as it ends; the section's record once
# RESULTS holds it; --export writes them out.
store=$tmp/store.jsonl
# records FILTER: python3's answer to FILTER (an expression of r, each record) over the store, a line each.
records() { python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(eval(sys.argv[2]))' "$store" "$1"; }
rm -f args.log
bench STORE="$store" RUNS=2 ./run.sh 10 threads coro_timer
sec=$(last_section)
check "a run writes a record per execution, then its section's" \
  [ "$(records 'r["record"] + " " + r.get("scenario", "-") + " " + str(r.get("try", "-"))' | tr '\n' ';')" = "run threads 1;run threads 2;run coro_timer 1;run coro_timer 2;section - -;" ]
check "every record names the run, and the section's record its heading" \
  eval '[ "$(records "r[\"run\"]" | sort -u | wc -l)" -eq 1 ] && [ "## $(records "r.get(\"heading\", \"\")" | tail -n 1) — N=10, RUNS=2" = "$(printf "%s\n" "$sec" | head -n 1)" ]'
check "a record holds the machine as the heading has it" \
  eval 'has_line "$sec" "- CPU: $(records "r.get(\"machine\", {}).get(\"cpu\")" | sed -n 1p)" && has_line "$sec" "- commit: $(records "r.get(\"commit\")" | sed -n 1p)"'
check "what ran: program, N, options, threads and the figures read from time, the summary and the samples" \
  [ "$(records 'r.get("program"), r.get("n"), r.get("options"), r.get("status"), r.get("failure"), r.get("summary", {}).get("frame_bytes"), r.get("summary", {}).get("late_max_ms"), type(r.get("time", {}).get("max_rss_kib")).__name__, "Exit status" in r.get("time_output", {}), "avg_rss_kib" in r.get("samples", {})' | sed -n 3p)" = \
    "('coro_timer', 10, '', 0, None, 64, 3.25, 'int', True, True)" ]
cell=$(table_rows | awk -F' [|] ' '$1 == "| coro_timer" { print $10 }') cell=${cell% †}
mibs=$(records '"%.1f" % (r["time"]["max_rss_kib"] / 1024) if r.get("scenario") == "coro_timer" else ""' | grep . | sort -n)
check "the max RSS in the table is that of one of its two records, and its range theirs" \
  eval '[ -n "$cell" ] && printf "%s\n" "$mibs" | grep -qxF -- "${cell%% *}" && [ "${cell#* }" = "($(printf "%s\n" "$mibs" | head -n 1)–$(printf "%s\n" "$mibs" | tail -n 1))" ]'
touch fail_coro_timer
bench STORE="$store" RUNS=2 ./run.sh 10 coro_timer
rm fail_coro_timer
check "a failed execution is a record too, with its status and why" \
  [ "$(records 'r.get("status"), r.get("failure"), r.get("time")' | tail -n 2 | head -n 1)" = "(1, 'failed (exit 1): coro_timer: pthread_create: Resource temporarily unavailable | ulimit -u', {})" ]
check "and the configuration stops there: one record of RUNS=2" \
  [ "$(records 'r["run"]' | tail -n 2 | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" = "2 " ]
interrupted TERM slow_coro_timer STORE="$store" RUNS=1 ./run.sh 10 threads coro_timer
check "a stopped run leaves the records of what ended, whole, and no section record" \
  eval '[ "$rc" -eq 143 ] && [ "$(records "r[\"record\"] + \" \" + r.get(\"scenario\", \"-\")" | tail -n 1)" = "run threads" ] && [ -z "$(tail -c 1 "$store")" ]'
bench STORE="$store" ./run.sh --export csv
check "--export csv: a header of every field, then a line per run record, each with its schema version and section's heading" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | wc -l)" -eq "$(($(grep -c "\"record\":\"run\"" "$store") + 1))" ] &&
    has "$(printf "%s\n" "$out" | head -n 1)" "^record,schema,run,section,commit,machine[.]os,.*,time[.]max_rss_kib,.*,summary[.]frame_bytes," &&
    has "$(printf "%s\n" "$out" | sed -n 2p)" "^run,3,[0-9]{8}T[0-9]{6}Z-[0-9]+,[0-9-]+ [0-9:]+ UTC,"'
check "a stopped run's records belong to no section" has "$(printf '%s\n' "$out" | tail -n 1)" '^run,3,[0-9]{8}T[0-9]{6}Z-[0-9]+,,'
# fits FILE: every record of the store FILE fits results.schema.json, or the first misfits, named.
fits() { python3 -c 'import json, sys
sys.path.insert(0, sys.argv[1])
import test_harness as t
schema = t.schema_file()
bad = [f"{i}: {x}" for i, line in enumerate(open(sys.argv[2]), 1) for x in t.problems(json.loads(line), schema, schema)]
print(*bad[:3], sep="\n")
sys.exit(1 if bad else 0)' "$repo/tests" "$1"; }
check "every record these runs wrote, a failed and a stopped one's too, fits results.schema.json" fits "$store"

first=$(records 'r["run"]' | sed -n 1p)
bench STORE="$store" ./run.sh --export json "$first"
check "--export json SECTION: that section's runs (named by its run id), as a JSON array, each with its schema version" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | python3 -c "import json, sys; print(*[r[\"schema\"] for r in json.load(sys.stdin)])")" = "3 3 3 3" ]'
printf '%s\n' '{"record":"run","run":"a"}' '{"record":"section","run":"a","heading":"2001-01-01 10:00 UTC"}' \
  '{"record":"run","run":"b"}' '{"record":"run","run":"b"}' '{"record":"section","run":"b","heading":"2001-01-01 10:01 UTC"}' >"$tmp/two.jsonl"
bench STORE="$tmp/two.jsonl" ./run.sh --export csv "2001-01-01 10:01"
check "or by its heading's time, as RESULTS prints it (records without a version: 1)" [ "$out" = "$(printf 'record,schema,run,section\nrun,1,b,2001-01-01 10:01 UTC\nrun,1,b,2001-01-01 10:01 UTC')" ]
printf '%s\n' '{"record":"section","run":"c","heading":"2001-01-01 10:01 UTC"}' >>"$tmp/two.jsonl"
cp "$res" "$tmp/before"
bad_case "2 sections have the heading '2001-01-01 10:01 UTC': name one by the run id run.sh printed at its end \(b, c\)" STORE="$tmp/two.jsonl" ./run.sh --export csv "2001-01-01 10:01 UTC"
bad_case "no section '2001-01-01 00:00' in the store \(its latest: " STORE="$store" ./run.sh --export csv "2001-01-01 00:00"
bad_case "--export takes csv, json or md, got 'xml'" STORE="$store" ./run.sh --export xml
bad_case "usage: ./run.sh --export csv\|json\|md \[SECTION\]" STORE="$store" ./run.sh --export
bad_case "no store at .*/none.jsonl" STORE="$tmp/none.jsonl" ./run.sh --export csv
bad_case "--export comes first, alone" ./run.sh --plan --export csv
bad_case "--render comes first, alone" ./run.sh 10 --render x
bad_case "usage: ./run.sh --render SECTION" ./run.sh --render
bad_case "usage: ./run.sh --render SECTION" ./run.sh --render a b
bad_case "no section 'nowhere' in the store" STORE="$store" ./run.sh --render nowhere
printf '{"record":"run","run":"x"}\n{"record":"run","run":"x",' >"$tmp/cut.jsonl"
bench STORE="$tmp/cut.jsonl" ./run.sh --export json
check "a last record cut short (a kill mid-write) is passed over, and said" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | grep -c "\"run\": \"x\"")" -eq 1 ] && has "$err" "cut.jsonl:2: passed over: not a JSON record"'
printf '{"record":"run",\n<<<<<<< HEAD\n{"record":"run","run":"x"}\n' >"$tmp/broken.jsonl"
bench STORE="$tmp/broken.jsonl" ./run.sh --export json
check "a bad line inside the store (a merge marker) is named and passed over; the rest is exported" \
  eval '[ "$rc" -eq 0 ] && has "$err" "broken.jsonl:2: passed over: not a JSON record" && has "$out" "\"run\": \"x\""'
bad_case "the store /dev/full is not a regular file" STORE=/dev/full ./run.sh --export json
rm -f args.log
bad_case "STORE is empty: unset it" STORE= ./run.sh 10
bad_case "STORE must be a regular file \(or absent\), and .*/results_dir is not one" STORE="$tmp/results_dir" ./run.sh 10
bad_case "STORE and RESULTS are one file" STORE="$res" ./run.sh 10
bad_case "STORE and RESULTS are one file" STORE="$tmp/./RESULTS.md" ./run.sh 10
check "none of them ran anything" [ ! -e args.log ]
# Whatever a program prints, every record is valid JSON in strict UTF-8: a stray byte, quotes,
# backslashes and tabs on stderr and in its summary line.
mv coro_shared coro_shared.real
cat >coro_shared <<'EOF'
#!/bin/sh
[ -f fail_coro_shared ] && { printf 'bad \377 "q" \\ x\tt\n' >&2; exit 1; }
printf 'scenario=coro_shared n=%s odd="a\\b" byte=\377 completed=%s\n' "$1" "$1"
EOF
chmod +x coro_shared
bench STORE="$store" RUNS=1 ./run.sh 10 coro_shared
touch fail_coro_shared
bench STORE="$store" RUNS=1 ./run.sh 10 coro_shared
rm fail_coro_shared
mv coro_shared.real coro_shared
check "odd bytes from a program make valid records" \
  [ "$(python3 -c 'import json, sys
rs = [json.loads(line) for line in open(sys.argv[1], "rb").read().decode("utf-8").splitlines()]
print(rs[-4]["summary"]["odd"], rs[-4]["summary"]["byte"], rs[-2]["failure"])' "$store")" = "\"a\\b\" $(printf '\357\277\275') failed (exit 1): bad $(printf '\357\277\275') \"q\" \\ x	t" ]
printf '{"record":"run","run":"cut",' >>"$store"
bench STORE="$store" RUNS=1 ./run.sh 10 coro_timer
check "a record cut short at the store's end is kept, named and passed over, and the next appended whole" \
  eval '[ "$rc" -eq 0 ] && has "$err" "store.jsonl:[0-9]+: passed over: not a JSON record" && [ "$(python3 -c "import json, sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])[\"record\"])" "$store")" = section ]'
bench STORE="$store" ./run.sh --check-store
check "--check-store names the bad line, with its number and why, exit 1" eval '[ "$rc" -eq 1 ] && has "$out" "store.jsonl:[0-9]+: not a JSON record"'
flock "$BENCH_TEST_LOCK.flock" sleep 3 &
sleep 0.5
bench STORE="$store" ./run.sh --check-store --repair
check "--check-store --repair refuses while a run.sh holds the lock: it would lose what that run appends" \
  eval '[ "$rc" -eq 2 ] && has "$err" "another run.sh is measuring" && ! ls "$store".bad-* >/dev/null 2>&1'
wait
bench STORE="$store" ./run.sh --check-store --repair
check "--check-store --repair moves it into a file beside the store, and deletes nothing" \
  eval '[ "$rc" -eq 0 ] && [ "$(cat "$store".bad-*)" = "{\"record\":\"run\",\"run\":\"cut\"," ] && [ -z "$(python3 -c "import sys; sys.path.insert(0, \"harness\"); import store; print(store.problems(sys.argv[1]))" "$store" | tr -d "[]")" ]'
bench STORE="$store" ./run.sh --check-store
check "then the store is clean" eval '[ "$rc" -eq 0 ] && has "$out" "every line is a record"'
# A python3 that is too old (this one fails the version check), a version manager's shim of one,
# and a PATH where no python3 is new enough.
mkdir -p "$tmp/oldpy" "$tmp/vm/shims" "$tmp/nopy" && printf '#!/bin/sh\nexit 1\n' >"$tmp/oldpy/python3" && chmod +x "$tmp/oldpy/python3" &&
  cp "$tmp/oldpy/python3" "$tmp/vm/shims/python3" && ln -s "$(command -v bash)" "$(command -v dirname)" "$tmp/nopy/"
rm -f args.log
cp "$res" "$tmp/before"
bench PATH="$tmp/vm/shims:$tmp/oldpy:$tmp/nopy" RUNS=1 ./run.sh 10 coro_timer
check "without python3 3.9 or newer anywhere on PATH: exit 1 before anything runs, naming each one passed over" \
  eval 'exited 1 "^run.sh: python3 3.9 or newer is needed.*passed over, older than 3.9: .*/oldpy/python3 .*/vm/shims/python3" && [ ! -e args.log ] && cmp -s "$res" "$tmp/before"'
bench PATH="$tmp/oldpy:$PATH" ./run.sh --plan 10 coro_timer
check "a python3 too old, first on PATH, is passed over for a newer one after it" eval '[ "$rc" -eq 0 ] && has "$out" "^kind  "'
bench PATH="$tmp/vm/shims:$PATH" ./run.sh --plan 10 coro_timer
check "a python3 in a shims directory is tried after the next one on PATH" eval '[ "$rc" -eq 0 ] && has "$out" "^kind  "'
mkdir -p "$tmp/vm2/shims" && ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/vm2/shims/python3"
bench PATH="$tmp/oldpy:$tmp/vm2/shims:$tmp/nopy" ./run.sh --plan 10 coro_timer
check "and the shim when no other is new enough" eval '[ "$rc" -eq 0 ] && has "$out" "^kind  "'

# The scenario list lives in harness/scenarios.py (run.sh reads it); every other place that lists
# the scenarios must agree.
scenario_lists_agree() (
  cd "$repo" || exit 1
  want=$(python3 -c 'import sys; sys.path.insert(0, "harness"); import scenarios; print(" ".join(scenarios.SCENARIOS))')
  for place in Makefile .gitignore tests/cli_test.sh tests/real_peers_test.sh tests/fakes.sh peers; do
    case $place in
      Makefile) got=$(sed -n 's/^SCENARIOS := .*wildcard \(.*\)))$/\1/p' Makefile | sed 's/[.]cpp//g') ;;
      .gitignore) got=$(sed -n 's/^\/\([a-z_]*\)$/\1/p' .gitignore | tr '\n' ' ' | sed 's/ $//') ;;
      tests/fakes.sh) got=$(sed -n 's/^for s in \(.*\); do$/\1/p' tests/fakes.sh | head -n 1) ;;
      peers) got=$(bash peers/lib.sh tables | awk '/^@@ programs/ { on = 1; next } /^@@/ { on = 0 } on { sub(/ .*/, ""); if (!seen[$0]++) printf "%s%s", (n++ ? " " : ""), $0 }') ;;
      *) got=$(sed -n 's/^scenarios="\(.*\)"$/\1/p' "$place") ;;
    esac
    [ "$got" = "$want" ] || { echo "  # $place lists \"$got\", run.sh \"$want\""; exit 1; }
  done
)
check "the Makefile, .gitignore, the tests and the peers' catalogue list run.sh's scenarios" scenario_lists_agree

check "no temp files are left at the end" no_temp_files

finish
