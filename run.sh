#!/usr/bin/env bash
# run.sh: builds the scenarios, runs each one RUNS times under /usr/bin/time and appends the best
# run of each to RESULTS.md as one self-describing section (machine, compiler, one table).
# Run: ./run.sh N [scenario ...]   (./run.sh --help lists the environment variables)
#      ./run.sh --sweep [scenario ...]   every N in SWEEP, a table and an SVG chart (charts/svg.sh)
#      ./run.sh --peers N [scenario ...] ours and the other runtimes' programs in peers/, one table
# Sourcing it (`. ./run.sh`) only defines the functions, so tests can feed the parsers samples.
# Written for macOS's bash 3.2 and BSD tools too: no arrays, no GNU-only flags.

all_scenarios="threads coro_timer coro_shared atomic_counter running_avg hash_collect"
peer_scenarios="threads coro_timer coro_shared atomic_counter"
peer_names="go tokio async-std rust-std node python elixir java asio"
default_sweep="1 10000 100000 1000000"

usage() {
  cat <<EOF
usage: ./run.sh N [scenario ...]
       ./run.sh --sweep [scenario ...]
       ./run.sh --peers N [scenario ...]
  N         tasks (threads) per scenario: digits only, >= 1
  --sweep   runs every scenario at each N in SWEEP; the section gets a table of memory against N
            and links an SVG chart, written to charts/ beside RESULTS
  --peers   runs our binary and every other runtime's program in peers/ whose toolchain is
            installed (built in release mode in PEERS_BUILD), each at N and at N=1, into one table
            with a runtime column; scenarios: $peer_scenarios
  scenario  any of: $all_scenarios
            (default: every one whose .cpp exists here)
environment:
  RUNS=5              runs per scenario, variant (and N); a row shows the run with the lowest wall time
  THREADS=T           passed as --threads T to every scenario that accepts it
  SLEEP_MS=MS         passed as --sleep-ms MS to every scenario that accepts it; --peers also gives
                      it to every peer (PROGRAM N MS) and passes 5000 (atomic_counter: 1000) when unset
  THREAD_CAP=10000    the threads scenario runs min(N, THREAD_CAP) threads; --sweep skips the larger N
  RESULTS=RESULTS.md  the file one section is appended to
  SWEEP="$default_sweep"
                      the task counts of --sweep; N=1 is always run, it is the baseline of bytes/task
  PEERS="$peer_names"
                      the runtimes --peers compares with ours (java includes its virtual threads)
  PEERS_BUILD=\${XDG_CACHE_HOME:-\$HOME/.cache}/bench-peers
                      where --peers copies, builds and keeps the peers (never inside this tree)
  PEERS_CARGO=auto    auto: crates.io, or Debian's crate sources when crates.io cannot be reached;
                      crates-io or debian to choose; PEERS_CARGO_REGISTRY=/usr/share/cargo/registry
  GO CARGO RUSTC NODE PYTHON ELIXIR JAVA JAVAC CXX
                      the toolchain commands --peers uses (default: go cargo rustc node python3
                      elixir java javac g++)
EOF
}

# parse_gnu_time FILE: reads GNU `time -v` output and prints "wall_s user_s sys_s max_rss_kib".
# A missing label prints which one and returns 1: a wrong number must never look like a result.
parse_gnu_time() {
  awk '
    /^[ \t]*Maximum resident set size \(kbytes\): / { rss = $NF }
    /^[ \t]*User time \(seconds\): / { user = $NF }
    /^[ \t]*System time \(seconds\): / { sys = $NF }
    /^[ \t]*Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): / {
      n = split($NF, part, ":"); w = 0    # m:ss.ss or h:mm:ss
      for (i = 1; i <= n; i++) w = w * 60 + part[i]
      wall = sprintf("%.3f", w)
    }
    END {
      if (wall == "") miss = "Elapsed (wall clock) time (h:mm:ss or m:ss)"
      else if (user == "") miss = "User time (seconds)"
      else if (sys == "") miss = "System time (seconds)"
      else if (rss == "") miss = "Maximum resident set size (kbytes)"
      if (miss != "") { print "time -v output lacks \"" miss "\""; exit 1 }
      print wall, user, sys, rss
    }' "$1"
}

# parse_macos_time FILE: the same for macOS `time -l`, whose max RSS is in bytes.
parse_macos_time() {
  awk '
    /^ *[0-9.]+ real +[0-9.]+ user +[0-9.]+ sys/ { wall = $1; user = $3; sys = $5 }
    /^ *[0-9]+  maximum resident set size$/ { rss = sprintf("%d", $1 / 1024) }
    END {
      if (wall == "") miss = "real user sys"
      else if (rss == "") miss = "maximum resident set size"
      if (miss != "") { print "time -l output lacks \"" miss "\""; exit 1 }
      print wall, user, sys, rss
    }' "$1"
}

# last_error FILE: the binary's last non-empty stderr line. time writes its report after the
# binary has exited, so everything from the report's first line on is cut off.
last_error() {
  awk '/^Command (exited with non-zero status|terminated by signal) |^[ \t]*Command being timed: / { exit }
       /^ *[0-9.]+ real |^time: command terminated/ { exit }    # macOS
       NF { last = $0 }
       END { sub(/^[ \t]+/, "", last); gsub(/\|/, "\\|", last); print last }' "$1"
}

# field KEY LINE: the value of KEY in a key=value summary line, "-" when absent.
field() {
  printf '%s\n' "$2" | awk -v k="$1" '{ v = "-"; for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) v = substr($i, length(k) + 2); print v }'
}

# mib KIB: KiB as MiB with one decimal ("-" stays "-").
mib() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.1f\n", k / 1024 }'; }

# is_count V: digits only, >= 1, and short enough for shell arithmetic.
is_count() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
  [ ${#1} -le 18 ] && [ $((10#$1)) -ge 1 ]
}

bad() { echo "run.sh: $*" >&2; exit 2; }

# per_task RSS_KIB BASE_KIB N: bytes per task measured from outside, (RSS − BASE) × 1024 / N, for
# any program: max RSS at N minus max RSS of the same program at N = 1.
per_task() { awk -v r="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f\n", (r - b) * 1024 / n }'; }

# lock_version CARGO_LOCK CRATE: the version of CRATE that cargo resolved, "" when absent.
lock_version() {
  awk -v c="$2" '$0 == "name = \"" c "\"" { getline; if ($1 == "version") { gsub(/"/, "", $3); print $3 }; exit }' "$1" 2>/dev/null
}

# first_version TEXT: the first dotted version number in TEXT ("v20.20.2", "go1.19.8" and
# 'openjdk version "17.0.15" 2025-04-15' give 20.20.2, 1.19.8 and 17.0.15).
first_version() { printf '%s\n' "$1" | sed -n 's/^[^0-9]*\([0-9][0-9]*\(\.[0-9][0-9]*\)*\).*/\1/p' | head -n 1; }

# cell TEXT: TEXT fit for one table cell: one line, pipes escaped, at most 160 characters.
cell() { printf '%s\n' "$1" | awk 'NF { l = $0 } END { sub(/^[ \t]+/, "", l); if (length(l) > 160) l = substr(l, 1, 157) "..."; gsub(/\|/, "\\|", l); print l }'; }

# Sourced: stop here, before any side effect.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -u
export LC_ALL=C # numbers with a decimal point, whatever the user's locale
unset CDPATH
sweep='' peers='' form="./run.sh N [scenario ...]"
case ${1:-} in
  --sweep) sweep=yes; shift ;;
  --peers) peers=yes form="./run.sh --peers N [scenario ...]"; shift ;;
esac
for arg in "$@"; do
  case $arg in
    -h | --help) usage; exit 0 ;;
    --sweep) bad "--sweep comes first (usage: ./run.sh --sweep [scenario ...])" ;;
    --peers) bad "--peers comes first (usage: ./run.sh --peers N [scenario ...])" ;;
    -*) bad "unknown option '$arg' (allowed: --sweep, --peers, --help; settings go in the environment, see --help)" ;;
  esac
done
if [ -n "$sweep" ]; then
  SWEEP=${SWEEP:-$default_sweep}
  sweep_ns=
  for n in $SWEEP; do
    is_count "$n" || bad "SWEEP must be whole numbers >= 1 separated by spaces, got '$n'"
    sweep_ns="$sweep_ns $((10#$n))"
  done
  [ -n "$sweep_ns" ] || bad "SWEEP is empty (default: \"$default_sweep\")"
  case " $sweep_ns " in *" 1 "*) ;; *) echo "run.sh: SWEEP has no 1; running N=1 too, the baseline bytes/task subtracts" >&2 ;; esac
  # In increasing order without repeats: a chart's points, and the baseline first.
  # shellcheck disable=SC2086 # a list of numbers
  sweep_ns=$(printf '%s\n' 1 $sweep_ns | sort -n -u | tr '\n' ' ')
  sweep_ns=${sweep_ns% }
  [ $# -eq 0 ] || ! is_count "$1" || bad "--sweep takes no N: the task counts come from SWEEP (now \"$sweep_ns\")"
else
  [ $# -ge 1 ] || bad "missing N (usage: $form)"
  is_count "$1" || bad "N must be a whole number >= 1 (digits only), got '$1'"
  N=$((10#$1))
  shift
fi
RUNS=${RUNS:-5} THREAD_CAP=${THREAD_CAP:-10000} THREADS=${THREADS:-} SLEEP_MS=${SLEEP_MS:-}
is_count "$RUNS" || bad "RUNS must be a whole number >= 1, got '$RUNS'"
is_count "$THREAD_CAP" || bad "THREAD_CAP must be a whole number >= 1, got '$THREAD_CAP'"
[ -z "$THREADS" ] || is_count "$THREADS" || bad "THREADS must be a whole number >= 1, got '$THREADS'"
[ -z "$SLEEP_MS" ] || is_count "$SLEEP_MS" || bad "SLEEP_MS must be a whole number >= 1, got '$SLEEP_MS'"
PEERS_CARGO=${PEERS_CARGO:-auto}
case $PEERS_CARGO in auto | crates-io | debian) ;; *) bad "PEERS_CARGO must be auto, crates-io or debian, got '$PEERS_CARGO'" ;; esac
GO=${GO:-go} CARGO=${CARGO:-cargo} RUSTC=${RUSTC:-rustc} NODE=${NODE:-node} PYTHON=${PYTHON:-python3}
ELIXIR=${ELIXIR:-elixir} JAVA=${JAVA:-java} JAVAC=${JAVAC:-javac} CXX=${CXX:-g++}
registry=${PEERS_CARGO_REGISTRY:-/usr/share/cargo/registry}
PEERS=${PEERS-$peer_names}
for p in $PEERS; do
  case " $peer_names " in *" $p "*) ;; *) bad "PEERS: unknown runtime '$p' (allowed: $peer_names)" ;; esac
done

# A relative RESULTS is relative to where the user stands; the default lives beside run.sh.
here=$PWD
cd "$(dirname "$0")" || exit 1
RESULTS=${RESULTS:-$PWD/RESULTS.md}
case $RESULTS in /*) ;; *) RESULTS=$here/$RESULTS ;; esac
[ -d "$(dirname "$RESULTS")" ] || bad "RESULTS directory $(dirname "$RESULTS") does not exist"

scenarios=
for s in "$@"; do
  case " $all_scenarios " in *" $s "*) ;; *) bad "unknown scenario '$s' (allowed: $all_scenarios)" ;; esac
  [ -z "$peers" ] || case " $peer_scenarios " in *" $s "*) ;; *) bad "no peers for '$s' (--peers runs: $peer_scenarios)" ;; esac
  [ -f "$s.cpp" ] || bad "scenario '$s' is not in this checkout yet (no $s.cpp)"
  scenarios="$scenarios $s"
done
if [ $# -eq 0 ]; then
  pool=$all_scenarios
  [ -z "$peers" ] || pool=$peer_scenarios
  for s in $pool; do [ -f "$s.cpp" ] && scenarios="$scenarios $s"; done
  [ -n "$scenarios" ] || bad "no scenario .cpp found in $PWD"
fi
if [ -n "$peers" ]; then
  [ -d peers ] || bad "no peers/ directory in $PWD"
  pb=${PEERS_BUILD:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/bench-peers}
  case $pb in /*) ;; *) pb=$here/$pb ;; esac
  case $pb/ in "$PWD"/*) bad "PEERS_BUILD must be outside this tree (got $pb): the peers are built elsewhere" ;; esac
fi

# Everything temporary lives in one directory; RESULTS is only written by the last step, so an
# interrupted run leaves it exactly as it was.
work=$(mktemp -d "${TMPDIR:-/tmp}/run_sh.XXXXXX") || exit 1
job=
on_signal() {
  trap '' INT TERM HUP
  # The timed job runs in its own process group: this stops time and the binary together.
  if [ -n "$job" ]; then kill -TERM -- "-$job" 2>/dev/null; wait "$job" 2>/dev/null; fi
  echo "run.sh: interrupted; $RESULTS left unchanged" >&2
  exit "$1"
}
trap 'rm -rf "$work"' EXIT
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

case $(uname -s) in
  Darwin) time_flag=-l parse=parse_macos_time ;;
  *) time_flag=-v parse=parse_gnu_time ;;
esac
if [ ! -x /usr/bin/time ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "run.sh: /usr/bin/time is missing; installing the time package" >&2
    # A fresh image has no package lists yet: update only when the plain install fails.
    { DEBIAN_FRONTEND=noninteractive apt-get install -y time ||
      { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y time; }; } >"$work/apt.log" 2>&1
  fi
  if [ ! -x /usr/bin/time ]; then
    echo "run.sh: /usr/bin/time is missing; install it with: sudo apt-get install time" \
      "(Debian/Ubuntu; macOS has it built in)" >&2
    exit 1
  fi
fi

echo "run.sh: building with make" >&2
if ! make >"$work/make.log" 2>&1; then
  cat "$work/make.log" >&2
  echo "run.sh: make failed; nothing was run and $RESULTS is unchanged" >&2
  exit 1
fi

# measure PROGRAM N OPTS [TIMES]: TIMES (default RUNS) timed runs of PROGRAM N OPTS. On success
# why is empty, best holds "wall_s user_s sys_s max_rss_kib summary" of the run with the lowest
# wall time and spread the min–max of max RSS over the runs in MiB; otherwise why says what
# failed. PROGRAM is a path, so a program that is not one of the scenarios here (a peer) is
# measured the same way. A summary whose completed= is not N is a failure too.
measure() {
  local i status t summary done_n times=${4:-$RUNS}
  why='' best='' spread=''
  : >"$work/runs"
  i=0
  while [ "$i" -lt "$times" ]; do
    i=$((i + 1))
    echo "run.sh: ${1##*/} $2${3:+ $3} (run $i/$times)" >&2
    # set -m gives the job its own process group, so on_signal can stop the binary too.
    set -m
    # shellcheck disable=SC2086 # OPTS is a list of plain words
    /usr/bin/time "$time_flag" "$1" "$2" $3 </dev/null >"$work/out" 2>"$work/err" &
    job=$!
    set +m
    wait "$job"
    status=$?
    job=
    if [ "$status" -ne 0 ]; then
      why="failed (exit $status)"
      t=$(last_error "$work/err")
      [ -z "$t" ] || why="$why: $t"
      return
    fi
    if ! t=$($parse "$work/err"); then why="failed: $t"; return; fi
    summary=$(grep '^scenario=' "$work/out" | tail -n 1)
    [ -n "$summary" ] || { why="failed: no scenario= line on stdout"; return; }
    done_n=$(field completed "$summary")
    [ "$done_n" = - ] || [ "$done_n" = "$2" ] || { why="failed: completed=$done_n of $2"; return; }
    echo "$t $summary" >>"$work/runs"
  done
  best=$(sort -n -k1,1 "$work/runs" | head -n 1)
  spread=$(awk 'NR == 1 || $4 < lo { lo = $4 } $4 > hi { hi = $4 } END { printf "%.1f–%.1f", lo / 1024, hi / 1024 }' "$work/runs")
}

# run_row SCENARIO N OPTS VARIANT: the best of RUNS runs as one table row (or a failed row) in rows.
run_row() {
  local wall user sys rss summary
  measure "./$1" "$2" "$3"
  if [ -n "$why" ]; then
    echo "run.sh: $1${3:+ $3}: $why" >&2
    echo "| $1 | $4 | $2 | - | $why | - | - | - | - | - | - | - | - |" >>"$work/rows"
    failures=$((failures + 1))
    return
  fi
  read -r wall user sys rss summary <<EOF
$best
EOF
  printf '| %s | %s | %s | %s | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s | %s |\n' \
    "$1" "$4" "$2" "$(field threads "$summary")" "$wall" "$user" "$sys" "$(mib "$rss")" \
    "$(mib "$(field rss_wait_kib "$summary")")" "$(mib "$(field rss_avg_kib "$summary")")" \
    "$(field bytes_per_task "$summary")" "$(field frame_bytes "$summary")" "$spread" >>"$work/rows"
}

# sweep_series NAME VARIANT PROGRAM OPTS [CAP]: one line of the sweep chart. PROGRAM N OPTS at every
# N of the sweep up to CAP: a table row per N in rows, a chart point (series, N, max RSS MiB) per
# successful N in points. Any program that prints a summary line can be a series: another
# runtime's is one more call with its own NAME and PROGRAM.
sweep_series() {
  local n wall user sys rss summary ext base='' skipped='' label=$1
  [ "$2" = - ] || label="$1 ($2)"
  for n in $sweep_ns; do
    # No silent cap here: a capped run would put a second point at the cap's N.
    if [ -n "${5:-}" ] && [ "$n" -gt "$5" ]; then skipped="${skipped:+$skipped, }$n"; continue; fi
    measure "$3" "$n" "$4"
    if [ -n "$why" ]; then
      echo "run.sh: $label N=$n: $why" >&2
      echo "| $1 | $2 | $n | - | $why | - | - | - | - | - | - |" >>"$work/rows"
      echo "$label at N=$n: $why" >>"$work/chart_notes"
      failures=$((failures + 1))
      continue
    fi
    read -r wall user sys rss summary <<EOF
$best
EOF
    if [ "$n" -eq 1 ]; then
      base=$rss ext=baseline
    elif [ -n "$base" ]; then
      ext=$(awk -v r="$rss" -v b="$base" -v n="$n" 'BEGIN { printf "%.1f", (r - b) * 1024 / n }')
    else
      ext=- # the N=1 run failed: no baseline
    fi
    printf '| %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s | %s |\n' \
      "$1" "$2" "$n" "$(field threads "$summary")" "$wall" "$(mib "$rss")" \
      "$(mib "$(field rss_wait_kib "$summary")")" "$ext" "$(field bytes_per_task "$summary")" \
      "$(field frame_bytes "$summary")" "$spread" >>"$work/rows"
    printf '%s\t%s\t%s\n' "$label" "$n" "$(mib "$rss")" >>"$work/points"
  done
  if [ -n "$skipped" ]; then
    echo "$label: N=$skipped not run, above THREAD_CAP=$5 (raise THREAD_CAP to run them)" >>"$work/notes"
  fi
}

# --peers: the other runtimes' programs in peers/, copied to and built in $pb (outside this tree),
# one toolchain at a time, then measured exactly like ours, each at N and at N = 1.

# peer_catalogue: one line per peer program: scenario, program (built as $pb/bin/PROGRAM),
# toolchain group (built by build_GROUP into one log), and what it does (the table's variant).
peer_catalogue() {
  cat <<'EOF'
threads rust-threads ruststd std::thread per task, default stack
threads java-threads java platform Thread per task
coro_timer go-coro_timer go goroutine + time.Sleep, WaitGroup
coro_timer tokio-coro_timer tokio tokio::spawn(sleep) per task
coro_timer tokio-coro_timer_join_all tokio join_all of N sleeps in one task
coro_timer async-std-coro_timer asyncstd task::spawn(sleep) per task
coro_timer node-coro_timer node promisified setTimeout + Promise.all
coro_timer python-coro_timer python asyncio.sleep + gather
coro_timer elixir-coro_timer elixir Task.async + Task.await_many
coro_timer java-coro_timer java CompletableFuture + ScheduledExecutorService
coro_timer java-virtual-coro_timer java21 virtual thread + Thread.sleep
coro_timer asio-coro_timer asio co_spawn + own steady_timer
coro_shared go-coro_shared go goroutines wait on one channel, close()
coro_shared tokio-coro_shared tokio tokio::spawn per task, one watch channel
coro_shared tokio-coro_shared_join_all tokio join_all of N waits on one watch channel
coro_shared async-std-coro_shared asyncstd task::spawn per task, one channel closed
coro_shared node-coro_shared node async fns await one setTimeout promise
coro_shared python-coro_shared python tasks wait on one asyncio.Event
coro_shared elixir-coro_shared elixir Task.async, each monitors one timer process
coro_shared java-coro_shared java thenRun on one CompletableFuture
coro_shared java-virtual-coro_shared java21 virtual threads await one CountDownLatch
coro_shared asio-coro_shared asio co_spawn, one shared steady_timer
atomic_counter go-atomic_counter go goroutine loop + time.Sleep
atomic_counter tokio-atomic_counter tokio tokio::spawn loop + sleep
atomic_counter node-atomic_counter node async fn loop + setTimeout promise
EOF
}

# ours_variant SCENARIO: the variant cell of our own row.
ours_variant() {
  case $1 in
    threads) echo "std::thread per task" ;;
    coro_shared) echo "job per task, co_await one event" ;;
    atomic_counter) echo "job loop + co_await d" ;;
    *) echo "job + co_await d" ;;
  esac
}

# programs_of GROUP: the programs of GROUP that the chosen scenarios need.
programs_of() { peer_catalogue | awk -v g="$1" -v sel=" $scenarios " '$3 == g && index(sel, " " $1 " ") { print $2 }'; }

# peer_name GROUP: the name PEERS knows a group by.
peer_name() {
  case $1 in
    asyncstd) echo async-std ;;
    ruststd) echo rust-std ;;
    java21) echo java ;;
    *) echo "$1" ;;
  esac
}

# toolchain_of GROUP: the toolchain a group needs (one missing toolchain is listed once).
toolchain_of() {
  case $1 in
    tokio | asyncstd | ruststd) echo rust ;;
    java21) echo java ;;
    *) echo "$1" ;;
  esac
}

# install_hint TOOLCHAIN: the command that installs it on this OS.
install_hint() {
  local sudo='sudo ' p
  [ "$(id -u)" != 0 ] || sudo=
  if [ "$(uname -s)" = Darwin ]; then
    case $1 in rust) p=rust ;; java) p=openjdk ;; asio) p=boost ;; *) p=$1 ;; esac
    echo "brew install $p"
    return
  fi
  case $1 in
    go) p=golang-go ;;
    rust) p="cargo librust-tokio-dev librust-futures-dev librust-async-std-dev" ;;
    node) p=nodejs ;;
    python) p=python3 ;;
    java) p=default-jdk-headless ;;
    asio) p="g++ libboost-dev" ;;
    *) p=$1 ;;
  esac
  echo "${sudo}apt-get install $p"
}

# have COMMAND: COMMAND can be run.
have() { command -v "$1" >/dev/null 2>&1; }

# missing TOOLCHAIN WHAT: lists a missing toolchain (once) with the command that installs it.
missing() {
  local line
  line="$1: $2 not found; install: $(install_hint "$1")"
  echo "run.sh: --peers: $line" >&2
  echo "$line" >>"$pw/missing"
}

# detect TOOLCHAIN: 0 when it is installed; then writes the runtime label of its groups and a
# line naming its version for the section. Otherwise lists it as missing and returns 1.
detect() {
  local out v otp
  case $1 in
    go)
      have "$GO" || { missing go "\`$GO\`"; return 1; }
      out=$("$GO" version 2>&1 | head -n 1)
      echo "go $(first_version "$(echo "$out" | awk '{ print $3 }')")" >"$pw/go.label" ;;
    rust)
      have "$CARGO" || { missing rust "\`$CARGO\`"; return 1; }
      out="$("$RUSTC" --version 2>&1 | head -n 1), $("$CARGO" --version 2>&1 | head -n 1)"
      v=$(first_version "$("$RUSTC" --version 2>&1)")
      echo "rust${v:+ $v} std" >"$pw/ruststd.label"
      echo "rust tokio" >"$pw/tokio.label"
      echo "rust async-std" >"$pw/asyncstd.label" ;;
    node)
      have "$NODE" || { missing node "\`$NODE\`"; return 1; }
      out=$("$NODE" --version 2>&1 | head -n 1)
      echo "node $(first_version "$out")" >"$pw/node.label" ;;
    python)
      have "$PYTHON" || { missing python "\`$PYTHON\`"; return 1; }
      out=$("$PYTHON" --version 2>&1 | head -n 1)
      echo "python $(first_version "$out")" >"$pw/python.label" ;;
    elixir)
      have "$ELIXIR" || { missing elixir "\`$ELIXIR\`"; return 1; }
      out=$("$ELIXIR" --version 2>&1)
      v=$(printf '%s\n' "$out" | sed -n 's/^Elixir \([0-9][0-9.]*\).*/\1/p' | head -n 1)
      otp=$(printf '%s\n' "$out" | sed -n 's/^Erlang\/OTP \([0-9][0-9]*\).*/\1/p' | head -n 1)
      echo "elixir ${v:-?}${otp:+ (OTP $otp)}" >"$pw/elixir.label"
      out="Elixir ${v:-?} on Erlang/OTP ${otp:-?}" ;;
    java)
      have "$JAVAC" || { missing java "\`$JAVAC\`"; return 1; }
      have "$JAVA" || { missing java "\`$JAVA\`"; return 1; }
      # grep: JAVA_TOOL_OPTIONS adds a "Picked up ..." line first.
      out=$("$JAVA" -version 2>&1 | grep -m 1 'version "')
      echo "java $(first_version "$out")" >"$pw/java.label"
      cp "$pw/java.label" "$pw/java21.label"
      out="$out; $("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')" ;;
    asio)
      have "$CXX" || { missing asio "\`$CXX\`"; return 1; }
      v=$(printf '#include <boost/version.hpp>\nBOOST_VERSION\n' | "$CXX" -x c++ -E - 2>/dev/null | tail -n 1)
      case $v in '' | *[!0-9]*) missing asio "Boost headers (boost/version.hpp, for $CXX)"; return 1 ;; esac
      echo "boost.asio $((v / 100000)).$((v / 100 % 1000)).$((v % 100))" >"$pw/asio.label"
      out="Boost $((v / 100000)).$((v / 100 % 1000)).$((v % 100)), $("$CXX" --version 2>&1 | head -n 1), -O2 -std=c++20 -pthread" ;;
  esac
  echo "- $1: $out" >>"$pw/tools"
}

# run_logged LOG COMMAND...: COMMAND with its output appended to LOG, in its own process group
# like a measured run, so an interrupt stops a build too.
run_logged() {
  local log=$1 status
  shift
  set -m
  "$@" >>"$log" 2>&1 </dev/null &
  job=$!
  set +m
  wait "$job"
  status=$?
  job=
  return "$status"
}

# copy_src DIR: a fresh copy of peers/DIR in $pb/src (times kept, so unchanged sources stay older
# than what was built from them).
copy_src() { rm -rf "${pb:?}/src/$1" && mkdir -p "$pb/src" && cp -Rp "peers/$1" "$pb/src/$1"; }

# launcher PROGRAM COMMAND...: $pb/bin/PROGRAM, a script that execs COMMAND "$@" (exec: the
# runtime itself is the process /usr/bin/time measures).
launcher() {
  local out=$pb/bin/$1 line=exec a
  shift
  for a in "$@"; do line="$line '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
  printf '#!/bin/sh\n%s "$@"\n' "$line" >"$out" && chmod +x "$out"
}

build_go() {
  local p
  copy_src go || return 1
  for p in $(programs_of go); do
    (cd "$pb/src/go" && "$GO" build -o "$pb/bin/$p" "./${p#go-}") || return 1
  done
}

# build_cargo CRATE GROUP PREFIX: builds a copy of peers/CRATE in release mode; in the debian mode,
# offline against Debian's crate sources through a config that exists only in that copy.
build_cargo() {
  local d=$pb/rust/$1 p mode
  mode=$(cat "$pw/cargo_mode" 2>/dev/null)
  [ -n "$mode" ] || mode=crates-io # std::thread alone: no crates, nothing to fetch
  mkdir -p "$d" && rm -rf "$d/src" && cp -Rp "peers/$1/src" "peers/$1/Cargo.toml" "$d/" || return 1
  # A lock resolved against the other source names versions that this one may not have.
  [ "$(cat "$d/.source" 2>/dev/null)" = "$mode" ] || rm -f "$d/Cargo.lock"
  echo "$mode" >"$d/.source"
  if [ "$mode" = debian ]; then
    mkdir -p "$d/.cargo" &&
      printf '[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "%s"\n' "$registry" >"$d/.cargo/config.toml" &&
      (cd "$d" && "$CARGO" build --release --offline --target-dir "$d/target") || return 1
  else
    rm -f "$d/.cargo/config.toml"
    (cd "$d" && "$CARGO" build --release --target-dir "$d/target") || return 1
  fi
  for p in $(programs_of "$2"); do cp "$d/target/release/${p#"$3"-}" "$pb/bin/$p" || return 1; done
}
build_tokio() { build_cargo rust-tokio tokio tokio; }
build_asyncstd() { build_cargo rust-async-std asyncstd async-std; }
build_ruststd() { build_cargo rust-threads ruststd rust; }

# cargo_probe DIR: crates.io answers (or the crates are cached): resolves DIR's dependencies.
cargo_probe() { (cd "$1" && CARGO_NET_RETRY=0 CARGO_HTTP_TIMEOUT=20 "$CARGO" fetch); }

# cargo_mode GROUP: decides once where the crates come from: crates-io, or debian when crates.io
# cannot be reached and Debian's crate sources are installed.
cargo_mode() {
  local crate=rust-tokio
  [ ! -s "$pw/cargo_mode" ] || return 0
  [ "$1" != asyncstd ] || crate=rust-async-std
  case $PEERS_CARGO in
    crates-io | debian) echo "$PEERS_CARGO" >"$pw/cargo_mode" ;;
    *)
      if [ "$1" = ruststd ]; then
        return 0 # no dependencies: nothing to decide yet
      fi
      mkdir -p "$work/probe" && cp -Rp "peers/$crate/src" "peers/$crate/Cargo.toml" "$work/probe/"
      echo "run.sh: --peers: asking crates.io for the Rust peers' crates" >&2
      if run_logged "$pb/logs/cargo-probe.log" cargo_probe "$work/probe"; then
        echo crates-io >"$pw/cargo_mode"
      elif [ -d "$registry" ] && [ -n "$(ls "$registry" 2>/dev/null)" ]; then
        echo debian >"$pw/cargo_mode"
        echo "crates.io could not be reached (log: $pb/logs/cargo-probe.log): the Rust peers were built offline from Debian's crate sources in $registry" >>"$pw/notes"
      else
        echo crates-io >"$pw/cargo_mode" # the build fails and its row says why
        echo "crates.io could not be reached and $registry is empty: $(install_hint rust) gives the Rust peers Debian's crate sources" >>"$pw/notes"
      fi ;;
  esac
}

build_node() {
  local p
  copy_src node || return 1
  for p in $(programs_of node); do launcher "$p" "$(command -v "$NODE")" "$pb/src/node/${p#node-}.js" || return 1; done
}

build_python() {
  local p
  copy_src python || return 1
  for p in $(programs_of python); do launcher "$p" "$(command -v "$PYTHON")" "$pb/src/python/${p#python-}.py" || return 1; done
}

# Elixir: +P, the process limit (OTP's default is 262144), is raised to N + 1024, at least 2^20;
# the N = 1 run gets the same flag, so the table's baseline holds the bigger process table too.
build_elixir() {
  local p procs=$((N + 1024))
  [ "$procs" -ge 1048576 ] || procs=1048576
  copy_src elixir || return 1
  for p in $(programs_of elixir); do
    launcher "$p" "$(command -v "$ELIXIR")" --erl "+P $procs" "$pb/src/elixir/${p#elixir-}.exs" || return 1
  done
}

# java_class PROGRAM: the main class of a Java peer.
java_class() {
  case $1 in
    *-threads) echo Threads ;;
    java-virtual-coro_timer) echo VirtualTimer ;;
    java-virtual-coro_shared) echo VirtualShared ;;
    *-coro_shared) echo CoroShared ;;
    *) echo CoroTimer ;;
  esac
}

build_java() {
  local p
  copy_src java && rm -rf "$pb/java" && mkdir -p "$pb/java" && "$JAVAC" -d "$pb/java" "$pb/src/java"/*.java || return 1
  for p in $(programs_of java); do launcher "$p" "$(command -v "$JAVA")" -cp "$pb/java" "$(java_class "$p")" || return 1; done
}

build_java21() {
  local p
  copy_src java && rm -rf "$pb/java21" && mkdir -p "$pb/java21" && "$JAVAC" -d "$pb/java21" "$pb/src/java/jdk21"/*.java || return 1
  for p in $(programs_of java21); do launcher "$p" "$(command -v "$JAVA")" -cp "$pb/java21" "$(java_class "$p")" || return 1; done
}

# Boost.Asio: compiled again only when the source or the compiler changed; into a temporary
# file first, so an interrupted build never leaves a binary that looks up to date.
build_asio() {
  local p src stamp
  copy_src asio || return 1
  stamp="$CXX -O2 -std=c++20 -pthread | $("$CXX" --version 2>&1 | head -n 1)"
  [ "$(cat "$pb/asio.stamp" 2>/dev/null)" = "$stamp" ] || rm -f "$pb/bin"/asio-*
  for p in $(programs_of asio); do
    src=$pb/src/asio/${p#asio-}.cpp
    [ "$pb/bin/$p" -nt "$src" ] && continue
    "$CXX" -O2 -std=c++20 -pthread -o "$pb/bin/$p.tmp" "$src" && mv "$pb/bin/$p.tmp" "$pb/bin/$p" || return 1
  done
  echo "$stamp" >"$pb/asio.stamp"
}

# build_reason LOG: why a build failed: its first line that says error, else its last line.
build_reason() {
  local l
  l=$(grep -i -m 1 'error' "$1" 2>/dev/null)
  [ -n "$l" ] || l=$(awk 'NF { l = $0 } END { print l }' "$1" 2>/dev/null)
  cell "${l:-no output}"
}

# prepare_peers: finds the toolchains the chosen scenarios need, builds their groups one at a
# time and leaves in $pw/GROUP.state: ok, missing, skip or "build failed: ...".
prepare_peers() {
  local g tc log jv groups d c v
  groups=$(peer_catalogue | awk -v sel=" $scenarios " 'index(sel, " " $1 " ") && !seen[$3]++ { print $3 }')
  mkdir -p "$pb/bin" "$pb/logs" || { echo "run.sh: cannot create $pb" >&2; exit 1; }
  for g in $groups; do
    case " $PEERS " in *" $(peer_name "$g") "*) ;; *) echo unchosen >"$pw/$g.state"; continue ;; esac
    tc=$(toolchain_of "$g")
    if [ ! -f "$pw/$tc.tool" ]; then
      if detect "$tc"; then echo yes >"$pw/$tc.tool"; else echo no >"$pw/$tc.tool"; fi
    fi
    if [ "$(cat "$pw/$tc.tool")" = no ]; then
      echo missing >"$pw/$g.state"
      continue
    fi
    if [ "$g" = java21 ]; then
      jv=$(first_version "$("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')")
      if [ "${jv%%.*}" -lt 21 ] 2>/dev/null; then
        echo "java virtual threads: not run, they need JDK 21 or newer and javac here is $jv (Debian 12 ships 17; Ubuntu 24.04 has openjdk-21-jdk-headless; macOS: brew install openjdk)" >>"$pw/notes"
        echo skip >"$pw/$g.state"
        continue
      fi
    fi
    case $g in tokio | asyncstd | ruststd) cargo_mode "$g" ;; esac
    log=$pb/logs/$g.log
    : >"$log"
    echo "run.sh: --peers: building $g (log: $log)" >&2
    if run_logged "$log" "build_$g"; then
      echo ok >"$pw/$g.state"
    else
      echo "build failed: $(build_reason "$log") (log: $log)" >"$pw/$g.state"
      echo "run.sh: --peers: $g: $(cat "$pw/$g.state")" >&2
    fi
  done
  for g in tokio asyncstd; do
    case $g in tokio) d=rust-tokio c=tokio ;; *) d=rust-async-std c=async-std ;; esac
    v=$(lock_version "$pb/rust/$d/Cargo.lock" "$c")
    [ -z "$v" ] || echo "rust $c $v" >"$pw/$g.label"
  done
  if [ -s "$pw/cargo_mode" ] && [ -f "$pw/rust.tool" ] && [ "$(cat "$pw/rust.tool")" = yes ]; then
    if [ "$(cat "$pw/cargo_mode")" = debian ]; then
      echo "- rust crates: Debian's sources in $registry, built offline" >>"$pw/tools"
    else
      echo "- rust crates: crates.io (or cargo's cache)" >>"$pw/tools"
    fi
  fi
}

# peer_row SCENARIO RUNTIME VARIANT PROGRAM N OPTS: a 1-task run, then the best of RUNS at N, as
# one row of the peers table: the same measurement for ours and for every peer.
peer_row() {
  local wall user sys rss summary base='' base_cell=- ext=- shown
  if [ "$5" -gt 1 ]; then
    measure "$4" 1 "$6" 1
    if [ -n "$why" ]; then
      echo "run.sh: $2 $1 N=1: $why" >&2
      base_cell="N=1 $why"
      failures=$((failures + 1))
    else
      base=$(echo "$best" | awk '{ print $4 }') base_cell=$(mib "$base")
    fi
  fi
  measure "$4" "$5" "$6"
  if [ -z "$why" ]; then
    read -r wall user sys rss summary <<EOF
$best
EOF
    shown=$(field scenario "$summary")
    [ "$shown" = "$1" ] || why="failed: it printed scenario=$shown"
  fi
  if [ -n "$why" ]; then
    echo "run.sh: $2 $1: $why" >&2
    echo "| $1 | $2 | $3 | $5 | $(cell "$why") | - | - | - | $(cell "$base_cell") | - | - |" >>"$work/rows"
    failures=$((failures + 1))
    return
  fi
  if [ "$5" -eq 1 ]; then
    base_cell="$(mib "$rss") (this run)"
  elif [ -n "$base" ]; then
    ext=$(per_task "$rss" "$base" "$5")
  fi
  printf '| %s | %s | %s | %s | %.2f | %.2f | %.2f | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$5" \
    "$wall" "$user" "$sys" "$(mib "$rss")" "$(cell "$base_cell")" "$ext" "$spread" >>"$work/rows"
}

# peers_section_rows: every chosen scenario, ours first, then each peer the catalogue lists.
peers_section_rows() {
  local s n sleep o v ps prog g variant state
  for s in $scenarios; do
    sleep=$SLEEP_MS
    if [ -z "$sleep" ]; then
      sleep=5000
      [ "$s" != atomic_counter ] || sleep=1000
    fi
    n=$N
    if [ "$s" = threads ] && [ "$N" -gt "$THREAD_CAP" ]; then n=$THREAD_CAP capped=yes; fi
    o="--sleep-ms $sleep"
    [ "$s" = threads ] || [ -z "$THREADS" ] || o="$o --threads $THREADS"
    v=$(ours_variant "$s")
    [ "$s" = threads ] || [ -z "$THREADS" ] || v="$v, --threads $THREADS"
    peer_row "$s" "c++20 (this repo)" "$v" "./$s" "$n" "$o"
    while read -r ps prog g variant; do
      [ "$ps" = "$s" ] || continue
      state=$(cat "$pw/$g.state")
      case $state in
        missing | skip | unchosen) ;;
        ok) peer_row "$s" "$(cat "$pw/$g.label")" "$variant" "$pb/bin/$prog" "$n" "$sleep" ;;
        *)
          echo "| $s | $(cat "$pw/$g.label") | $variant | $n | $state | - | - | - | - | - | - |" >>"$work/rows"
          failures=$((failures + 1)) ;;
      esac
    done <<EOF
$(peer_catalogue)
EOF
  done
}

failures=0
capped=
: >"$work/rows"
: >"$work/points"
: >"$work/notes"
: >"$work/chart_notes"
if [ -n "$peers" ]; then
  pw=$work/peers
  mkdir -p "$pw" && : >"$pw/tools" && : >"$pw/missing" && : >"$pw/notes" || exit 1
  prepare_peers
  peers_section_rows
else
  for s in $scenarios; do
    # Each scenario gets only the options it accepts (threads: no --threads; no sleep in the last two).
    variants=- sleep=$SLEEP_MS threads=$THREADS cap=
    case $s in
      threads) threads='' cap=$THREAD_CAP capped=yes ;;
      running_avg | hash_collect) sleep='' variants="mutex channel" ;;
    esac
    for v in $variants; do
      o=''
      [ "$v" = - ] || o="--sync $v"
      [ -z "$sleep" ] || o="${o:+$o }--sleep-ms $sleep"
      [ -z "$threads" ] || o="${o:+$o }--threads $threads"
      if [ -n "$sweep" ]; then
        sweep_series "$s" "$v" "./$s" "$o" "$cap"
      elif [ -n "$cap" ] && [ "$N" -gt "$cap" ]; then
        run_row "$s" "$cap" "$o" "${o:+$o }(capped at THREAD_CAP=$cap)"
      else
        run_row "$s" "$N" "$o" "${o:--}"
      fi
    done
  done
fi

# The machine, as far as it can be told without root.
if [ "$(uname -s)" = Darwin ]; then
  os="$(sw_vers -productName) $(sw_vers -productVersion)"
  cpu=$(sysctl -n machdep.cpu.brand_string)
  mem=$(sysctl -n hw.memsize | awk '{ printf "%.1f", $1 / 1073741824 }')
else
  os=$(awk -F= '$1 == "PRETTY_NAME" { v = substr($0, 13); gsub(/"/, "", v); print v }' /etc/os-release 2>/dev/null)
  cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
  mem=$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
fi
commit=$(git rev-parse --short HEAD 2>/dev/null) || commit=unknown
# RESULTS.md itself changes with every run, so it does not make the tree dirty.
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no -- . ':(exclude)RESULTS.md' 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
make -s print-build >"$work/build" 2>/dev/null || : >"$work/build"
compiler=$(sed -n 's/^compiler=//p' "$work/build")
flags=$(sed -n 's/^flags=//p' "$work/build")
cores=$(getconf _NPROCESSORS_ONLN)
# One reading of the clock for the heading and the chart's name.
when=$(date -u '+%Y-%m-%d %H:%M UTC|%Y%m%d-%H%M')
stamp=${when#*|} when=${when%|*}
{
  echo "- commit: $commit"
  echo "- OS: ${os:-unknown}"
  echo "- kernel: $(uname -sr)"
  echo "- CPU: ${cpu:-$(uname -m)}"
  echo "- cores: $cores"
  echo "- memory: ${mem:-unknown} GiB"
  echo "- compiler: ${compiler:-unknown}"
  echo "- flags: ${flags:-unknown}"
} >"$work/machine"
settings="RUNS=$RUNS${capped:+, THREAD_CAP=$THREAD_CAP}${THREADS:+, THREADS=$THREADS}${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}"

chart=
if [ -n "$peers" ]; then
  {
    echo "## $when — peers N=$N, RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- N=$N, $settings"
    [ "$PEERS" = "$peer_names" ] || echo "- PEERS=$PEERS"
    if [ -z "$SLEEP_MS" ]; then
      echo "- sleep: 5000 ms (atomic_counter: 1000 ms per iteration), the binaries' default"
    else
      echo "- sleep: $SLEEP_MS ms"
    fi
    cat "$pw/tools"
    echo
    echo "| scenario | runtime | variant | N | wall s | user s | sys s | max RSS MiB | max RSS at N=1 MiB | bytes/task | max RSS spread MiB |"
    echo "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"
    cat "$work/rows"
    echo
    echo "- bytes/task: (max RSS at N − max RSS at N=1) × 1024 / N, both from /usr/bin/time, the same way for every runtime, ours included (it is not our binaries' own bytes_per_task). N=1 is one run; N is the run with the lowest wall time of RUNS, whose spread of max RSS the last column gives."
    echo "- Every program gets N and the sleep (ours: --sleep-ms MS; a peer: PROGRAM N MS), checks that every task completed and exits 1 otherwise. wall s is the whole process, start-up included."
    if [ -z "$THREADS" ]; then loops="one event loop"; else loops="$THREADS event loops (THREADS)"; fi
    echo "- Threads: ours runs $loops; each peer keeps its runtime's default (Go: GOMAXPROCS = cores; tokio, async-std and the BEAM: one worker or scheduler per core; Node, Python asyncio, Boost.Asio here and the Java timer: one thread)."
    [ -z "$capped" ] || echo "- threads: every runtime ran min(N, THREAD_CAP=$THREAD_CAP) threads."
    sed 's/^/- /' "$pw/notes"
    sed 's/^/- not run: /' "$pw/missing"
    echo "- Peers built in $pb."
    echo
  } >"$work/section"
elif [ -z "$sweep" ]; then
  {
    echo "## $when — N=$N, RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- N=$N, $settings"
    echo
    echo "| scenario | variant | N | threads | wall s | user s | sys s | max RSS MiB | RSS at wait MiB | avg RSS MiB | bytes/task | frame bytes | max RSS spread MiB |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    cat "$work/rows"
    echo
  } >"$work/section"
else
  # The chart is drawn here, in the work directory; it joins RESULTS only in the last step.
  chart_dir=$(dirname "$RESULTS")/charts
  sed 's/^/- /' "$work/notes" >"$work/note_lines"
  if [ ! -s "$work/points" ]; then
    chart_line="Chart: not drawn, no run succeeded."
  elif ! sh charts/svg.sh -t "Max RSS against concurrent tasks" \
    -s "${cpu:-$(uname -m)}, $cores cores, ${mem:-?} GiB · ${os:-$(uname -s)}, $(uname -sr) · ${compiler:-unknown} · $when · commit $commit" \
    -y "max RSS (MiB)" \
    -n "Each point: the process's max RSS as /usr/bin/time reports it, in the run with the lowest wall time of RUNS=$RUNS${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}${THREADS:+, THREADS=$THREADS}." \
    -n "$(cat "$work/notes" "$work/chart_notes")" \
    "$work/points" >"$work/chart.svg" 2>"$work/svg.err"; then
    chart_line="Chart: not drawn, charts/svg.sh failed: $(head -n 1 "$work/svg.err")"
    echo "run.sh: $chart_line" >&2
  else
    # Never overwrite an older sweep's chart: RESULTS links every one of them.
    chart=sweep-$stamp.svg i=1
    while [ -e "$chart_dir/$chart" ]; do i=$((i + 1)); chart=sweep-$stamp-$i.svg; done
    chart_line="![Max RSS (MiB) against task count, one line per scenario](charts/$chart)"
  fi
  {
    echo "## $when — sweep N=$(echo "$sweep_ns" | tr ' ' ','), RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- SWEEP=$sweep_ns, $settings"
    echo
    echo "$chart_line"
    echo
    echo "| scenario | variant | N | threads | wall s | max RSS MiB | RSS at wait MiB | bytes/task from max RSS | bytes/task from binary | frame bytes | max RSS spread MiB |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    cat "$work/rows"
    echo
    echo "- bytes/task from max RSS: (max RSS at N − max RSS at N=1) × 1024 / N, measured outside the binary, the same way for every program; the N=1 row is the baseline."
    echo "- bytes/task from binary: the binary's own bytes_per_task, (RSS at wait − RSS before the first task) × 1024 / N."
    cat "$work/note_lines"
    echo
  } >"$work/section"
fi

# One append, shielded from signals, so RESULTS never holds half a section, and the chart is
# written only with the section that links it.
trap '' HUP INT TERM
if [ -n "$chart" ] && ! { mkdir -p "$chart_dir" && cp "$work/chart.svg" "$chart_dir/$chart"; }; then
  rm -f "$chart_dir/$chart"
  echo "run.sh: cannot write $chart_dir/$chart; $RESULTS left unchanged, the section follows" >&2
  cat "$work/section"
  exit 1
fi
: >"$work/title"
[ -s "$RESULTS" ] || printf '# Results\n\nGenerated by run.sh, append-only: each run adds one section below.\n\n' >"$work/title"
if ! cat "$work/title" "$work/section" >>"$RESULTS"; then
  [ -z "$chart" ] || rm -f "$chart_dir/$chart"
  echo "run.sh: cannot append to $RESULTS" >&2
  exit 1
fi
cat "$work/section"
echo "run.sh: appended to $RESULTS${chart:+; chart in $chart_dir/$chart}" >&2
[ "$failures" -eq 0 ]
