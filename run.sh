#!/usr/bin/env bash
# run.sh: builds the scenarios, runs each one RUNS times under /usr/bin/time and appends the best
# run of each to RESULTS.md as one self-describing section (machine, compiler, one table).
# Run: ./run.sh N [scenario ...]   (./run.sh --help lists the environment variables)
#      ./run.sh --sweep [scenario ...]   every N in SWEEP, a table and an SVG chart (harness/charts.py)
#      ./run.sh --peers N [scenario ...] ours and the other runtimes' programs in peers/, one table
#                                        (peers/peers.sh finds, builds and runs the other runtimes)
#      ./run.sh --sweep --peers [scenario ...]   both: every runtime at every N, a chart per scenario
#      ./run.sh --replicate [NAME]       a public write-up's tables run again here (peers/replicate.sh)
#      ./run.sh --plan ARGS...           lists every run that ./run.sh ARGS... would make, and stops
#      ./run.sh --export csv|json [SECTION]   every run's record in the store (harness/store.py)
#      ./run.sh --render SECTION         a section again from the store (harness/render.py)
# It plans first, then runs: harness/plan.py writes each configuration as a line of named fields
# (plan_py), run_plan runs them in order (measure), and write_section writes the section through
# harness/render.py, which computes its table from the store.
# Sourcing it (`. ./run.sh`) only defines the functions, so tests can feed the parsers samples.
# Written for macOS's bash 3.2 and BSD tools too: no arrays, no GNU-only flags.

tab=$'\t'
# dir_of_to VAR PATH: the directory of PATH, a file's path (no trailing slash), as dirname gives it
# ("." for a name alone), and prefixed PREFIX FILE...: each line of each FILE after PREFIX, as sed
# 's/^/PREFIX/' prints them: run.sh calls them on every run, and they start no process (one can
# take 7 ms to start).
dir_of_to() {
  case $2 in
    */*) set -- "$1" "${2%/*}" && printf -v "$1" '%s' "${2:-/}" ;; # set --: no local can shadow VAR
    *) printf -v "$1" . ;;
  esac
}
prefixed() {
  local p=$1 f l
  shift
  for f; do while IFS= read -r l || [ -n "$l" ]; do printf '%s%s\n' "$p" "$l"; done <"$f"; done
}
default_sweep="1 10000 100000 1000000"
time_bin=/usr/bin/time
os_kind=$(uname -s)
case $os_kind in
  Darwin) time_flag=-l parse=parse_macos_time ;;
  *) time_flag=-v parse=parse_gnu_time ;;
esac

# The tables' columns and cells: harness/render.py, which computes each figure from the store.

dir_of_to src_dir "${BASH_SOURCE[0]}"
# The scenarios, in the order of every table: the first column of harness/scenarios.txt, which
# describes each one (harness/plan.py plans from it).
all_scenarios=''
[ -r "$src_dir/harness/scenarios.txt" ] || { echo "run.sh: cannot read $src_dir/harness/scenarios.txt" >&2; return 1 2>/dev/null; exit 1; }
while IFS='|' read -r scenario_name _ || [ -n "$scenario_name" ]; do
  scenario_name=${scenario_name// /}
  case $scenario_name in '' | '#'* | '*') ;; *) all_scenarios="$all_scenarios${all_scenarios:+ }$scenario_name" ;; esac
done <"$src_dir/harness/scenarios.txt"
unset scenario_name

# The other runtimes: peer_scenarios, peer_names, peers_usage, prepare_peers, the tables...
# shellcheck source=peers/peers.sh
. "$src_dir/peers/peers.sh" ||
  { echo "run.sh: cannot read $src_dir/peers/peers.sh" >&2; return 1 2>/dev/null; exit 1; }
# The write-ups' replications: replicate_list, replicate_settings, replicate_head...
# shellcheck source=peers/replicate.sh
. "$src_dir/peers/replicate.sh" ||
  { echo "run.sh: cannot read $src_dir/peers/replicate.sh" >&2; return 1 2>/dev/null; exit 1; }

usage() {
  cat <<EOF
usage: ./run.sh N [scenario ...]
       ./run.sh --sweep [scenario ...]
       ./run.sh --peers N [scenario ...]
       ./run.sh --sweep --peers [scenario ...]
       ./run.sh --replicate [NAME [--quick]]
       ./run.sh --plan ARGS...
       ./run.sh --export csv|json [SECTION]
       ./run.sh --render SECTION
  N         tasks (threads) per scenario: digits only, >= 1
  --sweep   runs every scenario at each N in SWEEP; the section gets a table of memory against N
            and links an SVG chart, written to charts/ beside RESULTS
  --peers   runs our binary and every other runtime's program in peers/ whose toolchain is
            installed (built in release mode in PEERS_BUILD), each at N and at N=1, into one table
            with a runtime column; scenarios: $peer_scenarios. At a commit, a run stopped halfway
            resumes when the same command is run again (its results wait in PEERS_BUILD/resume)
  --sweep --peers
            every runtime at each N in SWEEP: one table, and a chart per scenario with a line per
            runtime (ours marked) on a log memory axis
  --replicate
            without NAME, lists the public write-ups it knows (peers/published/NAME.tsv); with it,
            runs that write-up's configuration (its scenarios, N list, sleep, runs and runtimes,
            and ours) into a section with its tables in their own shape, the published figures
            beside ours, its claims checked and what differs; a timer table that slept less
            than 30 s runs again at its largest N with 30 s, in rows of their own; PEERS_PATCH
            and PEERS_DOTNET add rows at the write-up's tokio and .NET, its claims judged on
            them; --quick divides its N by 10 and then sets nothing against the published
            figures, judges no claim and adds no 30 s rows; TABLES="ID ..." runs only those of
            its tables (an unknown id is refused with the list). A run stopped halfway resumes
            at the same commit (each result is kept in PEERS_BUILD)
  --plan    prints every run the rest of the command line would make (program, N, threads,
            options, environment, runs, time limit), their count and the time they will take
            here (runs, and builds as long as each took last), then exits: it builds,
            installs and writes nothing; a run says at its end how long it took against that
  --export  writes the records in STORE, of every run or of one SECTION (its heading's time as
            RESULTS prints it, 2026-12-06 18:40, or its run id), as CSV or a JSON array on
            stdout, for a spreadsheet or a plotting tool; nothing runs
  --render  prints SECTION again, its table computed from the store's records as when it was
            written (a --peers, --sweep or plain section; a replication's are not yet); nothing runs
  scenario  any of: $all_scenarios
            (default: all of them; with --peers, all of those it runs)
environment:
  RUNS=5              runs per scenario, variant (and N); a row shows the run with the lowest wall time
  THREADS="1 2 4"     a list: each scenario that accepts it runs once per T with --threads T; with
                      --peers, each runtime that has a knob for its worker count runs at each T too
  SLEEP_MS=MS         passed as --sleep-ms MS to every scenario that accepts it; --peers also gives
                      it to every peer (PROGRAM N MS) and passes $peers_sleep_ms (atomic_counter: 1000) when unset
  THREAD_CAP=10000    the threads scenario runs min(N, THREAD_CAP) threads; --sweep skips the larger N
  RESULTS=RESULTS.md  the file one section is appended to: a regular file, or none yet, in a directory
                      run.sh can write in (refused up front otherwise); a failed write leaves it as it was
  STORE=results.jsonl every execution's record (what ran, where, its exit status and every figure read
                      from it), a line of JSON appended as the program ends, and the section's own
                      once RESULTS holds it (default: results.jsonl beside RESULTS)
  SWEEP="$default_sweep"
                      the task counts of --sweep; N=1 is always run, it is the baseline of bytes/task
the write-ups' variants, passed to ours and to every peer that has them (the same options):
  START=gated         running_avg, hash_collect: gated (every task exists before any runs), eager
                      (each starts as it is spawned, as the 2023 programs do), or "gated eager": both
  MODE=loop           atomic_counter: loop (each task loops { hit; sleep } until the hit target) or
                      once (each sleeps once, hits once and ends; the run ends at N hits)
  HITS=H              atomic_counter's hit target in loop mode (default 10 x N; the scoreboard's 60000000);
                      once mode ends at N hits and is not passed it
  SPAWN_FROM=main     atomic_counter: main, or task (one task spawns the N while main only polls)
  POLL_MS=100         atomic_counter: how often the monitor reads the counter
  BURST=K             atomic_counter, with SPAWN_FROM=task: the spawner pauses after every K spawns,
  BURST_PAUSE_MS=1000 for this long
EOF
  peers_usage
  cat <<EOF
One run.sh measures on a machine at a time: a second one refuses, naming the first (the lock is
/tmp/bench-run.lock; one left by a run that was killed is taken over).
EOF
}

# parse_gnu_time FILE: reads GNU `time -v` output and prints "wall_s user_s sys_s max_rss_kib".
# A missing label prints which one and returns 1: a wrong number must never look like a result.
parse_gnu_time() {
  local line wall='' user='' sys='' rss='' miss='' whole frac acc=0 part IFS=$' \t\n'
  while read -r line || [ -n "$line" ]; do  # read drops the indent; a last line may lack its newline
    case $line in
      "Maximum resident set size (kbytes): "*) rss=${line##* } ;;
      "User time (seconds): "*) user=${line##* } ;;
      "System time (seconds): "*) sys=${line##* } ;;
      "Elapsed (wall clock) time (h:mm:ss or m:ss): "*) wall=${line##* } ;;
    esac
  done <"$1"
  if [ -z "$wall" ]; then miss="Elapsed (wall clock) time (h:mm:ss or m:ss)"
  elif [ -z "$user" ]; then miss="User time (seconds)"
  elif [ -z "$sys" ]; then miss="System time (seconds)"
  elif [ -z "$rss" ]; then miss="Maximum resident set size (kbytes)"
  fi
  [ -z "$miss" ] || { echo "time -v output lacks \"$miss\""; return 1; }
  # m:ss.ss or h:mm:ss as seconds with three decimals, in whole ms.
  whole=${wall%%.*} frac=''
  case $wall in *.*) frac=${wall#*.} ;; esac
  case "$whole:$frac" in
    *[!0-9:]* | :* | *::*) echo "time -v output has an unreadable wall time: $wall"; return 1 ;;
  esac
  case $frac in *[!0-9]* | ????*) echo "time -v output has an unreadable wall time: $wall"; return 1 ;; esac
  frac="${frac}000" frac=${frac:0:3}
  IFS=:
  for part in $whole; do acc=$((acc * 60 + 10#$part)); done
  printf '%d.%s %s %s %s\n' "$acc" "$frac" "$user" "$sys" "$rss"
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
       END { sub(/^[ \t]+/, "", last); print last }' "$1"
}

# The helpers below are called once per cell and per run, so they start no process: no other
# program, and no $( ) either, since a process can take 7 ms to start on some machines (and the
# tests call them thousands of times). Each FUNC_to VAR ARGS... sets VAR to what its comment
# describes (its locals start with "_", which VAR must not); a FUNC ARGS... beside it prints that,
# for the tests and the callers outside a hot path.

# field KEY LINE: the value of KEY in a key=value summary line (its last, if twice), "-" when absent.
field_to() {
  local _line=" $3 "
  _line=${_line//$tab/ }
  case $_line in
    *" $2="*) _line=${_line##*" $2="}; printf -v "$1" '%s' "${_line%% *}" ;;
    *) printf -v "$1" '%s' - ;;
  esac
}
field() { local v; field_to v "$@"; echo "$v"; }

# mib_to VAR KIB: KiB as MiB with one decimal ("-" stays "-"), rounded as printf's %.1f rounds KIB / 1024
# (exact in binary, so a tie goes to the even digit).
mib_to() {
  case $2 in
    -) printf -v "$1" '%s' - ;;
    '' | *[!0-9]*) printf -v "$1" '%s' "$(awk -v k="$2" 'BEGIN { printf "%.1f\n", k / 1024 }')" ;;
    *) tenths_to "$1" "$2" 1024 ;;
  esac
}
# tenths_to VAR WHOLE POWER_OF_2: WHOLE / POWER_OF_2 with one decimal, as %.1f rounds it.
tenths_to() {
  local _t=$((10#$2 * 10 / $3)) _r=$((10#$2 * 10 % $3))
  if [ $((2 * _r)) -gt "$3" ] || { [ $((2 * _r)) -eq "$3" ] && [ $((_t % 2)) -eq 1 ]; }; then _t=$((_t + 1)); fi
  printf -v "$1" '%s' "$((_t / 10)).$((_t % 10))"
}

# is_count V: digits only, >= 1, and short enough for shell arithmetic.
is_count() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
  set -- "${1#"${1%%[!0]*}"}" # leading zeros off
  [ -n "$1" ] && [ ${#1} -le 18 ]
}
# need_count NAME V: exits 2 unless is_count V, saying whether V is not a count or too large for
# the shell's 64-bit arithmetic (18 digits; a binary refuses an N that will not fit in memory).
max_count=999999999999999999
need_count() {
  is_count "$2" && return 0
  case $2 in
    '' | *[!0-9]*) bad "$1 must be a whole number >= 1 (digits only), got '$2'" ;;
    *[1-9]*) bad "$1 is too large: $2 (run.sh takes at most $max_count)" ;;
    *) bad "$1 must be >= 1, got '$2'" ;;
  esac
}

bad() { echo "run.sh: $*" >&2; exit 2; }

# sample_rss PID: while PID (time) lives, the resident set in KiB of the program it runs, one line
# every 100 ms: VmRSS from /proc on Linux, with the time it was read (/proc/uptime, s), `ps -o
# rss=` elsewhere. It samples time's child, the program itself (peers' launchers exec theirs), not
# time: on Linux the one /proc lists as its child, elsewhere the one pgrep finds.
sample_rss() {
  local child='' k v rest up
  while kill -0 "$1" 2>/dev/null; do
    if [ -z "$child" ]; then
      if [ -r "/proc/$1/task/$1/children" ]; then
        { read -r child rest <"/proc/$1/task/$1/children"; } 2>/dev/null  # no newline after the last
      else
        child=$(pgrep -P "$1" 2>/dev/null | head -n 1)
      fi
    fi
    if [ -z "$child" ]; then
      :
    elif [ -r "/proc/$child/status" ]; then
      read -r up rest </proc/uptime 2>/dev/null || up=''
      while read -r k v rest; do [ "$k" = VmRSS: ] && { echo "$v $up"; break; }; done 2>/dev/null <"/proc/$child/status"
    else
      ps -o rss= -p "$child" 2>/dev/null | tr -d ' '
    fi
    sleep 0.1
  done
}

# samples_kib FILE SUMMARY: "AVG WINDOW", two means of the samples in FILE, in KiB: AVG of them
# all, WINDOW of those from the end of spawning to the poll that saw the target (the summary's
# spawn_ms, or our waiting_ms, and reached_ms: atomic_counter), the window the scoreboard's own
# AvgRSS averaged over. A sample's time is its /proc/uptime less the first's, taken as the program's
# own time zero (its runtime's start-up before that shifts the window early by as much, tens of ms
# against a window of seconds), else 100 ms a sample. "-" for a mean without a sample (a run under
# 100 ms; no such window).
samples_kib_to() {
  local _from _to _k _up _rest _n=0 _sum=0 _wn=0 _wsum=0 _i=0 _t _t0='' _avg=- _win=-
  spawn_ms_to _from "$3"
  field_to _to reached_ms "$3"
  # The window in whole ms: a sample at t ms is in it when from <= t <= to.
  case $_from in *.*[!0]*) _from=$((10#${_from%%.*} + 1)) ;; *.*) _from=${_from%%.*} ;; esac
  _to=${_to%%.*}
  case "$_from:$_to" in *[!0-9:]* | :* | *:) _from='' ;; esac
  while read -r _k _up _rest; do
    case $_k in '' | *[!0-9]*) continue ;; esac
    _sum=$((_sum + _k)) _n=$((_n + 1))
    if [ -n "$_up" ]; then
      ms_of_to _t "$_up"
      [ -n "$_t0" ] || _t0=$_t
      _t=$((_t - _t0))
    else
      _t=$((_i * 100))
    fi
    _i=$((_i + 1))
    [ -z "$_from" ] || [ "$_t" -lt "$_from" ] || [ "$_t" -gt "$_to" ] || { _wsum=$((_wsum + _k)) _wn=$((_wn + 1)); }
  done <"$2"
  [ "$_n" -eq 0 ] || mean_to _avg "$_sum" "$_n"
  [ "$_wn" -eq 0 ] || mean_to _win "$_wsum" "$_wn"
  printf -v "$1" '%s %s' "$_avg" "$_win"
}
samples_kib() { local v; samples_kib_to v "$@"; echo "$v"; }

# ms_of_to VAR SECONDS: SECONDS (digits, a point and up to three decimals: /proc/uptime) in
# whole ms.
ms_of_to() {
  local _f=''
  case $2 in *.*) _f=${2#*.} ;; esac
  _f="${_f}000"
  printf -v "$1" '%s' "$((10#${2%%.*} * 1000 + 10#${_f:0:3}))"
}

# mean_to VAR SUM N: SUM / N rounded to a whole number as printf's %.0f rounds it (a tie to even).
mean_to() {
  local _q=$(($2 / $3)) _r=$(($2 % $3))
  if [ $((2 * _r)) -gt "$3" ] || { [ $((2 * _r)) -eq "$3" ] && [ $((_q % 2)) -eq 1 ]; }; then _q=$((_q + 1)); fi
  printf -v "$1" '%s' "$_q"
}
# The store: every execution of a program is a record, one line of JSON appended to STORE as the
# program ends, so that a run stopped halfway leaves whole records only; the section's own record
# follows once RESULTS holds it. `./run.sh --export` writes them out (harness/store.py).
# json_str_to VAR TEXT: TEXT as a JSON string: valid UTF-8 whatever the bytes (utf8_to), a control
# character other than tab, newline and carriage return dropped.
json_str_to() {
  local _s=$2
  case $_s in *[$'\200'-$'\377']*) utf8_to _s "$_s" ;; esac
  _s=${_s//\\/\\\\}
  _s=${_s//\"/\\\"} _s=${_s//$tab/\\t} _s=${_s//$'\n'/\\n} _s=${_s//$'\r'/\\r}
  printf -v "$1" '"%s"' "${_s//[[:cntrl:]]/}"
}
# json_fields_to VAR LINE: the tab-separated fields of LINE as a JSON array of strings, an empty
# field kept (read -a would merge two tabs).
json_fields_to() {
  local _rest=$2$tab _o='' _v
  while [ -n "$_rest" ]; do
    json_str_to _v "${_rest%%"$tab"*}"
    _o="$_o${_o:+,}$_v" _rest=${_rest#*"$tab"}
  done
  printf -v "$1" '[%s]' "$_o"
}
# utf8_to VAR TEXT: TEXT with each byte that is not part of a well-formed UTF-8 sequence replaced by
# U+FFFD, so that a program's stray byte (a failure's stderr, a summary) cannot break a record. A
# byte at a time (LC_ALL=C), for the rare text that has a byte above 127 at all.
utf8_to() {
  local _in=$2 _out='' _b _k _lo _hi _i _c
  while [ -n "$_in" ]; do
    printf -v _b '%d' "'${_in:0:1}"
    # The lead byte: how many bytes follow it, and the range of the first of them.
    _k=0 _lo=128 _hi=191
    if [ "$_b" -lt 128 ]; then _out=$_out${_in:0:1} _in=${_in:1}; continue
    elif [ "$_b" -ge 194 ] && [ "$_b" -le 223 ]; then _k=1
    elif [ "$_b" -ge 224 ] && [ "$_b" -le 239 ]; then _k=2; [ "$_b" -ne 224 ] || _lo=160; [ "$_b" -ne 237 ] || _hi=159
    elif [ "$_b" -ge 240 ] && [ "$_b" -le 244 ]; then _k=3; [ "$_b" -ne 240 ] || _lo=144; [ "$_b" -ne 244 ] || _hi=143
    fi
    _i=1
    while [ "$_i" -le "$_k" ]; do
      _c=${_in:_i:1}
      [ -n "$_c" ] || break
      printf -v _c '%d' "'$_c"
      { [ "$_c" -ge "$_lo" ] && [ "$_c" -le "$_hi" ]; } || break
      _lo=128 _hi=191 _i=$((_i + 1))
    done
    if [ "$_k" -gt 0 ] && [ "$_i" -gt "$_k" ]; then _out=$_out${_in:0:_k+1} _in=${_in:_k+1}
    else _out=$_out$'\357\277\275' _in=${_in:1}
    fi
  done
  printf -v "$1" '%s' "$_out"
}
# json_to VAR TEXT: TEXT as a JSON value: a number as it is, anything else a string.
json_to() {
  if [[ $2 =~ ^-?(0|[1-9][0-9]*)(\.[0-9]+)?$ ]]; then printf -v "$1" '%s' "$2"; else json_str_to "$1" "$2"; fi
}
# json_add_to VAR KEY TEXT [string]: VAR's JSON members with "KEY": TEXT (json_to, or always a
# string) after them.
json_add_to() {
  local _k _v
  json_str_to _k "$2"
  if [ -n "${4:-}" ]; then json_str_to _v "$3"; else json_to _v "$3"; fi
  printf -v "$1" '%s' "${!1}${!1:+,}$_k:$_v"
}
# summary_json_to VAR LINE: the key=value words of a summary line as a JSON object.
summary_json_to() {
  local _o='' _w _rest="${2//$tab/ } "
  while [ -n "${_rest// /}" ]; do
    _rest=${_rest#"${_rest%%[! ]*}"}
    _w=${_rest%% *} _rest=${_rest#* }
    case $_w in ?*=*) json_add_to _o "${_w%%=*}" "${_w#*=}" ;; esac
  done
  printf -v "$1" '{%s}' "$_o"
}
# time_json_to VAR FILE: every figure time printed in FILE as a JSON object: GNU time -v's
# "label: value" lines, BSD time -l's "value label" lines (the program's own stderr before them
# left out).
time_json_to() {
  local _o='' _on='' _line _k _v
  while IFS= read -r _line || [ -n "$_line" ]; do
    case $_line in
      *"Command being timed: "*) _on=gnu; continue ;;
      *" real "*" user "*" sys"*) _on=bsd; continue ;;
    esac
    case $_on in
      gnu) case $_line in *": "*) _k=${_line#"${_line%%[! $tab]*}"} _v=${_line##*: } && _k=${_k%: *} ;; *) continue ;; esac ;;
      bsd)
        _v=${_line#"${_line%%[! ]*}"}
        _k=${_v#* } _v=${_v%% *}
        _k=${_k#"${_k%%[! ]*}"}
        case $_v in '' | *[!0-9]*) continue ;; esac ;;
      *) continue ;;
    esac
    json_add_to _o "$_k" "$_v"
  done <"$2"
  printf -v "$1" '{%s}' "$_o"
}
# store_run TRY TIMES STATUS FAILURE TIMES_LINE SAMPLES SUMMARY: the record of one execution of
# measure_runs' configuration (rec_run; TRY of TIMES; TIMES_LINE: "wall_s user_s sys_s max_rss_kib",
# the parser's; SAMPLES: "AVG WINDOW", samples_kib's), appended to STORE.
store_run() {
  local rec=$rec_run fig='' w u s r a win now
  [ -n "${STORE:-}" ] || return 0
  read -r w u s r <<<"$5"
  read -r a win <<<"$6"
  utc_to now $((start_epoch + SECONDS - start_seconds))
  json_add_to rec try "$1"
  json_add_to rec of "$2"
  json_add_to rec status "$3"
  if [ -n "$4" ]; then json_add_to rec failure "$4"; else rec="$rec,\"failure\":null"; fi
  [ -z "$w" ] || { json_add_to fig wall_s "$w" && json_add_to fig user_s "$u" && json_add_to fig sys_s "$s" && json_add_to fig max_rss_kib "$r"; }
  rec="$rec,\"time\":{$fig}"
  time_json_to fig "$work/err"
  rec="$rec,\"time_output\":$fig"
  summary_json_to fig "$7"
  rec="$rec,\"summary\":$fig"
  [ "${a:--}" != - ] || a=null  # no sample
  [ "${win:--}" != - ] || win=null  # no window
  fig="\"avg_rss_kib\":$a,\"window_avg_kib\":$win"
  rec="{\"record\":\"run\",$rec_head,\"date\":\"$now\",$rec,\"samples\":{$fig}}"
  # A copy in the work directory too: the section is written from it should STORE's disk fill.
  printf '%s\n' "$rec" >>"$work/records"
  printf '%s\n' "$rec" >>"$STORE" ||
    { echo "run.sh: cannot append to the store $STORE: this run's record is lost" >&2; store_lost=$((store_lost + 1)); }
}
# utc_to VAR EPOCH: EPOCH (seconds) as 2026-12-06T18:40:00Z, by arithmetic (the civil calendar from
# a day count), so that a record's date starts no process on any bash.
utc_to() {
  local _d=$(($2 / 86400)) _s=$(($2 % 86400)) _e _y _m _doy _mp
  _d=$((_d + 719468)) _e=$((_d / 146097))
  _d=$((_d - _e * 146097))
  _y=$(((_d - _d / 1460 + _d / 36524 - _d / 146096) / 365))
  _doy=$((_d - (365 * _y + _y / 4 - _y / 100)))
  _mp=$(((5 * _doy + 2) / 153))
  _m=$((_mp < 10 ? _mp + 3 : _mp - 9))
  _y=$((_y + _e * 400 + (_m <= 2)))
  printf -v "$1" '%04d-%02d-%02dT%02d:%02d:%02dZ' "$_y" "$_m" "$((_doy - (153 * _mp + 2) / 5 + 1))" \
    "$((_s / 3600))" "$((_s / 60 % 60))" "$((_s % 60))"
}

# measure SCENARIO PROGRAM N OPTS [TIMES]: TIMES (default RUNS) timed runs of PROGRAM N OPTS, each
# a record in the store, from which harness/render.py computes the table. On success why is empty,
# and best_rss and best_summary hold the max RSS (KiB) and the summary line of the run with the
# lowest wall time, which run.sh itself needs (the baselines, the charts, the memory guard);
# otherwise why says what failed. PROGRAM is a path, so a program that is not one of the scenarios here (a
# peer) is measured the same way. A summary line of another scenario, or whose completed= is not N, is a
# failure too. With time_limit (seconds) set, a run still going then is stopped, TERM and 5 s later
# KILL to its process group, and is a failure that says how far it got (its last stderr line).
# done_runs counts the runs made, for the progress lines.
measure() {
  local first=$done_runs
  measure_runs "$@"
  done_runs=$((first + ${5:-$RUNS}))  # runs skipped after a failure count as done
}

# measure_config LINE GROUP SCENARIO PROGRAM N OPTS TIMES: measure, or, under --replicate or
# --peers, what an earlier run of the same configuration at this commit left in its cache
# (rep_cache, set when the tree is clean): the plan LINE and GROUP's runtime version are the key. Each new result goes
# in the cache, so a run stopped halfway (an interrupt, a session's end) resumes where it stopped.
measure_config() {
  local line=$1 group=$2 key='' version l
  shift 2
  configs=$((configs + 1))
  if [ -n "${rep_cache:-}" ]; then
    runtime_label_to version "$group"
    key=$(printf '%s\n%s\n' "$line" "$version" | cksum) && key=$rep_cache/${key// /-}
    if [ -f "$key" ]; then
      why='' best_rss='' best_summary='' ref=''
      while IFS= read -r l; do
        case $l in why=*) why=${l#why=} ;; rss=*) best_rss=${l#rss=} ;; summary=*) best_summary=${l#summary=} ;; ref=*) ref=${l#ref=} ;; esac
      done <"$key"  # each line ends in a newline: printf wrote them
      # A result is taken with its records only: those of the plan line that measured it (REF,
      # RUN/LINE in its own sitting's plan), in the store this run writes to.
      if stored "$ref"; then
        case " $sittings " in *" ${ref%/*} "*) ;; *) sittings="$sittings ${ref%/*}" ;; esac
        row_ref=$ref
        echo "run.sh: ${2##*/} $3${4:+ $4}: from the cache of an earlier run at this commit" >&2
        done_runs=$((done_runs + $5)) resumed=$((resumed + 1))
        return
      fi
      echo "run.sh: ${2##*/} $3${4:+ $4}: kept by an earlier run, but its records are not in $STORE: measured again" >&2
    fi
  fi
  measure "$@"
  row_ref=$run_id/$row_k
  # A peers run keeps a failure out, so that its resume tries again.
  [ -z "$key" ] || { [ -n "$why" ] && [ -z "$replicate" ]; } ||
    { printf 'why=%s\nrss=%s\nsummary=%s\nref=%s\n' "$why" "$best_rss" "$best_summary" "$row_ref" >"$key.tmp" && mv "$key.tmp" "$key"; } ||
    echo "run.sh: cannot write the cache $key" >&2
}

# stored REF: STORE holds the records of REF (RUN/LINE: a run id and its plan line's number).
stored() {
  case $1 in [0-9]*T[0-9]*Z-[0-9]*/[0-9]*) ;; *) return 1 ;; esac
  case $1 in */*/* | *[!0-9TZ/-]*) return 1 ;; esac
  grep -q "^{\"record\":\"run\",\"run\":\"${1%/*}\",.*,\"row\":${1##*/}," "$STORE" 2>/dev/null
}

# point_done LABEL N WHY [REF]: under --replicate, the outcome of one point for its tables, a line
# of $work/rep: LABEL (the write-up's row), N, why it has no figure ("-": none), the max RSS (KiB)
# of the run that measure kept (for the memory guard, replicate_guard) and REF, the plan line that
# measured it, whose records the section's figures come from.
point_done() {
  local rss=$best_rss
  [ -n "${replicate:-}" ] || return 0
  [ -z "$3" ] || rss=-
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "${3:--}" "$rss" "${4:--}" >>"$work/rep"
}

# progress_to VAR K: "K of PLANNED runs", and from the second run on the time left at the pace so far
# (whole seconds, in shell arithmetic: it is called before every run).
progress_to() {
  local _t=$((SECONDS - run_start)) _k=$2 _left=$((planned - $2 + 1)) _line="$2 of $planned runs"
  if [ "$_k" -gt 1 ] && [ "$_left" -ge 1 ]; then
    if [ $((_t * _left)) -lt $((90 * (_k - 1))) ]; then
      _line="$_line, about $((_t * _left / (_k - 1))) s left"
    else
      _line="$_line, about $(((_t * _left + 30 * (_k - 1)) / (60 * (_k - 1)))) min left"
    fi
  fi
  printf -v "$1" '%s' "$_line"
}

measure_runs() {
  local i status t summary shown done_n line p times_line times=${5:-$RUNS}
  why='' best_rss='' best_summary=''
  # The record of each execution: the configuration run_plan described, and the command.
  local rec_run=${rec_config:-}
  json_add_to rec_run program "${2##*/}" string
  json_add_to rec_run n "$3"
  json_add_to rec_run options "$4" string
  json_add_to rec_run env "$run_env" string
  : >"$work/runs"
  i=0
  while [ "$i" -lt "$times" ]; do
    i=$((i + 1))
    progress_to p "$((done_runs + i))"
    echo "run.sh: ${2##*/} $3${4:+ $4} (run $i/$times; $p)" >&2
    # set -m gives the job its own process group, so on_signal can stop the binary too.
    set -m
    # run_env's VAR=value words (a peer's thread-count knob) are exported in the job's own shell,
    # which then becomes time: the process time waits for, and sample_rss samples, is the program.
    # shellcheck disable=SC2086 # OPTS and run_env are lists of plain words
    ( [ -z "$run_env" ] || export $run_env
      exec "$time_bin" "$time_flag" "$2" "$3" $4 ) </dev/null >"$work/out" 2>"$work/err" 3<&- &
    job=$!
    [ ! -e "$work/timed_out" ] || rm -f "$work/timed_out"
    # The watchdog has its own group too (ended with it below) and no stdout: a $(...) around
    # run.sh must not wait for its sleep. How far the run got is its last stderr line before the
    # TERM (after it, a program may only say that it was terminated).
    [ -z "$time_limit" ] || { sleep "$time_limit" && last_error "$work/err" >"$work/timed_out" &&
      kill -TERM -- "-$job" && sleep 5 && kill -KILL -- "-$job"; } >/dev/null 2>&1 </dev/null &
    [ -z "$time_limit" ] || watchdog=$!
    set +m
    sample_rss "$job" >"$work/samples" &
    sampler=$!
    wait "$job"
    status=$?
    job=
    end_watchdog
    # The program has ended: the sampler's next reading would find nothing, so it need not be awaited.
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
    sampler=
    # What failed, if anything: then the configuration stops here (its record first).
    summary='' times_line=''
    if [ -f "$work/timed_out" ]; then
      why="timed out after $time_limit s"
      t=$(cat "$work/timed_out")
      [ -z "$t" ] || why="$why (last: $t)"
    elif [ "$status" -ne 0 ]; then
      why="failed (exit $status)"
      t=$(last_error "$work/err")
      [ -z "$t" ] || why="$why: $t"
    elif ! t=$($parse "$work/err"); then
      why="failed: $t"
    else
      times_line=$t
      while IFS= read -r line || [ -n "$line" ]; do case $line in scenario=*) summary=$line ;; esac; done <"$work/out"
      field_to shown scenario "$summary"
      field_to done_n completed "$summary"
      if [ -z "$summary" ]; then why="failed: no scenario= line on stdout"
      elif [ "$shown" != "$1" ]; then why="failed: it printed scenario=$shown"
      elif [ "$done_n" != - ] && [ "$done_n" != "$3" ]; then why="failed: completed=$done_n of $3"
      fi
    fi
    samples_kib_to line "$work/samples" "$summary"
    store_run "$i" "$times" "$status" "$why" "$times_line" "$line" "$summary"
    [ -z "$why" ] || return
    echo "$t $line $summary" >>"$work/runs"
  done
  # The run kept: the lowest wall time (a tie: the line that sorts first, as sort -n would keep it);
  # one run is kept without a process.
  if [ "$times" -eq 1 ]; then
    IFS= read -r line <"$work/runs"
  else
    line=$(awk 'NR == 1 || $1 + 0 < w || ($1 + 0 == w && $0 < b) { w = $1 + 0; b = $0 } END { print b }' "$work/runs")
  fi
  # Its line: wall, user and sys seconds, max RSS, the two means of the samples, the summary.
  read -r _ _ _ best_rss _ _ best_summary <<BEST
$line
BEST
}

# end_watchdog: stops measure's watchdog, if one is waiting.
end_watchdog() {
  if [ -n "$watchdog" ]; then kill -- "-$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null; fi
  watchdog=
}

# write_row SCENARIO RUNTIME VARIANT N TCELL WHY BASE BASE_REF: a row of the run's table ($table),
# as the section's record describes it to harness/render.py, which computes its figures from the
# store: its own cells; the plan line that measured it (row_ref, "SITTING/LINE": its records say
# whether it failed), or WHY nothing measured it; its N = 1 baseline, the plan line that measured it
# (BASE_REF), or BASE, why there is none.
write_row() {
  local cells='' v
  [ "$table" != replicate ] || return 0 # its tables are written from the points (point_done)
  json_add_to cells scenario "$1" string
  json_add_to cells runtime "$2" string
  json_add_to cells variant "$3" string
  json_add_to cells n "$4" string
  json_add_to cells tcell "$5" string
  cells="{\"cells\":{$cells}"
  if [ -n "$row_ref" ]; then cells="$cells,\"ref\":\"$row_ref\""; else json_str_to v "$6" && cells="$cells,\"why\":$v"; fi
  if [ -n "${8:-}" ]; then cells="$cells,\"base\":{\"ref\":\"$8\"}"
  elif [ -n "$7" ]; then json_str_to v "$7" && cells="$cells,\"base\":{\"why\":$v}"
  fi
  echo "$cells}" >>"$work/rows"
}

# spawn_ms SUMMARY: waiting_ms= if the summary has it, else spawn_ms=, else "-".
spawn_ms_to() {
  field_to "$1" waiting_ms "$2"
  [ "${!1}" != - ] || field_to "$1" spawn_ms "$2"
}

# alive_cell SUMMARY: were all N tasks alive at once? From the program's own ended_at_spawn= (tasks
# that had already ended when the last one began to wait) and whether that spawning outlasted the
# sleep: "yes", "yes; spawning outlasted the sleep" (every task existed, but the first were already
# due), "no: E of N had ended", or "-" for a program that does not say.
alive_cell_to() {
  local _e _ms _sl _n
  field_to _e ended_at_spawn "$2"
  field_to _sl sleep_ms "$2"
  spawn_ms_to _ms "$2"
  case $_e in
    -) printf -v "$1" '%s' -; return ;;
    '' | *[!0-9]*) printf -v "$1" '? ended_at_spawn=%s' "$_e"; return ;;
  esac
  if [ "$_e" -gt 0 ]; then
    field_to _n n "$2"
    printf -v "$1" 'no: %s of %s had ended' "$_e" "$_n"
    return
  fi
  case "$_ms $_sl" in
    *[!0-9\ ]* | ' '* | *' ') # a fraction, or not two numbers
      awk -v ms="$_ms" -v sl="$_sl" 'BEGIN { n = "^[0-9]+([.][0-9]+)?$"; exit !(ms ~ n && sl ~ n && ms + 0 > sl + 0) }' ;;
    *) [ "$((10#$_ms))" -gt "$((10#$_sl))" ] ;;
  esac && printf -v "$1" '%s' "yes; spawning outlasted the sleep" || printf -v "$1" '%s' yes
}
alive_cell() { local v; alive_cell_to v "$@"; echo "$v"; }

# cgroup_dirs CONTROLLER: the directories of run.sh's cgroup that hold CONTROLLER's files, its own
# first, then each ancestor up to the root, as common.hpp's cgroup_dirs finds them: v2's "0::/PATH"
# under /sys/fs/cgroup (or /sys/fs/cgroup/unified), v1's "ID:...,CONTROLLER,...:/PATH" under
# /sys/fs/cgroup/CONTROLLER; only those that exist. Nothing outside Linux.
cgroup_dirs() {
  [ -r "/proc/$$/cgroup" ] || return 0
  awk -v c="$1" '{
      n = split($0, f, ":"); path = $0; sub(/^[^:]*:[^:]*:/, "", path); k = 0
      if (f[1] == "0" && f[2] == "") { root[++k] = "/sys/fs/cgroup"; root[++k] = "/sys/fs/cgroup/unified" }
      else if (index("," f[2] ",", "," c ",")) root[++k] = "/sys/fs/cgroup/" c
      for (i = 1; i <= k; i++) for (p = path; ; ) {
        print root[i] (p == "/" ? "" : p)
        if (length(p) <= 1) break
        sub(/\/[^\/]*$/, "", p); if (p == "") p = "/"
      }
    }' "/proc/$$/cgroup" 2>/dev/null | while IFS= read -r d; do [ ! -d "$d" ] || printf '%s\n' "$d"; done
}

# cgroup_limits: the limits of run.sh's cgroup and its ancestors, one line each where there is one:
# "memory ROOM_KIB LIMIT_KIB FILE", the memory limit that leaves the least room (its limit less what
# the cgroup uses, page cache it can drop not counted, as docker stats and the kubelet count it),
# and "cpu QUOTA", the smallest CPU quota in CPUs (v2 cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us).
# A file that is missing or garbage means no limit there.
cgroup_limits() {
  local d a b c v1 v2 k v
  {
    # Each file's first line, read without a process per file: a cgroup tree can be deep.
    cgroup_dirs memory | while IFS= read -r d; do
      a='' b='' c='' v1='' v2=''
      { read -r a <"$d/memory.max"; } 2>/dev/null
      { read -r b <"$d/memory.current"; } 2>/dev/null
      { while read -r k v; do
          case $k in inactive_file) v1=$v ;; total_inactive_file) v2=$v ;; esac
        done <"$d/memory.stat"; } 2>/dev/null
      printf 'memory %s\t%s\t%s\t%s\n' "$d/memory.max" "$a" "$b" "$v1"
      a='' b=''
      { read -r a <"$d/memory.limit_in_bytes"; } 2>/dev/null
      { read -r b <"$d/memory.usage_in_bytes"; } 2>/dev/null
      printf 'memory %s\t%s\t%s\t%s\n' "$d/memory.limit_in_bytes" "$a" "$b" "$v2"
    done
    cgroup_dirs cpu | while IFS= read -r d; do
      a='' b='' c=''
      { read -r a <"$d/cpu.max"; } 2>/dev/null
      { read -r b <"$d/cpu.cfs_quota_us"; } 2>/dev/null
      { read -r c <"$d/cpu.cfs_period_us"; } 2>/dev/null
      printf 'cpu %s\t%s\n' "$a" x
      printf 'cpu %s\t%s\n' "$b" "$c"
    done
  } | awk -F '\t' '
    function whole(v) { return v ~ /^[0-9]+$/ && length(v) <= 19 }
    /^memory / {
      file = substr($1, 8); limit = $2; use = $3; inactive = whole($4) ? $4 : 0
      if (!whole(limit) || limit + 0 >= 2 ^ 60 || !whole(use)) next  # v1 writes no limit as about 2^63
      room = limit - (use - inactive > 0 ? use - inactive : 0)
      if (room < 0) room = 0
      if (mfile == "" || room < mroom) { mroom = room; mlimit = limit; mfile = file }
    }
    /^cpu / {
      q = substr($1, 5); per = $2
      if ($2 == "x") { split(q, part, " "); q = part[1]; per = part[2] }  # v2: "QUOTA PERIOD" or "max PERIOD"
      if (!whole(q) || !whole(per) || per + 0 == 0) next
      if (cpu == "" || q / per < cpu) cpu = q / per
    }
    END {
      if (mfile != "") printf "memory %.0f %.0f %s\n", mroom / 1024, mlimit / 1024, mfile
      if (cpu != "") printf "cpu %.1f\n", cpu
    }'
}

# available_kib: "KIB BOUND": the memory available now in KiB, and what bounds it, as the binaries'
# refusal says it: MemAvailable, or less where the cgroup's limit leaves less room (cgroup_limits);
# free plus inactive pages on macOS. Nothing when it cannot be told.
available_kib() {
  local have cg
  if [ -r /proc/meminfo ]; then
    have=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
    [ -n "$have" ] || return 0
    cg=$(cgroup_limits | awk '$1 == "memory"')
    printf '%s\n' "$have" "$cg" | awk 'NR == 1 { have = $1; bound = "available now (MemAvailable)" }
      NR == 2 && NF >= 4 && $2 + 0 < have { have = $2; file = $0; sub(/^([^ ]+ ){3}/, "", file)
        n = split(file, part, "/")
        bound = sprintf("left under the cgroup'"'"'s %s (%.1f GiB, %s)", part[n], $3 / 1048576, file) }
      END { print have, bound }'
  else
    vm_stat 2>/dev/null | awk '/page size of/ { p = $8 } /^Pages (free|inactive):/ { gsub(/\./, "", $3); n += $3 }
      END { if (p && n) printf "%.0f available now (free + inactive pages)\n", n * p / 1024 }'
  fi
}

# guard N BASE_KIB LAST_N LAST_KIB: the memory guard. Estimates the max RSS at N from the program's
# cost per task at its last N, BASE + (LAST − BASE) × N / LAST_N, and fails, why saying so, when
# that exceeds the memory available now: a run the OOM killer ends is no measurement, and on a
# machine without swap it takes others with it.
guard() {
  local have
  have=$(available_kib)
  [ -n "$have" ] || return 0
  # The bound names a file: through the environment, since awk -v would read its backslashes.
  why=$(BOUND=${have#* } awk -v n="$1" -v b="$2" -v ln="$3" -v l="$4" -v h="${have%% *}" 'BEGIN {
      need = b + (l - b) * n / ln
      if (need > h)
        printf "not run: about %.1f GiB at its cost per task at N=%s (%.1f bytes), more than the %.1f GiB %s\n",
          need / 1048576, ln, (l - b) * 1024 / ln, h / 1048576, ENVIRON["BOUND"] }')
  [ -z "$why" ]
}

# The plan: every run of the section, one line per configuration, written before anything runs;
# run_plan runs it, ./run.sh --plan prints it. harness/plan.py makes it (its Config says what a
# line holds) from the build groups, the catalogue and these settings, and estimates its time.
# plan_py WHAT: plan.py's WHAT: plan (the lines), listing (--plan's), estimate ("RUNS_S BUILDS_S
# UNBUILT": the seconds of runs, of builds, and the groups never built here), rows (a replication's).
plan_py() {
  printf '%s\n@@\n%s\n' "$groups_tab" "$catalogue_tab" | "$harness_py" -B "$harness_dir/plan.py" "$1" \
    "scenarios=${scenarios:-}" "N=${N:-}" "sweep=$sweep" "sweep_ns=${sweep_ns:-}" "peers=$peers" \
    "replicate=$replicate" "quick=$quick" "pubfile=${pubfile:-}" "TABLES=${TABLES:-}" "RUNS=${RUNS:-}" \
    "THREADS=${THREADS:-}" "START=${START:-}" "SLEEP_MS=${SLEEP_MS:-}" "THREAD_CAP=${THREAD_CAP:-}" \
    "PEER_TIMEOUT=${PEER_TIMEOUT:-}" "PEERS=${PEERS:-}" "peers_sleep_ms=$peers_sleep_ms" "HITS=${HITS:-}" \
    "MODE=${MODE:-}" "SPAWN_FROM=${SPAWN_FROM:-}" "POLL_MS=${POLL_MS:-}" "BURST=${BURST:-}" \
    "BURST_PAUSE_MS=${BURST_PAUSE_MS:-}" "build_dir=${pb:-}" "versions_dir=${pw:-}" "command_line=$command_line"
}

# mode_settings: the variants' variables that are set and apply to the chosen scenarios, as
# ", VAR=value" each, for the section's heading and settings line.
mode_settings() {
  local v t=''
  case " $scenarios " in *" atomic_counter "*)
    for v in HITS MODE SPAWN_FROM POLL_MS BURST BURST_PAUSE_MS; do
      [ -z "${!v:-}" ] || t="$t, $v=${!v}"
    done ;;
  esac
  case " $scenarios " in *" running_avg "* | *" hash_collect "*) [ -z "$START" ] || t="$t, START=$START" ;; esac
  echo "$t"
}

# state_of GROUP: ok for ours; a peer's group's state from prepare_peers ($pw/GROUP.state).
state_of_to() {
  printf -v "$1" '%s' ok
  [ "$2" = ours ] || { printf -v "$1" '%s' '' && read -r "$1" <"$pw/$2.state"; } 2>/dev/null
  :
}
state_of() { local v; state_of_to v "$@"; echo "$v"; }

# count_runs PLAN: the runs PLAN makes, the lines of groups that were not built left out.
count_runs() {
  local kind s g prog n tcell args env runs limit variant label flags line sum=0 st
  while IFS= read -r line <&3; do
    read_config "$line"
    case $kind in base | row | point) state_of_to st "$g"; [ "$st" != ok ] || sum=$((sum + runs)) ;; esac
  done 3<"$1"
  echo "$sum"
}

# read_config LINE: a plan line's fields into kind s g prog n tcell args env runs limit variant label
# flags (run_plan's and count_runs' locals): harness/plan.py writes each as NAME=VALUE (its Config),
# tab-separated, "-" for an empty value; args, env and limit are "" then, as the commands take them.
read_config() {
  local _f _rest=$1$tab
  kind='' s='' g='' prog='' n='' tcell='' args='' env='' runs='' limit='' variant='' label='' flags=''
  while [ -n "$_rest" ]; do
    _f=${_rest%%"$tab"*} _rest=${_rest#*"$tab"}
    case $_f in
      kind=* | n=* | args=* | env=* | runs=* | limit=* | variant=* | label=* | flags=*) printf -v "${_f%%=*}" '%s' "${_f#*=}" ;;
      scenario=*) s=${_f#*=} ;;
      group=*) g=${_f#*=} ;;
      program=*) prog=${_f#*=} ;;
      threads=*) tcell=${_f#*=} ;;
      *) echo "run.sh: harness/plan.py wrote a field run.sh does not know: $_f" >&2; exit 1 ;;
    esac
  done
  [ -n "$kind" ] && [ -n "$s" ] && [ -n "$g" ] || { echo "run.sh: harness/plan.py wrote a line without its kind, scenario or group: $1" >&2; exit 1; }
  [ "$args" != - ] || args=''
  [ "$env" != - ] || env=''
  [ "$limit" != - ] || limit=''
}

# minutes S: S seconds as "40 s", "12 min" or "2 h 05 min".
minutes() {
  local m=$((($1 + 59) / 60))
  if [ "$1" -lt 60 ]; then printf '%d s' "$1"; elif [ "$m" -ge 60 ]; then printf '%d h %02d min' $((m / 60)) $((m % 60)); else printf '%d min' "$m"; fi
}

# run_plan PLAN: runs PLAN's lines in order, into the table's rows ($work/rows), the charts' bars
# and points and the section's notes. A line of a group that was not built (a toolchain missing, a
# JDK too old) is passed over; a group whose build failed gets a row that says so (in a sweep, one
# for the series). A sweep's series keeps its baseline, the max RSS at N = 1, for the memory guard
# and bytes/task, and stops after a timeout: a program that could not finish at N will not at 10 N.
run_plan() {
  local line kind s g prog n tcell args env runs limit variant label flags state runtime name v base='' base_ref=''
  local sbase='' sbase_ref='' last_n='' last_rss='' stop='' points chart_notes row_k=0
  while IFS= read -r line <&3; do
    # The plan line's number: with the sitting, what its records and its table row are known by.
    row_k=$((row_k + 1)) row_ref=''
    read_config "$line"
    state_of_to state "$g"
    case $state in ok | "build failed"*) ;; *) continue ;; esac
    runtime=''
    [ -z "$peers" ] || runtime_label_to runtime "$g"
    label=${label//@R@/"$runtime"}
    if [ "$kind" = limit ]; then
      variant=${variant//@R@/"$runtime"}
      grep -qxF -- "$variant" "$pw/limits" || echo "$variant" >>"$pw/limits"
      continue
    fi
    case " $flags " in *" capped "*) capped=yes ;; esac
    case " $flags " in *" threads_capped "*) threads_capped=yes ;; esac
    if [ "$g" != ours ]; then
      [ ! -f "$pw/$prog.caveat" ] || variant="$variant$(cat "$pw/$prog.caveat")"
      prog=$pb/bin/$prog
    fi
    if [ "$state" != ok ]; then
      # A build that failed: one row; in a sweep, at the series' first point, for all its N.
      [ "$kind" != point ] || point_done "$label" "$n" "$state"
      case $kind in point) case " $flags " in *" first "*) n=$(echo "$sweep_ns" | tr ' ' ',') kind=row ;; esac ;; esac
      if [ "$kind" = row ]; then
        write_row "$s" "$runtime" "$variant" "$n" "$tcell" "$state" '' ''
        failures=$((failures + 1))
      fi
      continue
    fi
    time_limit=$limit run_env=$env
    name="${runtime:+$runtime }$s${args:+ $args}${env:+ $env}"
    runtime_label_to v "$g"
    rec_config=''
    json_add_to rec_config kind "$kind" string
    json_add_to rec_config scenario "$s" string
    json_add_to rec_config runtime "$v" string
    json_add_to rec_config variant "$variant" string
    json_add_to rec_config threads "$tcell" string
    json_add_to rec_config label "$label" string
    json_add_to rec_config row "$row_k"
    points=$work/points${peers:+.$s} chart_notes=$work/chart_notes${peers:+.$s}
    case $kind in
      base)
        measure_config "$line" "$g" "$s" "$prog" 1 "$args" 1
        base_ref=$row_ref
        if [ -n "$why" ]; then
          echo "run.sh: $name N=1: $why" >&2
          base="N=1 $why" failures=$((failures + 1))
        else
          base=$best_rss
        fi ;;
      row)
        measure_config "$line" "$g" "$s" "$prog" "$n" "$args" "$runs"
        if [ -n "$why" ]; then
          echo "run.sh: $name: $why" >&2
          write_row "$s" "$runtime" "$variant" "$n" "$tcell" "$why" "$base" "$base_ref"
          failures=$((failures + 1))
        else
          write_row "$s" "$runtime" "$variant" "$n" "$tcell" '' "$base" "$base_ref"
          if [ -n "$peers" ]; then
            # A bar of the scenario's chart; one that held fewer than N tasks at once says so.
            alive_cell_to v "$best_summary"
            all_alive=yes
            case $v in no*) all_alive=no ;; esac
            mib_to v "$best_rss"
            printf '%s\t%s\t-\t%s\n' "$label" "$v" "$all_alive" >>"$work/bars.$s"
            peer_facts "$runtime"
          fi
        fi
        base='' base_ref='' ;;
      point)
        case " $flags " in *" first "*) sbase='' sbase_ref='' last_n='' last_rss='' stop='' ;; esac
        why=$stop
        # The guard estimates from the series' N = 1 (none: from nothing) and its last N; in a
        # replication, until the series has one, from the same row's points in its other groups.
        [ -n "$why" ] || [ -z "$last_n" ] || guard "$n" "${sbase:-0}" "$last_n" "$last_rss" || :
        [ -n "$why" ] || [ -n "$last_n" ] || [ -z "$replicate" ] || replicate_guard "$label" "$n"
        if [ -n "$why" ]; then # not run: the guard, or a timeout at a smaller N
          echo "run.sh: $label N=$n: $why" >&2
          write_row "$s" "$runtime" "$variant" "$n" "$tcell" "$why" "$sbase" "$sbase_ref"
          echo "$label at N=$n: $why" >>"$chart_notes"
          point_done "$label" "$n" "$why"
          done_runs=$((done_runs + runs))
          continue
        fi
        measure_config "$line" "$g" "$s" "$prog" "$n" "$args" "$runs"
        point_done "$label" "$n" "$why" "$row_ref"
        if [ -n "$why" ]; then
          echo "run.sh: $label N=$n: $why" >&2
          write_row "$s" "$runtime" "$variant" "$n" "$tcell" "$why" "$sbase" "$sbase_ref"
          failures=$((failures + 1))
          echo "$label at N=$n: $why" >>"$chart_notes"
          case $why in "timed out"*) stop="not run: it timed out at N=$n" ;; esac
        else
          write_row "$s" "$runtime" "$variant" "$n" "$tcell" '' "$sbase" "$sbase_ref"
          v=$best_rss
          if [ "$n" -eq 1 ]; then sbase=$v sbase_ref=$row_ref; else last_n=$n last_rss=$v; fi
          mib_to v "$v"
          printf '%s\t%s\t%s\n' "$label" "$n" "$v" >>"$points"
          [ -z "$peers" ] || peer_facts "$runtime"
        fi ;;
      skip)
        echo "$label: N=$(echo "$n" | sed 's/,/, /g') not run, above THREAD_CAP=$THREAD_CAP (raise THREAD_CAP to run them)" >>"$work/notes"
        for n in $(echo "$n" | tr ',' ' '); do point_done "$label" "$n" "not run: above THREAD_CAP=$THREAD_CAP, a thread per task"; done ;;
    esac
  done 3<"$1"
  time_limit='' run_env=''
}

# check_results FILE: FILE is a regular file or absent, in a directory run.sh can write in, before
# anything is built or measured: a run that cannot write its section is no run. The directory is
# probed with a file of run.sh's own (root passes every mode check, but not a read-only mount).
check_results() {
  local dir
  dir_of_to dir "$1"
  [ -d "$dir" ] || bad "RESULTS directory $dir does not exist"
  [ ! -L "$1" ] || bad "RESULTS must be a regular file, not a symbolic link: $1"
  [ ! -e "$1" ] || [ -f "$1" ] || bad "RESULTS must be a regular file (or absent), and $1 is not one"
  [ ! -e "$1" ] || [ -w "$1" ] || bad "RESULTS is not writable: $1"
  can_write_in "$dir" || bad "cannot write in $dir, where RESULTS is ($1): run.sh writes the new RESULTS there"
}
# check_store FILE: the store is a regular file or absent, not RESULTS under another name, and
# run.sh can append to it or create it.
check_store() {
  local dir rdir
  dir_of_to dir "$1"
  dir_of_to rdir "$RESULTS"
  [ -d "$dir" ] || bad "STORE directory $dir does not exist"
  [ ! -e "$1" ] || [ -f "$1" ] || bad "STORE must be a regular file (or absent), and $1 is not one"
  [ "$(cd "$dir" && pwd -P)/${1##*/}" != "$(cd "$rdir" && pwd -P)/${RESULTS##*/}" ] ||
    bad "STORE and RESULTS are one file ($1): the records go in a file of their own"
  [ ! -e "$1" ] || [ -w "$1" ] || bad "STORE is not writable: $1"
  [ -e "$1" ] || can_write_in "$dir" || bad "cannot write in $dir, where STORE is ($1)"
}
# mend_store FILE: a last record cut short (a run.sh killed as it wrote) is dropped, or the next
# record would be appended to it and both lost. Under the lock: no other run.sh is writing it.
mend_store() {
  local new dir
  [ -s "$1" ] && [ -n "$(tail -c 1 "$1")" ] || return 0
  dir_of_to dir "$1"
  new=$(mktemp "$dir/.store.XXXXXX") && cp -p "$1" "$new" && head -n "$(wc -l <"$1")" "$1" >"$new" && mv -f "$new" "$1" ||
    { rm -f "${new:-}"; echo "run.sh: cannot drop the record cut short at the end of $1 (cp, head or mv failed)" >&2; exit 1; }
  echo "run.sh: $1 ended in a record cut short (a run.sh killed as it wrote): dropped it" >&2
}
# check_charts DIR: the charts directory, where a chart will be drawn, is one run.sh can write in
# (absent, it is made in RESULTS's directory, which check_results probed).
check_charts() {
  [ -e "$1" ] || return 0
  [ -d "$1" ] || bad "charts go in $1, which is not a directory"
  can_write_in "$1" || bad "cannot write in $1, where the charts go"
}
# can_write_in DIR: a file can be made in DIR (it is removed again).
can_write_in() { local f; f=$(mktemp "$1/.run_sh.XXXXXX" 2>/dev/null) && rm -f "$f"; }

# append_section FILE...: RESULTS with FILE... appended, written as a new copy beside it and renamed
# over it, so that a disk that fills, a failed write or a kill leaves RESULTS byte for byte as it was.
append_section() {
  local new dir
  dir_of_to dir "$RESULTS"
  new=$(mktemp "$dir/.RESULTS.XXXXXX" 2>/dev/null) || return 1
  if { if [ -e "$RESULTS" ]; then cp -p "$RESULTS" "$new"; else chmod "$(printf '%o' $((0666 & ~$(umask))))" "$new"; fi; } &&
    cat "$@" >>"$new" && mv -f "$new" "$RESULTS"; then
    return 0
  fi
  rm -f "$new"
  return 1
}

# One run.sh measures on a machine at a time: two at once spoil each other's numbers. The lock is a
# directory at one path outside every checkout (mkdir is atomic, with BSD tools too), holding its
# owner's pid and command line. Only the tests set BENCH_TEST_LOCK, so they can run beside a benchmark.
lock_dir=${BENCH_TEST_LOCK:-/tmp/bench-run.lock} lock_held=
# runs_run_sh PID: PID is a run.sh still running (ps, where it is; a reused PID is another program).
runs_run_sh() {
  if command -v ps >/dev/null 2>&1; then ps -p "$1" -o command= 2>/dev/null | grep -q 'run\.sh'; else kill -0 "$1" 2>/dev/null; fi
}
# take_lock COMMAND_LINE: takes the lock, or refuses (exit 2) naming the run.sh that holds it; a lock
# whose owner no longer runs (a run that was killed) is taken over, with a note.
take_lock() {
  local owner pid i=0
  while ! mkdir "$lock_dir" 2>/dev/null; do
    owner=$(cat "$lock_dir/owner" 2>/dev/null)
    if [ -z "$owner" ] && [ "$i" -lt 20 ]; then i=$((i + 1)); sleep 0.1; continue; fi  # being taken now
    pid=${owner%% *}
    if [ -n "$pid" ] && runs_run_sh "$pid"; then
      bad "another run.sh is measuring on this machine (pid $pid: ${owner#* }); two at once spoil each other's numbers, so wait for it (the lock: $lock_dir)"
    fi
    echo "run.sh: the lock $lock_dir was left by a run.sh that no longer runs (pid ${pid:-unknown}); taking it over" >&2
    rm -rf "$lock_dir"
    mkdir "$lock_dir" 2>/dev/null || bad "another run.sh took the lock $lock_dir just now"
    break
  done
  printf '%s %s\n' "$$" "$1" >"$lock_dir/owner" || bad "cannot write $lock_dir/owner"
  lock_held=yes
}
# release_lock: gives the lock back, if this run.sh holds it.
release_lock() {
  [ -n "$lock_held" ] || return 0
  local owner=''
  { read -r owner _ <"$lock_dir/owner"; } 2>/dev/null
  [ "$owner" != "$$" ] || rm -rf "$lock_dir"
  lock_held=
}

# The machine's limits for the heading and the charts: cores_text ("2", or "4 (affinity 4 of 16
# online; cgroup CPU quota 2.0)") and mem_text ("23.5 GiB (cgroup limit 8.0 GiB)"). The core count
# is the CPUs this process may run on.
machine_limits() {
  local online allowed quota limit extra='' k v
  online=$(getconf _NPROCESSORS_ONLN 2>/dev/null)
  allowed=''
  { while read -r k v; do [ "$k" != Cpus_allowed_list: ] || { [ -z "$v" ] || cpus_in_to allowed "$v"; break; }; done <"/proc/$$/status"; } 2>/dev/null
  { read -r quota && read -r limit; } <<LIMITS
$(cgroup_limits | awk '$1 == "cpu" { q = $2 } $1 == "memory" { l = sprintf("%.1f", $3 / 1048576) } END { print q; print l }')
LIMITS
  cores_text=${allowed:-$online}
  [ -z "$allowed" ] || [ -z "$online" ] || [ "$allowed" -ge "$online" ] || extra="affinity $allowed of $online online"
  [ -z "$quota" ] || extra="${extra:+$extra; }cgroup CPU quota $quota"
  cores_text="$cores_text${extra:+ ($extra)}"
  mem_text="${mem:-unknown} GiB${limit:+ (cgroup limit $limit GiB)}"
}

# cpus_in_to VAR LIST: how many CPUs a list such as "0-3,8,10-11" names.
cpus_in_to() {
  local _c=0 _part IFS=,
  for _part in $2; do
    case $_part in *-*) _c=$((_c + ${_part#*-} - ${_part%-*} + 1)) ;; *[0-9]*) _c=$((_c + 1)) ;; esac
  done
  printf -v "$1" '%s' "$_c"
}

# in_main: this is run.sh's own shell, not a subshell ($$ is the main shell's pid in both). A sampler
# or watchdog killed right after it was forked can run the traps it inherited before bash resets
# them: there they must do nothing but end it, or its EXIT would remove the work directory.
in_main() {
  # BASHPID (bash 4 on) starts no process; bash 3.2 has none (one in its environment is a stray).
  if [ "${BASH_VERSINFO[0]}" -ge 4 ]; then [ "$BASHPID" = "$$" ]; else [ "$(exec sh -c 'echo $PPID')" = "$$" ]; fi
}

# The section: written in $work, and appended to RESULTS only at the end.

# peers_lines: the lines of a peers section before its table: the run's settings, the tools.
peers_lines() {
  [ "$PEERS" = "$peer_names" ] || echo "- PEERS=$PEERS"
  if [ -z "$SLEEP_MS" ]; then
    echo "- sleep: $peers_sleep_ms ms (atomic_counter: 1000 ms per iteration), chosen to outlast spawning 1M tasks (the all alive column says whether it did); running_avg and hash_collect have none"
  else
    echo "- sleep: $SLEEP_MS ms; running_avg and hash_collect have none"
  fi
  prefixed '' "$pw/tools"
}

# peers_notes BYTES: the notes of a peers section after its table; BYTES ends the first one.
peers_notes() {
  echo "- bytes/task: (max RSS at N − max RSS at N=1) × 1024 / N, both from /usr/bin/time, the same way for every runtime, ours included (it is not our binaries' own bytes_per_task). $1"
  echo "- Every program gets N and the sleep (ours: --sleep-ms MS; a peer: PROGRAM N MS), or in running_avg and hash_collect the variant (ours: --sync V; a peer: PROGRAM N V), then the write-ups' variants it has, the same options for ours and for a peer (--start; atomic_counter's --hits, --mode, --spawn-from, --poll-ms, --burst, --burst-pause-ms), checks that every task completed and exits 1 otherwise. wall s is the whole process, start-up included."
  echo "- RSS at wait: the program's own resident set once every task exists and waits (its rss_wait_kib=, VmRSS from /proc/self/status), reported by every coro_timer and coro_shared program and by ours in every scenario; \"-\" where a program does not say."
  if [ -z "$THREADS" ]; then
    echo "- Threads: ours runs one event loop; each peer keeps its runtime's default ($peer_threads)."
  else
    echo "- Threads: each runtime at each T of THREADS=$THREADS, the threads column: $peer_knobs."
  fi
  [ -z "$threads_capped" ] || echo "- threads: every runtime ran min(N, THREAD_CAP=$THREAD_CAP) threads."
  case " $scenarios " in *" coro_timer "* | *" coro_shared "*)
    echo "- spawn s: ours, from the first spawn until every task waited (spawn and start_all, the binary's waiting_ms); a peer, until its spawn loop returned (its own spawn_ms; Python's and Boost.Asio's, until every task had begun its wait). all alive: the program's own count of tasks that had already ended by then (ended_at_spawn): \"no\" when any had, since their memory could be reused and the max RSS then understates the runtime; \"spawning outlasted the sleep\" when every task existed but the first were already due. A row that is not \"yes\" is no measure of N tasks waiting at once." ;;
  esac
  prefixed '- ' "$pw/limits" "$pw/notes" "$work/notes"
  prefixed '- not run: ' "$pw/missing"
  echo "- Peers built in PEERS_BUILD, outside this tree."
}

# table_notes: the notes under the run's table ($table).
table_notes() {
  case $table in
    plain) prefixed '- ' "$work/notes" ;;
    sweep)
      echo "- bytes/task from max RSS: (max RSS at N − max RSS at N=1) × 1024 / N, measured outside the binary, the same way for every program; the N=1 row is the baseline."
      echo "- bytes/task from binary: the binary's own bytes_per_task, (RSS at wait − RSS before the first task) × 1024 / N."
      prefixed '- ' "$work/notes" ;;
    peers) peers_notes "N=1 is one run; N is the run with the lowest wall time of RUNS, whose spread of max RSS the last column gives." ;;
    peers_sweep)
      peers_notes "Each program's N=1 row is its baseline; every row is the run with the lowest wall time of RUNS, whose spread of max RSS the last column gives."
      echo "- Charts: one per scenario, a line per runtime, ours drawn thicker with filled markers; memory on a log axis, so that 50 MiB and 2.5 GiB both read." ;;
  esac
  variant_notes | sed 's/^/- /'
}

# draw_chart POINTS NOTES NAME TITLE ALT [CHARTS.PY OPTION...]: draws POINTS (a sweep's series, or with
# -b the bars of a peers section) as $work/NAME.svg, NAME made unique against charts/ and the
# charts drawn before (in charts), and adds the section's line for it, or for why it was not
# drawn, to $work/chart_lines.
charts=
draw_chart() {
  local points=$1 notes=$2 name=$3 title=$4 alt=$5 i=1 f what
  shift 5
  if [ ! -s "$points" ]; then
    printf '%s\n\n' "Chart ($alt): not drawn, no run succeeded." >>"$work/chart_lines"
    return
  fi
  what=point
  case " $* " in *" -b "*) what=bar ;; esac
  if ! "$harness_py" -B harness/charts.py -t "$title" \
    -s "${cpu:-$(uname -m)}, $cores_text cores, $mem_text · ${os:-$os_kind}, $kernel · ${compiler:-unknown} · $when · commit $commit" \
    -y "max RSS (MiB)" \
    -n "Each $what: the process's max RSS as /usr/bin/time reports it, in the run with the lowest wall time of RUNS=$RUNS${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}${THREADS:+, THREADS=$THREADS}." \
    -n "$(prefixed '' "$work/notes" "$notes")" "$@" \
    "$points" >"$work/chart.svg" 2>"$work/chart.err"; then
    echo "run.sh: chart ($alt) not drawn, harness/charts.py failed: $(head -n 1 "$work/chart.err")" >&2
    printf '%s\n\n' "Chart ($alt): not drawn, harness/charts.py failed: $(head -n 1 "$work/chart.err")" >>"$work/chart_lines"
    return
  fi
  # Never overwrite an older sweep's chart: RESULTS links every one of them.
  f=$name.svg
  while [ -e "$chart_dir/$f" ] || case " $charts " in *" $f "*) true ;; *) false ;; esac; do
    i=$((i + 1)) f=$name-$i.svg
  done
  mv "$work/chart.svg" "$work/$f" || exit 1
  charts="${charts:+$charts }$f"
  echo "![$alt](charts/$f)" >>"$work/chart_lines"
  echo >>"$work/chart_lines"
}

# draw_charts: the run's charts: a bar chart per scenario under --peers (every runtime's max RSS at
# N, smallest first), a line chart per scenario under --sweep --peers, one for a sweep of ours.
draw_charts() {
  local s
  : >"$work/chart_lines"
  for s in $scenarios; do
    case $table in
      peers)
        [ -f "$work/bars.$s" ] || : >"$work/bars.$s"
        sort -t "$tab" -k2,2n "$work/bars.$s" >"$work/bars.sorted"
        draw_chart "$work/bars.sorted" /dev/null "peers-$stamp-$s" "Max RSS of N=$N tasks: $s" \
          "$s: max RSS (MiB) of each runtime at N=$N" -b -m "c++20 (this repo)" ;;
      replicate)
        # One chart for the section: the write-up's key figure, memory at its largest N.
        [ "$s" = "${scenarios%% *}" ] || continue
        # Bars that cannot be computed leave the chart out, not the section (its line says why).
        if ! { section_record >"$work/record" && render_record --bars >"$work/bars.sorted" 2>"$work/bars.err"; }; then
          echo "run.sh: chart of $rep_name not drawn: its bars could not be computed: $(tail -n 1 "$work/bars.err")" >&2
          : >"$work/bars.sorted"
        fi
        if [ -n "$quick" ]; then # at N / 10: nothing published stands beside it
          printf '%s\n' "--quick: N divided by 10, so no figure $rep_name published is shown." >"$work/chart_notes.rep"
          draw_chart "$work/bars.sorted" "$work/chart_notes.rep" "replicate-$stamp-$rep_name" \
            "Max RSS of N=${sweep_ns##* } tasks here (--quick): $rep_name" \
            "$rep_name: max RSS (MiB) of each runtime at N=${sweep_ns##* } (--quick), measured here" -b -m "c++20 (this repo)"
        else
          printf '%s\n' "A hollow diamond: the figure $rep_name published for that runtime, in MiB as it defined its unit." >"$work/chart_notes.rep"
          draw_chart "$work/bars.sorted" "$work/chart_notes.rep" "replicate-$stamp-$rep_name" \
            "Max RSS of N=${sweep_ns##* } tasks, here and as published: $rep_name" \
            "$rep_name: max RSS (MiB) of each runtime at N=${sweep_ns##* }, measured here, and as published" -b -m "c++20 (this repo)"
        fi ;;
      peers_sweep)
        [ -f "$work/points.$s" ] || : >"$work/points.$s"
        [ -f "$work/chart_notes.$s" ] || : >"$work/chart_notes.$s"
        draw_chart "$work/points.$s" "$work/chart_notes.$s" "sweep-$stamp-$s" "Max RSS against concurrent tasks: $s" \
          "$s: max RSS (MiB) against task count, one line per runtime" -m "c++20 (this repo)" -l ;;
    esac
  done
  [ "$table" != sweep ] || draw_chart "$work/points" "$work/chart_notes" "sweep-$stamp" "Max RSS against concurrent tasks" \
    "Max RSS (MiB) against task count, one line per scenario"
}

# write_section: the section, in $work/section: its heading, the machine, the settings (and the
# peers' tools), the charts, the table and its notes.
write_section() {
  local ns set
  if [ "$table" = replicate ]; then
    replicate_head
  else
    if [ -n "$sweep" ]; then ns="N=$(echo "$sweep_ns" | tr ' ' ',')" set="SWEEP=$sweep_ns"; else ns="N=$N" set="N=$N"; fi
    table_notes >"$work/table_notes"
    {
      echo "## $when — ${peers:+peers }${sweep:+sweep }$ns, RUNS=$RUNS$(mode_settings)"
      echo
      prefixed '' "$work/machine"
      echo "- $set, $settings"
      [ -z "$peers" ] || peers_lines
      echo
      prefixed '' "$work/chart_lines"
    } >"$work/head"
  fi
  # The tables come from the store: this section's record, then its figures from the run records.
  section_record >"$work/record" || { echo "run.sh: cannot write $work/record (a full disk?); $RESULTS left unchanged" >&2; exit 1; }
  if ! render_record >"$work/section"; then
    # The figures are in the store: its record too, so that --render can give the section later.
    cat "$work/record" >>"$STORE" &&
      echo "run.sh: harness/render.py failed (above); $RESULTS left unchanged, the section's record is in $STORE: ./run.sh --render $run_id prints it" >&2 ||
      echo "run.sh: harness/render.py failed (above), and $STORE cannot be written: $RESULTS left unchanged" >&2
    exit 1
  fi
}

# section_record: the section's own record, one JSON line: its run and the sittings its rows came
# from, its heading and command, its charts, and for harness/render.py the section's text around
# its table (head, notes) and each row of the table (write_row).
section_record() {
  local v='' line sep part sitting
  json_add_to v run "$run_id" string
  json_add_to v heading "$when" string
  json_add_to v command "$command_line" string
  json_add_to v charts "${charts# }" string
  json_add_to v resumed "$resumed"
  v="$v,\"runs\":[\"$run_id\""
  for sitting in $sittings; do v="$v,\"$sitting\""; done
  printf '{"record":"section",%s],"kind":"%s"' "$v" "$table"
  for part in head rows table_notes; do
    [ -f "$work/$part" ] || continue
    printf ',"%s":[' "${part#table_}"
    sep=''
    while IFS= read -r line; do
      [ "$part" = rows ] || json_str_to line "$line"  # a row is JSON already
      printf '%s%s' "$sep" "$line"
      sep=,
    done <"$work/$part"
    printf ']'
  done
  [ "$table" != replicate ] || replicate_fields
  printf '}\n'
}

# render_record [--bars]: the section that the section's record ($work/record) describes, or a
# replication's chart's bars, computed by harness/render.py from the store and this sitting's own
# copy of its records.
render_record() { "$harness_py" -B harness/render.py --store "$STORE" --records "$work/records" --context "$work/record" "$@"; }

# check_variants: the settings' one check, of the environment's (variant_settings) and of a
# write-up's run and table lines (check_published): the first bad value exits 2. SLEEP_MS and the
# write-ups' variants: atomic_counter's HITS, MODE, SPAWN_FROM, POLL_MS, BURST and BURST_PAUSE_MS;
# running_avg's and hash_collect's START, a list of gated and eager. A value every program takes (C#
# counts bursts in an int, Node hits in a double's 53 bits), or none.
check_variants() {
  local st
  [ -z "$SLEEP_MS" ] || need_count SLEEP_MS "$SLEEP_MS"
  [ -z "$HITS" ] || { is_count "$HITS" && [ "$HITS" -le 9007199254740991 ]; } ||
    bad "HITS must be a whole number from 1 to 9007199254740991, got '$HITS'"
  case $MODE in '' | loop | once) ;; *) bad "MODE must be loop or once, got '$MODE'" ;; esac
  case $SPAWN_FROM in '' | main | task) ;; *) bad "SPAWN_FROM must be main or task, got '$SPAWN_FROM'" ;; esac
  [ -z "$POLL_MS" ] || { is_count "$POLL_MS" && [ "$POLL_MS" -le 86400000 ]; } ||
    bad "POLL_MS must be a whole number from 1 to 86400000, got '$POLL_MS'"
  [ -z "$BURST" ] || { is_count "$BURST" && [ "$BURST" -le 2147483647 ]; } ||
    bad "BURST must be a whole number from 1 to 2147483647, got '$BURST'"
  case $BURST_PAUSE_MS in '' | 0) ;; *) { is_count "$BURST_PAUSE_MS" && [ "$BURST_PAUSE_MS" -le 86400000 ]; } ||
    bad "BURST_PAUSE_MS must be a whole number from 0 to 86400000, got '$BURST_PAUSE_MS'" ;; esac
  [ -z "$BURST" ] || [ "$SPAWN_FROM" = task ] || bad "BURST needs SPAWN_FROM=task: the bursts are a spawning task's"
  [ -z "$BURST_PAUSE_MS" ] || [ -n "$BURST" ] || bad "BURST_PAUSE_MS needs BURST"
  for st in $START; do
    case $st in gated | eager) ;; *) bad "START must be gated, eager or both (\"gated eager\"), got '$START'" ;; esac
  done
}

# variant_settings: the write-ups' variants from the environment, checked (check_variants; bad
# values exit 2), START without repeats and numbers without leading zeros.
variant_settings() {
  HITS=${HITS:-} MODE=${MODE:-} SPAWN_FROM=${SPAWN_FROM:-} POLL_MS=${POLL_MS:-} BURST=${BURST:-}
  BURST_PAUSE_MS=${BURST_PAUSE_MS:-} START=${START:-}
  check_variants
  [ -z "$HITS" ] || [ -z "$sweep" ] || [ -n "$replicate" ] || bad "HITS is a target for one N: a sweep's atomic_counter stops at 10 x N hits"
  START=$(printf '%s\n' $START | awk '!seen[$0]++' | tr '\n' ' ')
  START=${START% }
  # Leading zeros go: the programs read 010 as ten, but a row should say 10.
  [ -z "$HITS" ] || HITS=$((10#$HITS))
  [ -z "$POLL_MS" ] || POLL_MS=$((10#$POLL_MS))
  [ -z "$BURST" ] || BURST=$((10#$BURST))
  [ -z "$BURST_PAUSE_MS" ] || BURST_PAUSE_MS=$((10#$BURST_PAUSE_MS))
}

# variant_notes: what the variants of the chosen scenarios did, a line each, for the notes.
variant_notes() {
  case " $scenarios " in *" atomic_counter "*)
    if [ "$MODE" = once ]; then
      echo "atomic_counter, once mode (MODE=once): each task sleeps once, increments the counter once and ends; the run ends when the monitor, polling every ${POLL_MS:-100} ms, has seen N hits, so wall s includes up to one poll after the last hit. HITS applies to loop mode only${HITS:+: HITS=$HITS was not passed}. Each program checks that the first hit came no earlier than one sleep after the start, and the last no earlier than one sleep after the last spawn."
    else
      echo "atomic_counter, loop mode: each task loops { counter++; sleep }, and the monitor, polling every ${POLL_MS:-100} ms, raises a stop flag at ${HITS:-10 × N} hits${HITS:+ (HITS)}, which each task sees when it next wakes; hits/s counts up to that poll. Each program checks that no task ended before the stop."
    fi
    [ "$SPAWN_FROM" != task ] || echo "atomic_counter, SPAWN_FROM=task: one task (a goroutine, a Task.Run, a tokio::spawn, an unawaited async function, our spawner coroutine) spawns the N while main only polls${BURST:+; it pauses ${BURST_PAUSE_MS:-1000} ms after every $BURST spawns (BURST, BURST_PAUSE_MS), but the last}; spawn s runs until the last spawn." ;;
  esac
  case " $scenarios " in *" running_avg "* | *" hash_collect "*)
    echo "running_avg, hash_collect: gated (START=gated, the default): every task exists before any runs, what N live tasks cost; eager (START=eager): each starts as it is spawned, as the 2023 programs' tasks do, what spawning N short tasks costs (ours: each spawn runs the ready tasks of its loop, so a task that ends gives its frame to the next). A program with one shape only (rayon's par_iter, Java's fixed pool) says \"one shape\" and runs once." ;;
  esac
}

# place_files: RESULTS and STORE as absolute paths, called from run.sh's directory with here set to
# where the user stands, whom a relative path is relative to. RESULTS.md lives beside run.sh, the
# store beside RESULTS (so that the tests' RESULTS keep their own). Set but empty is a mistake, not
# a request for the tracked files.
place_files() {
  [ "${RESULTS-unset}" != "" ] || bad "RESULTS is empty: unset it to append to RESULTS.md beside run.sh, or name a file"
  [ "${STORE-unset}" != "" ] || bad "STORE is empty: unset it to keep the records in results.jsonl beside RESULTS, or name a file"
  RESULTS=${RESULTS:-$PWD/RESULTS.md}
  case $RESULTS in /*) ;; *) RESULTS=$here/$RESULTS ;; esac
  STORE=${STORE:-${RESULTS%/*}/results.jsonl}
  case $STORE in /*) ;; *) STORE=$here/$STORE ;; esac
}

# need_python: python3 3.9 or newer, or exit 1 saying so: it plans every run, computes every
# section and chart from the store, and reads the write-ups' data files. harness_py is then the
# interpreter itself, not the python3 on PATH. A version manager's shim (a python3 in a directory
# named shims, as pyenv's and asdf's are) is tried after the next python3 on PATH: a call through it
# costs about ten process starts, and the harness needs only the standard library of any python3
# of 3.9 or newer. Every call runs with -B: the harness writes no bytecode into the tree.
need_python() {
  local rest=$PATH: d first='' shim='' py
  while [ -n "$rest" ]; do
    d=${rest%%:*} rest=${rest#*:}
    [ -x "${d:-.}/python3" ] && [ ! -d "${d:-.}/python3" ] || continue
    case /${d%/} in
      */shims) shim=${shim:-${d:-.}/python3} ;;
      *) first=${first:-${d:-.}/python3} ;;
    esac
    [ -z "$first" ] || [ -z "$shim" ] || break
  done
  for py in "$first" "$shim"; do
    [ -n "$py" ] || continue
    harness_py=$("$py" -c 'import sys; sys.exit(1) if sys.version_info < (3, 9) else print(sys.executable)' 2>/dev/null) &&
      [ -n "$harness_py" ] && return 0
  done
  echo "run.sh: python3 3.9 or newer is needed: each section's table is computed from the store with it (on Debian: apt-get install python3)" >&2
  exit 1
}

# Sourced: stop here, before any side effect.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -u
export LC_ALL=C # numbers with a decimal point, whatever the user's locale
unset CDPATH
command_line="$0${*:+ $*}" # for the lock: who holds it
# --export FORMAT [SECTION]: the store's records, for a spreadsheet or a plotting tool; --render
# SECTION: a section again, its table from the store's records. Nothing runs.
case ${1:-} in
  --export | --render)
    here=$PWD
    cd "$src_dir" || exit 1
    place_files
    [ "$1" = --export ] || [ $# -eq 2 ] || bad "usage: ./run.sh --render SECTION (its heading's time, as RESULTS prints it, or its run id)"
    need_python
    if [ "$1" = --export ]; then shift && exec "$harness_py" -B harness/store.py --store "$STORE" export "$@"; fi
    exec "$harness_py" -B harness/render.py --store "$STORE" --section "$2" ;;
esac
sweep='' peers='' plan_only='' replicate='' quick='' form="./run.sh N [scenario ...]"
# --plan, --sweep, --peers and --replicate lead, in any order.
while :; do
  case ${1:-} in
    --plan) [ -z "$plan_only" ] || bad "--plan is given twice"; plan_only=yes; shift ;;
    --sweep) [ -z "$sweep" ] || bad "--sweep is given twice"; sweep=yes; shift ;;
    --peers) [ -z "$peers" ] || bad "--peers is given twice"; peers=yes form="./run.sh --peers N [scenario ...]"; shift ;;
    --replicate) [ -z "$replicate" ] || bad "--replicate is given twice"; replicate=yes; shift ;;
    *) break ;;
  esac
done
# --replicate [NAME [--quick]]: a write-up's own configuration, so no N, scenario, --sweep or --peers.
if [ -n "$replicate" ]; then
  [ -z "$sweep$peers" ] || bad "--replicate runs a write-up's own configuration: no --sweep or --peers with it"
  need_python # it reads and checks the write-up's data file
  for arg in "$@"; do
    case $arg in
      -h | --help) usage; exit 0 ;;
      --quick) [ -z "$quick" ] || bad "--quick is given twice"; quick=yes ;;
      -*) bad "unknown option '$arg' (usage: ./run.sh --replicate [NAME [--quick]])" ;;
      *) [ -z "${rep_name:-}" ] || bad "--replicate takes one write-up, got '$rep_name' and '$arg'"; rep_name=$arg ;;
    esac
  done
  if [ -z "${rep_name:-}" ]; then
    [ -z "${TABLES:-}" ] || bad "TABLES picks tables of one write-up: ./run.sh --replicate NAME"
    [ -z "$quick$plan_only" ] || bad "--replicate needs a write-up's name with --quick or --plan (./run.sh --replicate lists them)"
    replicate_list
    exit 0
  fi
  set --
  peers=yes sweep=yes
fi
for arg in "$@"; do
  case $arg in
    -h | --help) usage; exit 0 ;;
    --sweep) bad "--sweep comes first (usage: ./run.sh --sweep [--peers] [scenario ...])" ;;
    --peers) bad "--peers comes first (usage: ./run.sh --peers N [scenario ...] or ./run.sh --sweep --peers [scenario ...])" ;;
    --plan) bad "--plan comes first (usage: ./run.sh --plan ARGS ...)" ;;
    --export | --render) bad "$arg comes first, alone (usage: ./run.sh --export csv|json [SECTION], ./run.sh --render SECTION)" ;;
    -*) bad "unknown option '$arg' (allowed: --plan, --sweep, --peers, --replicate [NAME [--quick]], --export, --render, --help; settings go in the environment, see --help)" ;;
  esac
done
[ -z "${TABLES:-}" ] || [ -n "$replicate" ] || bad "TABLES is for --replicate NAME: it picks which of a write-up's tables run"
if [ -n "$replicate" ]; then
  : # the N list is the write-up's (replicate_settings, below)
elif [ -n "$sweep" ]; then
  SWEEP=${SWEEP:-$default_sweep}
  sweep_ns=
  for n in $SWEEP; do
    need_count "SWEEP's N" "$n"
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
  need_count N "$1"
  N=$((10#$1))
  shift
fi
[ -z "$replicate" ] || replicate_settings "$rep_name"
RUNS=${RUNS:-5} THREAD_CAP=${THREAD_CAP:-10000} THREADS=${THREADS:-} SLEEP_MS=${SLEEP_MS:-}
need_count RUNS "$RUNS"
need_count THREAD_CAP "$THREAD_CAP"
for t in $THREADS; do
  { is_count "$t" && [ "$t" -le 1024 ]; } || bad "THREADS must be whole numbers from 1 to 1024, got '$THREADS'"
done
THREADS=$(echo $THREADS)  # one space between values
variant_settings
peers_settings

here=$PWD
cd "$src_dir" || exit 1
place_files

[ -n "$replicate" ] || scenarios=
for s in "$@"; do
  case " $all_scenarios " in *" $s "*) ;; *) bad "unknown scenario '$s' (allowed: $all_scenarios)" ;; esac
  [ -z "$peers" ] || case " $peer_scenarios " in *" $s "*) ;; *) bad "no peers for '$s' (--peers runs: $peer_scenarios)" ;; esac
  scenarios="$scenarios $s"
done
if [ $# -eq 0 ] && [ -z "$replicate" ]; then
  scenarios=$all_scenarios
  [ -z "$peers" ] || scenarios=$peer_scenarios
fi
[ -z "$peers" ] || peers_build_dir "$here"
table=plain
[ -z "$sweep" ] || table=sweep
[ -z "$peers" ] || table=peers${sweep:+_sweep}
[ -z "$replicate" ] || table=replicate
failures=0 capped='' threads_capped='' done_runs=0 planned=0 run_start='' why='' best_rss='' best_summary='' resumed=0 configs=0

# --plan: the plan, and nothing else: no build, no install, no network, no file written.
if [ -n "$plan_only" ]; then
  need_python
  plan_py listing || exit 1
  exit 0
fi

check_results "$RESULTS"
check_store "$STORE"
need_python
dir_of_to chart_dir "$RESULTS"
chart_dir=$chart_dir/charts
[ -z "$sweep$peers" ] || check_charts "$chart_dir"

# Everything temporary lives in one directory; RESULTS is only written by the last step, so an
# interrupted run leaves it exactly as it was.
work=$(mktemp -d "${TMPDIR:-/tmp}/run_sh.XXXXXX") || exit 1
job= watchdog= time_limit= sampler= run_env=
on_signal() {
  in_main || exit "$1"
  trap '' INT TERM HUP
  end_watchdog
  [ -z "$sampler" ] || kill "$sampler" 2>/dev/null
  # The timed job runs in its own process group: this stops time and the binary together.
  if [ -n "$job" ]; then kill -TERM -- "-$job" 2>/dev/null; wait "$job" 2>/dev/null; fi
  echo "run.sh: interrupted; $RESULTS left unchanged (the records of the runs that ended are in $STORE)" >&2
  exit "$1"
}
trap 'in_main && { rm -rf "$work"; release_lock; }' EXIT
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
take_lock "$command_line"
mend_store "$STORE"

if [ ! -x "$time_bin" ]; then
  if [ "$(id -u)" = 0 ] && have apt-get; then
    echo "run.sh: $time_bin is missing; installing the time package" >&2
    apt_install time >"$work/apt.log" 2>&1
  fi
  if [ ! -x "$time_bin" ]; then
    echo "run.sh: $time_bin is missing; install it with: sudo apt-get install time" \
      "(Debian/Ubuntu; macOS has it built in)" >&2
    exit 1
  fi
fi

started=$SECONDS
echo "run.sh: building with make" >&2
if ! make >"$work/make.log" 2>&1; then
  cat "$work/make.log" >&2
  echo "run.sh: make failed; nothing was run and $RESULTS is unchanged" >&2
  exit 1
fi

# How fast this machine hands out fresh memory, read once before the runs for the heading: it sets
# every runtime's spawn time and much of its sys time (tools/fault_rate.cpp).
fresh="not measured: tools/fault_rate was not built"
if [ -x tools/fault_rate ]; then
  if out=$(tools/fault_rate 2>&1); then
    fresh=$(printf '%s\n' "$out" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      END { if (v["first_mbps"] > 0 && v["second_mbps"] > 0 && v["mib"] > 0)
              printf "first touch %s MB/s, again %s MB/s (%s MiB, a write a page)", v["first_mbps"], v["second_mbps"], v["mib"] }')
    [ -n "$fresh" ] || fresh="not measured: tools/fault_rate printed '$(printf '%s' "$out" | head -n 1)'"
  else
    fresh="not measured: $(printf '%s' "$out" | head -n 1)"
  fi
fi

commit=$(git rev-parse --short HEAD 2>/dev/null) || commit=unknown
# RESULTS.md and the store change with every run, so they do not make the tree dirty.
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no -- . ':(exclude)RESULTS.md' ':(exclude)results.jsonl' 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
# A replication or a peers run keeps each configuration's result, so that a run stopped halfway
# resumes; only at a commit, whose code the results belong to. A replication's cache stays; a peers
# run's (keyed by its command line) goes once its section is written, so the next run measures anew.
rep_cache=
case $commit in
  unknown | *-dirty) ;;
  *)
    if [ -n "$replicate" ]; then
      # Each row's key holds its runtime's version, but ours is named alike by every compiler, and
      # two sources of one tokio alike: what it builds with that the plan does not show, as below.
      rep_cache=$pb/replicate/$commit/$rep_name-$(printf '%s\n' "${CXX:-}" "${PEERS_PATCH:-}" "${PEERS_DOTNET:-}" | cksum | cut -d' ' -f1)
    elif [ -n "$peers" ]; then
      # The key: the command and what it builds with that the plan does not show.
      rep_cache=$pb/resume/$commit/$(printf '%s\n' "$command_line" "${CXX:-}" "${PEERS_PATCH:-}" "${PEERS_DOTNET:-}" | cksum | cut -d' ' -f1)
    fi ;;
esac
[ -z "$rep_cache" ] || mkdir -p "$rep_cache" || bad "cannot create $rep_cache"
# The machine, as far as it can be told without root.
if [ "$os_kind" = Darwin ]; then
  os="$(sw_vers -productName) $(sw_vers -productVersion)"
  cpu=$(sysctl -n machdep.cpu.brand_string)
  mem=$(sysctl -n hw.memsize | awk '{ printf "%.1f", $1 / 1073741824 }')
else
  # Read by the shell itself (a process can take 7 ms to start): /etc/os-release's PRETTY_NAME,
  # its quotes off; the first model name in /proc/cpuinfo; MemTotal in GiB as %.1f rounds it.
  os='' cpu='' mem=''
  { while IFS= read -r line || [ -n "$line" ]; do case $line in PRETTY_NAME=*) os=${line#*=} os=${os//\"/} ;; esac; done </etc/os-release; } 2>/dev/null
  { while IFS= read -r line; do case $line in 'model name'*:*) cpu=${line#*: }; break ;; esac; done </proc/cpuinfo; } 2>/dev/null
  { while read -r k v rest; do [ "$k" != MemTotal: ] || { tenths_to mem "$v" 1048576; break; }; done </proc/meminfo; } 2>/dev/null
fi
# Only the tests set this: a CPU name full of metacharacters, which must come out as it is.
cpu=${BENCH_TEST_CPU:-$cpu}
make -s print-build >"$work/build" 2>/dev/null || : >"$work/build"
compiler='' flags=''
while IFS= read -r line || [ -n "$line" ]; do
  case $line in compiler=*) compiler=${line#compiler=} ;; flags=*) flags=${line#flags=} ;; esac
done <"$work/build"
machine_limits
kernel=$(uname -sr)
{
  echo "- commit: $commit"
  echo "- OS: ${os:-unknown}"
  echo "- kernel: $kernel"
  echo "- CPU: ${cpu:-$(uname -m)}"
  echo "- cores: $cores_text"
  echo "- memory: $mem_text"
  echo "- fresh memory: $fresh"
  echo "- compiler: ${compiler:-unknown}"
  echo "- flags: ${flags:-unknown}"
} >"$work/machine"
# Every record of this run begins alike: its run's id (the section's, once there is one), the
# commit, and the machine as the heading has it.
# The clock, read once: each record's date is counted on from it.
start_epoch=$(date -u '+%s') start_seconds=$SECONDS
case $start_epoch in '' | *[!0-9]*) start_epoch=0 ;; esac
utc_to run_id "$start_epoch"
run_id=${run_id//[-:]/}-$$ rec_head='' v='' sittings='' store_lost=0
json_add_to rec_head run "$run_id" string
json_add_to rec_head commit "$commit" string
json_add_to v os "${os:-unknown}" string
json_add_to v kernel "$kernel" string
json_add_to v cpu "${cpu:-$(uname -m)}" string
json_add_to v cores "$cores_text" string
json_add_to v memory "$mem_text" string
json_add_to v fresh_memory "$fresh" string
json_add_to v compiler "${compiler:-unknown}" string
json_add_to v flags "${flags:-unknown}" string
rec_head="$rec_head,\"machine\":{$v}"
: >"$work/rep"
# What --plan would have said, before the builds, to set beside the time the run takes.
est=$(plan_py estimate) || exit 1
read -r est_runs est_builds est_unbuilt <<EOF
$est
EOF
[ -n "$peers" ] || est_builds=0
[ -z "$peers" ] || prepare_peers
plan_py plan >"$work/plan" || exit 1
planned=$(count_runs "$work/plan") run_start=$SECONDS
: >"$work/rows"
: >"$work/points"
: >"$work/notes"
: >"$work/chart_notes"
command -v pgrep >/dev/null 2>&1 ||
  echo "avg RSS: not sampled, pgrep is missing (on Debian: apt-get install procps)" | tee -a "$work/notes" >&2
run_plan "$work/plan"
[ "$resumed" -eq 0 ] || [ -n "$replicate" ] ||
  echo "resumed: $resumed of the $configs configurations (the N=1 baselines among them) were measured by an earlier run of this command at commit $commit that was stopped, kept in PEERS_BUILD/resume" >>"$work/notes"
[ -z "$replicate" ] || replicate_here >"$work/rep.here"

# One reading of the clock for the heading and the chart's name.
when=$(date -u '+%Y-%m-%d %H:%M UTC|%Y%m%d-%H%M')
stamp=${when#*|} when=${when%|*}
settings="RUNS=$RUNS${capped:+, THREAD_CAP=$THREAD_CAP}${THREADS:+, THREADS=$THREADS}${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}$(mode_settings)"

draw_charts
write_section

# One append, shielded from signals, so RESULTS never holds half a section, and the charts are
# written only with the section that links them.
trap '' HUP INT TERM
copied=
for f in $charts; do
  if ! { mkdir -p "$chart_dir" && cp "$work/$f" "$chart_dir/$f"; }; then
    for c in $copied $f; do rm -f "${chart_dir:?}/$c"; done
    echo "run.sh: cannot write $chart_dir/$f; $RESULTS left unchanged, the section follows" >&2
    cat "$work/section"
    exit 1
  fi
  copied="$copied $f"
done
: >"$work/title"
[ -s "$RESULTS" ] || printf '# Results\n\nGenerated by run.sh, append-only: each run adds one section below.\n\n' >"$work/title"
if ! append_section "$work/title" "$work/section"; then
  for c in $copied; do rm -f "${chart_dir:?}/$c"; done
  echo "run.sh: cannot write $RESULTS (a full disk?): it is left as it was, and the section follows" >&2
  cat "$work/section"
  exit 1
fi
# The section's own record, now that RESULTS holds it.
cat "$work/record" >>"$STORE" ||
  { echo "run.sh: cannot append to the store $STORE: the section's record is lost" >&2; store_lost=$((store_lost + 1)); }
cat "$work/section"
echo "run.sh: appended to $RESULTS${charts:+; charts in $chart_dir: $charts}; every run's record in $STORE (run $run_id)" >&2
echo "run.sh: took $(minutes $((SECONDS - started))); estimated $(minutes $((est_runs + est_builds)))$([ "$resumed" -eq 0 ] || echo ", for the whole run: $resumed configurations were kept from an earlier one")" >&2
[ -n "$replicate" ] || [ -z "$rep_cache" ] || rm -rf "$rep_cache"
[ "$store_lost" -eq 0 ] || { echo "run.sh: $store_lost records could not be written to $STORE (see above)" >&2; exit 1; }
[ "$failures" -eq 0 ]
