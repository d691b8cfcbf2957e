#!/usr/bin/env bash
# run.sh: builds the scenarios, runs each one RUNS times under /usr/bin/time and appends the best
# run of each to RESULTS.md as one self-describing section (machine, compiler, one table).
# Run: ./run.sh N [scenario ...]   (./run.sh --help lists the environment variables)
# Sourcing it (`. ./run.sh`) only defines the functions, so tests can feed the parsers samples.
# Written for macOS's bash 3.2 and BSD tools too: no arrays, no GNU-only flags.

all_scenarios="threads coro_timer coro_shared atomic_counter running_avg hash_collect"

usage() {
  cat <<EOF
usage: ./run.sh N [scenario ...]
  N         tasks (threads) per scenario: digits only, >= 1
  scenario  any of: $all_scenarios
            (default: every one whose .cpp exists here)
environment:
  RUNS=5              runs per scenario and variant; a row shows the run with the lowest wall time
  THREADS=T           passed as --threads T to every scenario that accepts it
  SLEEP_MS=MS         passed as --sleep-ms MS to every scenario that accepts it
  THREAD_CAP=10000    the threads scenario runs min(N, THREAD_CAP) threads
  RESULTS=RESULTS.md  the file one section is appended to
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

# Sourced: stop here, before any side effect.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -u
export LC_ALL=C # numbers with a decimal point, whatever the user's locale
unset CDPATH
for arg in "$@"; do
  case $arg in
    -h | --help) usage; exit 0 ;;
    -*) bad "unknown option '$arg' (allowed: --help; settings go in the environment, see --help)" ;;
  esac
done
[ $# -ge 1 ] || bad "missing N (usage: ./run.sh N [scenario ...])"
is_count "$1" || bad "N must be a whole number >= 1 (digits only), got '$1'"
N=$((10#$1))
shift
RUNS=${RUNS:-5} THREAD_CAP=${THREAD_CAP:-10000} THREADS=${THREADS:-} SLEEP_MS=${SLEEP_MS:-}
is_count "$RUNS" || bad "RUNS must be a whole number >= 1, got '$RUNS'"
is_count "$THREAD_CAP" || bad "THREAD_CAP must be a whole number >= 1, got '$THREAD_CAP'"
[ -z "$THREADS" ] || is_count "$THREADS" || bad "THREADS must be a whole number >= 1, got '$THREADS'"
[ -z "$SLEEP_MS" ] || is_count "$SLEEP_MS" || bad "SLEEP_MS must be a whole number >= 1, got '$SLEEP_MS'"

# A relative RESULTS is relative to where the user stands; the default lives beside run.sh.
here=$PWD
cd "$(dirname "$0")" || exit 1
RESULTS=${RESULTS:-$PWD/RESULTS.md}
case $RESULTS in /*) ;; *) RESULTS=$here/$RESULTS ;; esac
[ -d "$(dirname "$RESULTS")" ] || bad "RESULTS directory $(dirname "$RESULTS") does not exist"

scenarios=
for s in "$@"; do
  case " $all_scenarios " in *" $s "*) ;; *) bad "unknown scenario '$s' (allowed: $all_scenarios)" ;; esac
  [ -f "$s.cpp" ] || bad "scenario '$s' is not in this checkout yet (no $s.cpp)"
  scenarios="$scenarios $s"
done
if [ $# -eq 0 ]; then
  for s in $all_scenarios; do [ -f "$s.cpp" ] && scenarios="$scenarios $s"; done
  [ -n "$scenarios" ] || bad "no scenario .cpp found in $PWD"
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

# run_row SCENARIO N OPTS VARIANT: RUNS timed runs, then one table row (or a failed row) in rows.
run_row() {
  local i status t summary why='' wall user sys rss
  : >"$work/runs"
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    i=$((i + 1))
    echo "run.sh: $1 $2${3:+ $3} (run $i/$RUNS)" >&2
    # set -m gives the job its own process group, so on_signal can stop the binary too.
    set -m
    # shellcheck disable=SC2086 # OPTS is a list of plain words
    /usr/bin/time "$time_flag" "./$1" "$2" $3 </dev/null >"$work/out" 2>"$work/err" &
    job=$!
    set +m
    wait "$job"
    status=$?
    job=
    if [ "$status" -ne 0 ]; then
      why="failed (exit $status)"
      t=$(last_error "$work/err")
      [ -z "$t" ] || why="$why: $t"
      break
    fi
    if ! t=$($parse "$work/err"); then why="failed: $t"; break; fi
    summary=$(grep '^scenario=' "$work/out" | tail -n 1)
    [ -n "$summary" ] || { why="failed: no scenario= line on stdout"; break; }
    echo "$t $summary" >>"$work/runs"
  done
  if [ -n "$why" ]; then
    echo "run.sh: $1${3:+ $3}: $why" >&2
    echo "| $1 | $4 | $2 | - | $why | - | - | - | - | - | - | - | - |" >>"$work/rows"
    failures=$((failures + 1))
    return
  fi
  read -r wall user sys rss summary <<EOF
$(sort -n -k1,1 "$work/runs" | head -n 1)
EOF
  printf '| %s | %s | %s | %s | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s | %s |\n' \
    "$1" "$4" "$2" "$(field threads "$summary")" "$wall" "$user" "$sys" "$(mib "$rss")" \
    "$(mib "$(field rss_wait_kib "$summary")")" "$(mib "$(field rss_avg_kib "$summary")")" \
    "$(field bytes_per_task "$summary")" "$(field frame_bytes "$summary")" \
    "$(awk 'NR == 1 || $4 < lo { lo = $4 } $4 > hi { hi = $4 } END { printf "%.1f–%.1f", lo / 1024, hi / 1024 }' "$work/runs")" \
    >>"$work/rows"
}

failures=0
capped=
: >"$work/rows"
for s in $scenarios; do
  # Each scenario gets only the options it accepts (threads: no --threads; no sleep in the last two).
  n=$N note='' variants=- sleep=$SLEEP_MS threads=$THREADS
  case $s in
    threads)
      threads='' capped=yes
      [ "$N" -le "$THREAD_CAP" ] || n=$THREAD_CAP note="(capped at THREAD_CAP=$THREAD_CAP)" ;;
    running_avg | hash_collect) sleep='' variants="mutex channel" ;;
  esac
  for v in $variants; do
    o=''
    [ "$v" = - ] || o="--sync $v"
    [ -z "$sleep" ] || o="${o:+$o }--sleep-ms $sleep"
    [ -z "$threads" ] || o="${o:+$o }--threads $threads"
    label=$o
    [ -z "$note" ] || label="${o:+$o }$note"
    run_row "$s" "$n" "$o" "${label:--}"
  done
done

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

{
  echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — N=$N, RUNS=$RUNS"
  echo
  echo "- commit: $commit"
  echo "- OS: ${os:-unknown}"
  echo "- kernel: $(uname -sr)"
  echo "- CPU: ${cpu:-$(uname -m)}"
  echo "- cores: $(getconf _NPROCESSORS_ONLN)"
  echo "- memory: ${mem:-unknown} GiB"
  echo "- compiler: ${compiler:-unknown}"
  echo "- flags: ${flags:-unknown}"
  echo "- N=$N, RUNS=$RUNS${capped:+, THREAD_CAP=$THREAD_CAP}${THREADS:+, THREADS=$THREADS}${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}"
  echo
  echo "| scenario | variant | N | threads | wall s | user s | sys s | max RSS MiB | RSS at wait MiB | avg RSS MiB | bytes/task | frame bytes | max RSS spread MiB |"
  echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
  cat "$work/rows"
  echo
} >"$work/section"

# One append, shielded from signals, so RESULTS never holds half a section.
trap '' HUP INT TERM
: >"$work/title"
[ -s "$RESULTS" ] || printf '# Results\n\nGenerated by run.sh, append-only: each run adds one section below.\n\n' >"$work/title"
cat "$work/title" "$work/section" >>"$RESULTS" || { echo "run.sh: cannot append to $RESULTS" >&2; exit 1; }
cat "$work/section"
echo "run.sh: appended to $RESULTS" >&2
[ "$failures" -eq 0 ]
