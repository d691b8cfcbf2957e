#!/usr/bin/env bash
# run.sh: builds the scenarios, runs each one RUNS times under /usr/bin/time and appends the best
# run of each to RESULTS.md as one self-describing section (machine, compiler, one table).
# Run: ./run.sh N [scenario ...]   (./run.sh --help lists the environment variables)
#      ./run.sh --sweep [scenario ...]   every N in SWEEP, a table and an SVG chart (charts/svg.sh)
#      ./run.sh --peers N [scenario ...] ours and the other runtimes' programs in peers/, one table
#                                        (peers/peers.sh finds, builds and runs the other runtimes)
#      ./run.sh --sweep --peers [scenario ...]   both: every runtime at every N, a chart per scenario
# Sourcing it (`. ./run.sh`) only defines the functions, so tests can feed the parsers samples.
# Written for macOS's bash 3.2 and BSD tools too: no arrays, no GNU-only flags.

all_scenarios="threads coro_timer coro_shared atomic_counter running_avg hash_collect"
default_sweep="1 10000 100000 1000000"
time_bin=/usr/bin/time
case $(uname -s) in
  Darwin) time_flag=-l parse=parse_macos_time ;;
  *) time_flag=-v parse=parse_gnu_time ;;
esac

# The three tables' cells after a row's leading ones (scenario, variant or runtime, N): one name
# per column, see table_row. Their headers are written with the sections, at the end.
plain_columns="threads wall user sys spawn max_rss avg_rss rss_wait rss_avg own_bytes frame late spread"
sweep_columns="threads wall max_rss rss_wait per_task own_bytes frame late spread"
peers_columns="wall user sys max_rss avg_rss base per_task spawn alive hits spread"
peers_sweep_columns="wall user sys max_rss avg_rss per_task spawn alive hits spread"

# The other runtimes: peer_scenarios, peer_names, peers_usage, prepare_peers, peers_section_rows...
# shellcheck source=peers/peers.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/peers.sh" ||
  { echo "run.sh: cannot read $(dirname "${BASH_SOURCE[0]}")/peers/peers.sh" >&2; return 1 2>/dev/null; exit 1; }

usage() {
  cat <<EOF
usage: ./run.sh N [scenario ...]
       ./run.sh --sweep [scenario ...]
       ./run.sh --peers N [scenario ...]
       ./run.sh --sweep --peers [scenario ...]
  N         tasks (threads) per scenario: digits only, >= 1
  --sweep   runs every scenario at each N in SWEEP; the section gets a table of memory against N
            and links an SVG chart, written to charts/ beside RESULTS
  --peers   runs our binary and every other runtime's program in peers/ whose toolchain is
            installed (built in release mode in PEERS_BUILD), each at N and at N=1, into one table
            with a runtime column; scenarios: $peer_scenarios
  --sweep --peers
            every runtime at each N in SWEEP: one table, and a chart per scenario with a line per
            runtime (ours marked) on a log memory axis
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
One run.sh measures on a machine at a time: a second one refuses, naming the first (the lock is
/tmp/bench-run.lock; one left by a run that was killed is taken over).
  SWEEP="$default_sweep"
                      the task counts of --sweep; N=1 is always run, it is the baseline of bytes/task
EOF
  peers_usage
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
       END { sub(/^[ \t]+/, "", last); print last }' "$1"
}

# field KEY LINE: the value of KEY in a key=value summary line, "-" when absent.
field() {
  printf '%s\n' "$2" | awk -v k="$1" '{ v = "-"; for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) v = substr($i, length(k) + 2); print v }'
}

# mib KIB: KiB as MiB with one decimal ("-" stays "-").
mib() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.1f\n", k / 1024 }'; }

# escape TEXT: TEXT fit for a table cell: its pipes escaped.
escape() { printf '%s\n' "$1" | sed 's/|/\\|/g'; }

# is_count V: digits only, >= 1, and short enough for shell arithmetic.
is_count() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
  [ ${#1} -le 18 ] && [ $((10#$1)) -ge 1 ]
}

bad() { echo "run.sh: $*" >&2; exit 2; }

# per_task RSS_KIB BASE_KIB N: bytes per task measured from outside, (RSS − BASE) × 1024 / N, for
# any program: max RSS at N minus max RSS of the same program at N = 1.
per_task() { awk -v r="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f\n", (r - b) * 1024 / n }'; }

# sample_rss PID: while PID (time) lives, the resident set in KiB of the program it runs, one line
# every 100 ms: VmRSS from /proc on Linux, `ps -o rss=` elsewhere. It samples time's child, the
# program itself (peers' launchers exec theirs), not time.
sample_rss() {
  local child='' k v rest
  while kill -0 "$1" 2>/dev/null; do
    [ -n "$child" ] || child=$(pgrep -P "$1" 2>/dev/null | head -n 1)
    if [ -z "$child" ]; then
      :
    elif [ -r "/proc/$child/status" ]; then
      while read -r k v rest; do [ "$k" = VmRSS: ] && { echo "$v"; break; }; done 2>/dev/null <"/proc/$child/status"
    else
      ps -o rss= -p "$child" 2>/dev/null | tr -d ' '
    fi
    sleep 0.1
  done
}

# mean_kib FILE: the mean of the samples in FILE, in KiB; "-" with none (a run under 100 ms).
mean_kib() { awk '$1 ~ /^[0-9]+$/ { s += $1; n++ } END { if (n) printf "%.0f\n", s / n; else print "-" }' "$1"; }

# measure SCENARIO PROGRAM N OPTS [TIMES]: TIMES (default RUNS) timed runs of PROGRAM N OPTS. On
# success why is empty, best holds "wall_s user_s sys_s max_rss_kib avg_rss_kib summary" of the
# run with the lowest wall time and spread the min–max of max RSS over the runs in MiB; otherwise
# why says what failed. PROGRAM is a path, so a program that is not one of the scenarios here (a
# peer) is measured the same way. A summary line of another scenario, or whose completed= is not N, is a
# failure too. With time_limit (seconds) set, a run still going then is stopped, TERM and 5 s later
# KILL to its process group, and is a failure that says how far it got (its last stderr line).
# In the dry pass (planning) it only counts the runs it would make, in done_runs.
measure() {
  local first=$done_runs
  if [ -n "$planning" ]; then # the dry pass: count the runs, make none
    done_runs=$((done_runs + ${5:-$RUNS}))
    why='' best="0 0 0 0 - scenario=$1 completed=$3" spread=''
    return
  fi
  measure_runs "$@"
  done_runs=$((first + ${5:-$RUNS}))  # runs skipped after a failure count as done
}

# progress K: "K of PLANNED runs", and from the second run on the time left at the pace so far.
progress() {
  local now
  now=$(date +%s)
  awk -v k="$1" -v all="$planned" -v t="$((now - run_start))" 'BEGIN {
      line = k " of " all " runs"
      if (k > 1 && all >= k) {
        left = t / (k - 1) * (all - k + 1)
        if (left < 90) line = line sprintf(", about %d s left", left)
        else line = line sprintf(", about %d min left", (left + 30) / 60)
      }
      print line }'
}

measure_runs() {
  local i status t summary shown done_n times=${5:-$RUNS}
  why='' best='' spread=''
  : >"$work/runs"
  i=0
  while [ "$i" -lt "$times" ]; do
    i=$((i + 1))
    echo "run.sh: ${2##*/} $3${4:+ $4} (run $i/$times; $(progress "$((done_runs + i))"))" >&2
    # set -m gives the job its own process group, so on_signal can stop the binary too.
    set -m
    # env: run_env's VAR=value words (a peer's thread-count knob); env execs the program, so the
    # process time waits for, and sample_rss samples, is still the program itself.
    # shellcheck disable=SC2086 # OPTS and run_env are lists of plain words
    "$time_bin" "$time_flag" env $run_env "$2" "$3" $4 </dev/null >"$work/out" 2>"$work/err" &
    job=$!
    rm -f "$work/timed_out"
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
    if [ -f "$work/timed_out" ]; then
      why="timed out after $time_limit s"
      t=$(cat "$work/timed_out")
      [ -z "$t" ] || why="$why (last: $t)"
      return
    fi
    if [ "$status" -ne 0 ]; then
      why="failed (exit $status)"
      t=$(last_error "$work/err")
      [ -z "$t" ] || why="$why: $t"
      return
    fi
    if ! t=$($parse "$work/err"); then why="failed: $t"; return; fi
    summary=$(grep '^scenario=' "$work/out" | tail -n 1)
    [ -n "$summary" ] || { why="failed: no scenario= line on stdout"; return; }
    shown=$(field scenario "$summary")
    [ "$shown" = "$1" ] || { why="failed: it printed scenario=$shown"; return; }
    done_n=$(field completed "$summary")
    [ "$done_n" = - ] || [ "$done_n" = "$3" ] || { why="failed: completed=$done_n of $3"; return; }
    echo "$t $(mean_kib "$work/samples") $summary" >>"$work/runs"
  done
  best=$(sort -n -k1,1 "$work/runs" | head -n 1)
  spread=$(awk 'NR == 1 || $4 < lo { lo = $4 } $4 > hi { hi = $4 } END { printf "%.1f–%.1f", lo / 1024, hi / 1024 }' "$work/runs")
}

# end_watchdog: stops measure's watchdog, if one is waiting.
end_watchdog() {
  if [ -n "$watchdog" ]; then kill -- "-$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null; fi
  watchdog=
}

# best_rss: the max RSS in KiB of the run measure kept.
best_rss() { echo "$best" | awk '{ print $4 }'; }

# base_cell BASE N [RSS]: the cell of the max RSS at N = 1: BASE (KiB) in MiB; BASE itself when it
# says why there is none; without BASE, "RSS (this run)" when N is 1 and RSS is known, else "-".
base_cell() {
  case $1 in
    '') if [ "$2" -eq 1 ] && [ -n "${3:-}" ]; then echo "$(mib "$3") (this run)"; else echo -; fi ;;
    *[!0-9]*) escape "$1" ;;
    *) mib "$1" ;;
  esac
}

# table_row NAME SCENARIO PROGRAM N OPTS CELLS COLUMNS [BASE]: the row writer of all three tables.
# Measures PROGRAM N OPTS (the best of RUNS; its summary must be SCENARIO's) and appends a row to
# rows: CELLS (the leading cells as given, "a | b | c"), then a cell per name in COLUMNS:
#   threads own_bytes frame    the summary's threads=, bytes_per_task=, frame_bytes=
#   late                       the summary's late_max_ms= (ms; "-" for a program without timers)
#   wall user sys              seconds, from time
#   max_rss avg_rss            MiB: time's max RSS; the mean of run.sh's own 100 ms samples (sample_rss)
#   rss_wait rss_avg           MiB: the summary's rss_wait_kib and rss_avg_kib (the binary's own mean)
#   spread                     min–max of max RSS over the runs, MiB
#   base                       the max RSS at N = 1 (base_cell)
#   per_task                   bytes/task from outside, (max RSS − BASE) × 1024 / N; "-" without BASE
#   baseline                   the word: this row is the baseline of the others
#   spawn alive                s from the first spawn until every task waits (ours) or the spawn
#                              loop returned (a peer); whether all N were alive at once (alive_cell)
#   hits                       the summary's hits_per_s= (atomic_counter)
# BASE: the max RSS of the same program at N = 1 in KiB, or "run" to measure it first (one run).
# A failure is said on stderr, NAME saying whose, and gets a failed_row; table_row returns 1. On
# success best holds the run (best_rss).
table_row() {
  local name=$1 n=$4 cells=$6 columns=$7 base=${8:-} wall user sys rss summary line c v
  if [ "$base" = run ]; then
    measure "$2" "$3" 1 "$5" 1
    if [ -n "$why" ]; then
      echo "run.sh: $name N=1: $why" >&2
      base="N=1 $why"
      failures=$((failures + 1))
    else
      base=$(best_rss)
    fi
  fi
  measure "$2" "$3" "$n" "$5"
  if [ -n "$why" ]; then
    echo "run.sh: $name: $why" >&2
    failed_row "$cells" "$columns" "$why" "$base"
    return 1
  fi
  read -r wall user sys rss avg summary <<EOF
$best
EOF
  line="| $cells"
  for c in $columns; do
    case $c in
      threads) v=$(field threads "$summary") ;;
      own_bytes) v=$(field bytes_per_task "$summary") ;;
      frame) v=$(field frame_bytes "$summary") ;;
      late) v=$(field late_max_ms "$summary") ;;
      wall) v=$(printf '%.2f' "$wall") ;;
      user) v=$(printf '%.2f' "$user") ;;
      sys) v=$(printf '%.2f' "$sys") ;;
      max_rss) v=$(mib "$rss") ;;
      avg_rss) v=$(mib "$avg") ;;
      rss_wait) v=$(mib "$(field rss_wait_kib "$summary")") ;;
      rss_avg) v=$(mib "$(field rss_avg_kib "$summary")") ;;
      spread) v=$spread ;;
      base) v=$(base_cell "$base" "$n" "$rss") ;;
      per_task) case $base in '' | *[!0-9]*) v=- ;; *) v=$(per_task "$rss" "$base" "$n") ;; esac ;;
      baseline) v=baseline ;;
      spawn) v=$(spawn_s "$summary") ;;
      alive) v=$(alive_cell "$summary") ;;
      hits) v=$(field hits_per_s "$summary") ;;
      *) v="?$c" ;;
    esac
    line="$line | $v"
  done
  echo "$line |" >>"$work/rows"
}

# spawn_s SUMMARY: seconds from the first spawn until every task existed: our binaries'
# waiting_ms= (the spawn, then start_all), a peer's spawn_ms=; "-" when the program says neither,
# "?" and the value when it is no number.
spawn_s() {
  local ms
  ms=$(spawn_ms "$1")
  case $ms in
    -) echo - ;;
    *) awk -v ms="$ms" 'BEGIN { if (ms ~ /^[0-9]+([.][0-9]+)?$/) printf "%.2f\n", ms / 1000; else print "? " ms }' ;;
  esac
}

# spawn_ms SUMMARY: waiting_ms= if the summary has it, else spawn_ms=, else "-".
spawn_ms() {
  local ms
  ms=$(field waiting_ms "$1")
  [ "$ms" != - ] || ms=$(field spawn_ms "$1")
  echo "$ms"
}

# alive_cell SUMMARY: were all N tasks alive at once? From the program's own ended_at_spawn= (tasks
# that had already ended when the last one began to wait) and whether that spawning outlasted the
# sleep: "yes", "yes; spawning outlasted the sleep" (every task existed, but the first were already
# due), "no: E of N had ended", or "-" for a program that does not say.
alive_cell() {
  local e ms sl
  e=$(field ended_at_spawn "$1") sl=$(field sleep_ms "$1") ms=$(spawn_ms "$1")
  case $e in
    -) echo -; return ;;
    '' | *[!0-9]*) echo "? ended_at_spawn=$e"; return ;;
  esac
  if [ "$e" -gt 0 ]; then
    echo "no: $e of $(field n "$1") had ended"
  elif awk -v ms="$ms" -v sl="$sl" 'BEGIN { n = "^[0-9]+([.][0-9]+)?$"; exit !(ms ~ n && sl ~ n && ms + 0 > sl + 0) }'; then
    echo "yes; spawning outlasted the sleep"
  else
    echo yes
  fi
}

# failed_row CELLS COLUMNS WHY [BASE [SKIP]]: a row of CELLS that says WHY in its wall cell and "-"
# in the other cells of COLUMNS (a base cell still shows BASE); it counts as a failure, unless SKIP
# says the run was not made on purpose (the memory guard).
failed_row() {
  local line="| $1" c v
  for c in $2; do
    case $c in
      wall) v=$(escape "$3") ;;
      base) v=$(base_cell "${4:-}" 0) ;;
      *) v=- ;;
    esac
    line="$line | $v"
  done
  echo "$line |" >>"$work/rows"
  [ -n "${5:-}" ] || failures=$((failures + 1))
}

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
  local d
  {
    cgroup_dirs memory | while IFS= read -r d; do
      printf 'memory %s\t%s\t%s\t%s\n' "$d/memory.max" "$(cat "$d/memory.max" 2>/dev/null)" \
        "$(cat "$d/memory.current" 2>/dev/null)" "$(awk '$1 == "inactive_file" { print $2 }' "$d/memory.stat" 2>/dev/null)"
      printf 'memory %s\t%s\t%s\t%s\n' "$d/memory.limit_in_bytes" "$(cat "$d/memory.limit_in_bytes" 2>/dev/null)" \
        "$(cat "$d/memory.usage_in_bytes" 2>/dev/null)" "$(awk '$1 == "total_inactive_file" { print $2 }' "$d/memory.stat" 2>/dev/null)"
    done
    cgroup_dirs cpu | while IFS= read -r d; do
      printf 'cpu %s\t%s\n' "$(cat "$d/cpu.max" 2>/dev/null)" x
      printf 'cpu %s\t%s\n' "$(cat "$d/cpu.cfs_quota_us" 2>/dev/null)" "$(cat "$d/cpu.cfs_period_us" 2>/dev/null)"
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

# sweep_series SCENARIO LABEL CELLS PROGRAM OPTS COLUMNS [CAP]: one line of a sweep chart. PROGRAM N
# OPTS at every N of the sweep up to CAP: a table row per N in rows (CELLS with @N@ replaced by N,
# then COLUMNS; at N=1 the per_task cell says baseline) and a chart point (LABEL, N, max RSS MiB)
# per successful N in $points. N=1 comes first: its max RSS is the baseline of the rows after it.
# An N the memory guard refuses is not run and gets a row that says so (so do the larger N), and
# so do the N after one that timed out: a program that could not finish at N will not at 10 N.
# Any program that prints a summary line can be a series: ours, or another runtime's.
sweep_series() {
  local label=$2 cells=$3 columns n base='' skipped='' last_n='' last_rss='' stop=''
  for n in $sweep_ns; do
    # No silent cap here: a capped run would put a second point at the cap's N.
    if [ -n "${7:-}" ] && [ "$n" -gt "$7" ]; then skipped="${skipped:+$skipped, }$n"; continue; fi
    columns=$6
    [ "$n" -ne 1 ] || columns=${6/per_task/baseline}
    why=$stop
    [ -n "$why" ] || [ -z "$last_n" ] || guard "$n" "$base" "$last_n" "$last_rss" || :
    if [ -n "$why" ]; then
      echo "run.sh: $label N=$n: $why" >&2
      failed_row "${cells/@N@/$n}" "$columns" "$why" "$base" skip
      echo "$label at N=$n: $why" >>"$chart_notes"
      continue
    fi
    if table_row "$label N=$n" "$1" "$4" "$n" "$5" "${cells/@N@/$n}" "$columns" "$base"; then
      if [ "$n" -eq 1 ]; then
        base=$(best_rss)
      elif [ -n "$base" ]; then
        last_n=$n last_rss=$(best_rss)
      fi
      printf '%s\t%s\t%s\n' "$label" "$n" "$(mib "$(best_rss)")" >>"$points"
    else
      echo "$label at N=$n: $why" >>"$chart_notes"
      case $why in "timed out"*) stop="not run: it timed out at N=$n" ;; esac
    fi
  done
  if [ -n "$skipped" ]; then
    echo "$label: N=$skipped not run, above THREAD_CAP=$7 (raise THREAD_CAP to run them)" >>"$work/notes"
  fi
}

# check_results FILE: FILE is a regular file or absent, in a directory run.sh can write in, before
# anything is built or measured: a run that cannot write its section is no run. The directory is
# probed with a file of run.sh's own (root passes every mode check, but not a read-only mount).
check_results() {
  local dir
  dir=$(dirname "$1")
  [ -d "$dir" ] || bad "RESULTS directory $dir does not exist"
  [ ! -L "$1" ] || bad "RESULTS must be a regular file, not a symbolic link: $1"
  [ ! -e "$1" ] || [ -f "$1" ] || bad "RESULTS must be a regular file (or absent), and $1 is not one"
  [ ! -e "$1" ] || [ -w "$1" ] || bad "RESULTS is not writable: $1"
  can_write_in "$dir" || bad "cannot write in $dir, where RESULTS is ($1): run.sh writes the new RESULTS there"
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
  local new
  new=$(mktemp "$(dirname "$RESULTS")/.RESULTS.XXXXXX" 2>/dev/null) || return 1
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
  [ "$(cut -d' ' -f1 "$lock_dir/owner" 2>/dev/null)" != "$$" ] || rm -rf "$lock_dir"
  lock_held=
}

# The machine's limits for the heading and the charts: cores_text ("2", or "4 (affinity 4 of 16
# online; cgroup CPU quota 2.0)") and mem_text ("23.5 GiB (cgroup limit 8.0 GiB)"). The core count
# is the CPUs this process may run on.
machine_limits() {
  local online allowed quota limit extra=''
  online=$(getconf _NPROCESSORS_ONLN 2>/dev/null)
  allowed=$(awk '/^Cpus_allowed_list:/ { n = split($2, r, ","); for (i = 1; i <= n; i++) { k = split(r[i], ab, "-"); c += k == 2 ? ab[2] - ab[1] + 1 : 1 } print c }' "/proc/$$/status" 2>/dev/null)
  quota=$(cgroup_limits | awk '$1 == "cpu" { print $2 }')
  limit=$(cgroup_limits | awk '$1 == "memory" { printf "%.1f", $3 / 1048576 }')
  cores_text=${allowed:-$online}
  [ -z "$allowed" ] || [ -z "$online" ] || [ "$allowed" -ge "$online" ] || extra="affinity $allowed of $online online"
  [ -z "$quota" ] || extra="${extra:+$extra; }cgroup CPU quota $quota"
  cores_text="$cores_text${extra:+ ($extra)}"
  mem_text="${mem:-unknown} GiB${limit:+ (cgroup limit $limit GiB)}"
}

# in_main: this is run.sh's own shell, not a subshell ($$ is the main shell's pid in both). A sampler
# or watchdog killed right after it was forked can run the traps it inherited before bash resets
# them: there they must do nothing but end it, or its EXIT would remove the work directory.
in_main() { [ "$(exec sh -c 'echo $PPID')" = "$$" ]; }

# Sourced: stop here, before any side effect.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -u
export LC_ALL=C # numbers with a decimal point, whatever the user's locale
unset CDPATH
command_line="$0${*:+ $*}" # for the lock: who holds it
sweep='' peers='' form="./run.sh N [scenario ...]"
# --sweep and --peers lead, in either order.
while :; do
  case ${1:-} in
    --sweep) [ -z "$sweep" ] || bad "--sweep is given twice"; sweep=yes; shift ;;
    --peers) [ -z "$peers" ] || bad "--peers is given twice"; peers=yes form="./run.sh --peers N [scenario ...]"; shift ;;
    *) break ;;
  esac
done
for arg in "$@"; do
  case $arg in
    -h | --help) usage; exit 0 ;;
    --sweep) bad "--sweep comes first (usage: ./run.sh --sweep [--peers] [scenario ...])" ;;
    --peers) bad "--peers comes first (usage: ./run.sh --peers N [scenario ...] or ./run.sh --sweep --peers [scenario ...])" ;;
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
for t in $THREADS; do
  { is_count "$t" && [ "$t" -le 1024 ]; } || bad "THREADS must be whole numbers from 1 to 1024, got '$THREADS'"
done
THREADS=$(echo $THREADS)  # one space between values
[ -z "$SLEEP_MS" ] || is_count "$SLEEP_MS" || bad "SLEEP_MS must be a whole number >= 1, got '$SLEEP_MS'"
peers_settings

# A relative RESULTS is relative to where the user stands; the default lives beside run.sh.
here=$PWD
cd "$(dirname "$0")" || exit 1
RESULTS=${RESULTS:-$PWD/RESULTS.md}
case $RESULTS in /*) ;; *) RESULTS=$here/$RESULTS ;; esac
check_results "$RESULTS"

scenarios=
for s in "$@"; do
  case " $all_scenarios " in *" $s "*) ;; *) bad "unknown scenario '$s' (allowed: $all_scenarios)" ;; esac
  [ -z "$peers" ] || case " $peer_scenarios " in *" $s "*) ;; *) bad "no peers for '$s' (--peers runs: $peer_scenarios)" ;; esac
  scenarios="$scenarios $s"
done
if [ $# -eq 0 ]; then
  scenarios=$all_scenarios
  [ -z "$peers" ] || scenarios=$peer_scenarios
fi
[ -z "$peers" ] || peers_build_dir "$here"
chart_dir=$(dirname "$RESULTS")/charts
[ -z "$sweep$peers" ] || check_charts "$chart_dir"

# Everything temporary lives in one directory; RESULTS is only written by the last step, so an
# interrupted run leaves it exactly as it was.
work=$(mktemp -d "${TMPDIR:-/tmp}/run_sh.XXXXXX") || exit 1
job= watchdog= time_limit= sampler= run_env= planning= done_runs=0 planned=0 run_start=
on_signal() {
  in_main || exit "$1"
  trap '' INT TERM HUP
  end_watchdog
  [ -z "$sampler" ] || kill "$sampler" 2>/dev/null
  # The timed job runs in its own process group: this stops time and the binary together.
  if [ -n "$job" ]; then kill -TERM -- "-$job" 2>/dev/null; wait "$job" 2>/dev/null; fi
  echo "run.sh: interrupted; $RESULTS left unchanged" >&2
  exit "$1"
}
trap 'in_main && { rm -rf "$work"; release_lock; }' EXIT
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
take_lock "$command_line"

if [ ! -x "$time_bin" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "run.sh: $time_bin is missing; installing the time package" >&2
    # A fresh image has no package lists yet: update only when the plain install fails.
    { DEBIAN_FRONTEND=noninteractive apt-get install -y time ||
      { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y time; }; } >"$work/apt.log" 2>&1
  fi
  if [ ! -x "$time_bin" ]; then
    echo "run.sh: $time_bin is missing; install it with: sudo apt-get install time" \
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

# all_rows: every row of the table, through table_row (sweeps: sweep_series) and measure.
all_rows() {
  if [ -n "$peers" ]; then
    peers_section_rows
    return
  fi
  for s in $scenarios; do
    # Each scenario gets only the options it accepts (threads: no --threads; no sleep in the last two).
    variants=- sleep=$SLEEP_MS threads_list=${THREADS:--} cap=
    case $s in
      threads) threads_list=- cap=$THREAD_CAP capped=yes ;;
      running_avg | hash_collect) sleep='' variants="mutex channel" ;;
    esac
    for t in $threads_list; do for v in $variants; do
      o='' series=$v
      [ "$v" = - ] || o="--sync $v"
      [ -z "$sleep" ] || o="${o:+$o }--sleep-ms $sleep"
      [ "$t" = - ] || o="${o:+$o }--threads $t"
      # With several T, a sweep's line per T: the chart tells them apart by the variant.
      if [ "$t" != - ] && [ "$THREADS" != "$t" ]; then
        if [ "$v" = - ]; then series="threads=$t"; else series="$v, threads=$t"; fi
      fi
      if [ -n "$sweep" ]; then
        label=$s
        [ "$series" = - ] || label="$s ($series)"
        sweep_series "$s" "$label" "$s | $series | @N@" "./$s" "$o" "$sweep_columns" "$cap"
      elif [ -n "$cap" ] && [ "$N" -gt "$cap" ]; then
        table_row "$s${o:+ $o}" "$s" "./$s" "$cap" "$o" "$s | ${o:+$o }(capped at THREAD_CAP=$cap) | $cap" "$plain_columns"
      else
        table_row "$s${o:+ $o}" "$s" "./$s" "$N" "$o" "$s | ${o:--} | $N" "$plain_columns"
      fi
    done; done
  done
}

failures=0 capped= threads_capped= points=$work/points chart_notes=$work/chart_notes
[ -z "$peers" ] || prepare_peers
# A dry pass first counts the runs, so that each progress line can say how many are left.
planning=yes
all_rows
planning='' planned=$done_runs done_runs=0 run_start=$(date +%s) failures=0
rm -f "$work"/points* "$work"/chart_notes* "$work"/bars.* # the dry pass's
: >"$work/rows"
: >"$work/points"
: >"$work/notes"
: >"$work/chart_notes"
[ -z "$peers" ] || : >"$pw/limits"
command -v pgrep >/dev/null 2>&1 ||
  echo "avg RSS: not sampled, pgrep is missing (on Debian: apt-get install procps)" | tee -a "$work/notes" >&2
all_rows

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
# Only the tests set this: a CPU name full of metacharacters, which must come out as it is.
cpu=${BENCH_TEST_CPU:-$cpu}
commit=$(git rev-parse --short HEAD 2>/dev/null) || commit=unknown
# RESULTS.md itself changes with every run, so it does not make the tree dirty.
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no -- . ':(exclude)RESULTS.md' 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
make -s print-build >"$work/build" 2>/dev/null || : >"$work/build"
compiler=$(sed -n 's/^compiler=//p' "$work/build")
flags=$(sed -n 's/^flags=//p' "$work/build")
machine_limits
# One reading of the clock for the heading and the chart's name.
when=$(date -u '+%Y-%m-%d %H:%M UTC|%Y%m%d-%H%M')
stamp=${when#*|} when=${when%|*}
{
  echo "- commit: $commit"
  echo "- OS: ${os:-unknown}"
  echo "- kernel: $(uname -sr)"
  echo "- CPU: ${cpu:-$(uname -m)}"
  echo "- cores: $cores_text"
  echo "- memory: $mem_text"
  echo "- compiler: ${compiler:-unknown}"
  echo "- flags: ${flags:-unknown}"
} >"$work/machine"
settings="RUNS=$RUNS${capped:+, THREAD_CAP=$THREAD_CAP}${THREADS:+, THREADS=$THREADS}${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}"

# peers_lines: the lines of a peers section before its table: the run's settings, the tools.
peers_lines() {
  [ "$PEERS" = "$peer_names" ] || echo "- PEERS=$PEERS"
  if [ -z "$SLEEP_MS" ]; then
    echo "- sleep: $peers_sleep_ms ms (atomic_counter: 1000 ms per iteration), chosen to outlast spawning 1M tasks (the all alive column says whether it did); running_avg and hash_collect have none"
  else
    echo "- sleep: $SLEEP_MS ms; running_avg and hash_collect have none"
  fi
  cat "$pw/tools"
}

# peers_notes: the notes of a peers section after its table.
peers_notes() {
  echo "- bytes/task: (max RSS at N − max RSS at N=1) × 1024 / N, both from /usr/bin/time, the same way for every runtime, ours included (it is not our binaries' own bytes_per_task). $1"
  echo "- Every program gets N and the sleep (ours: --sleep-ms MS; a peer: PROGRAM N MS), or in running_avg and hash_collect the variant (ours: --sync V; a peer: PROGRAM N V), checks that every task completed and exits 1 otherwise. wall s is the whole process, start-up included."
  if [ -z "$THREADS" ]; then
    echo "- Threads: ours runs one event loop; each peer keeps its runtime's default ($peer_threads)."
  else
    echo "- Threads: each runtime at each T of THREADS=$THREADS, the threads column: $peer_knobs."
  fi
  [ -z "$threads_capped" ] || echo "- threads: every runtime ran min(N, THREAD_CAP=$THREAD_CAP) threads."
  case " $scenarios " in *" coro_timer "* | *" coro_shared "*)
    echo "- spawn s: ours, from the first spawn until every task waited (spawn and start_all, the binary's waiting_ms); a peer, until its spawn loop returned (its own spawn_ms; Python's and Boost.Asio's, until every task had begun its wait). all alive: the program's own count of tasks that had already ended by then (ended_at_spawn): \"no\" when any had, since their memory could be reused and the max RSS then understates the runtime; \"spawning outlasted the sleep\" when every task existed but the first were already due. A row that is not \"yes\" is no measure of N tasks waiting at once." ;;
  esac
  sed 's/^/- /' "$pw/limits"
  sed 's/^/- /' "$pw/notes" "$work/notes"
  sed 's/^/- not run: /' "$pw/missing"
  echo "- Peers built in PEERS_BUILD, outside this tree."
}

# draw_chart POINTS NOTES NAME TITLE ALT [SVG.SH OPTION...]: draws POINTS (a sweep's series, or with
# -b the bars of a peers section) as
# $work/NAME.svg, NAME made unique against charts/ and the charts drawn before (in charts), and
# adds the section's line for it, or for why it was not drawn, to $work/chart_lines.
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
  if ! sh charts/svg.sh -t "$title" \
    -s "${cpu:-$(uname -m)}, $cores_text cores, $mem_text · ${os:-$(uname -s)}, $(uname -sr) · ${compiler:-unknown} · $when · commit $commit" \
    -y "max RSS (MiB)" \
    -n "Each $what: the process's max RSS as /usr/bin/time reports it, in the run with the lowest wall time of RUNS=$RUNS${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}${THREADS:+, THREADS=$THREADS}." \
    -n "$(cat "$work/notes" "$notes")" "$@" \
    "$points" >"$work/chart.svg" 2>"$work/svg.err"; then
    echo "run.sh: chart ($alt) not drawn, charts/svg.sh failed: $(head -n 1 "$work/svg.err")" >&2
    printf '%s\n\n' "Chart ($alt): not drawn, charts/svg.sh failed: $(head -n 1 "$work/svg.err")" >>"$work/chart_lines"
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

: >"$work/chart_lines"
if [ -n "$peers" ] && [ -z "$sweep" ]; then
  # A bar chart per scenario: every runtime's max RSS at N, smallest first.
  for s in $scenarios; do
    [ -f "$work/bars.$s" ] || : >"$work/bars.$s"
    sort -t "$(printf '\t')" -k2,2n "$work/bars.$s" >"$work/bars.sorted"
    draw_chart "$work/bars.sorted" /dev/null "peers-$stamp-$s" "Max RSS of N=$N tasks: $s" \
      "$s: max RSS (MiB) of each runtime at N=$N" -b -m "c++20 (this repo)"
  done
  {
    echo "## $when — peers N=$N, RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- N=$N, $settings"
    peers_lines
    echo
    cat "$work/chart_lines"
    echo "| scenario | runtime | variant | N | threads | wall s | user s | sys s | max RSS MiB | avg RSS MiB | max RSS at N=1 MiB | bytes/task | spawn s | all alive | hits/s | max RSS spread MiB |"
    echo "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|"
    cat "$work/rows"
    echo
    peers_notes "N=1 is one run; N is the run with the lowest wall time of RUNS, whose spread of max RSS the last column gives."
    echo
  } >"$work/section"
elif [ -n "$peers" ]; then
  # The charts are drawn here, in the work directory; they join RESULTS only in the last step.
  for s in $scenarios; do
    [ -f "$work/points.$s" ] || : >"$work/points.$s"
    draw_chart "$work/points.$s" "$work/chart_notes.$s" "sweep-$stamp-$s" "Max RSS against concurrent tasks: $s" \
      "$s: max RSS (MiB) against task count, one line per runtime" -m "c++20 (this repo)" -l
  done
  {
    echo "## $when — peers sweep N=$(echo "$sweep_ns" | tr ' ' ','), RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- SWEEP=$sweep_ns, $settings"
    peers_lines
    echo
    cat "$work/chart_lines"
    echo "| scenario | runtime | variant | N | threads | wall s | user s | sys s | max RSS MiB | avg RSS MiB | bytes/task | spawn s | all alive | hits/s | max RSS spread MiB |"
    echo "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|"
    cat "$work/rows"
    echo
    peers_notes "Each program's N=1 row is its baseline; every row is the run with the lowest wall time of RUNS, whose spread of max RSS the last column gives."
    echo "- Charts: one per scenario, a line per runtime, ours drawn thicker with filled markers; memory on a log axis, so that 50 MiB and 2.5 GiB both read."
    echo
  } >"$work/section"
elif [ -z "$sweep" ]; then
  {
    echo "## $when — N=$N, RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- N=$N, $settings"
    echo
    echo "| scenario | variant | N | threads | wall s | user s | sys s | spawn s | max RSS MiB | avg RSS MiB | RSS at wait MiB | own avg RSS MiB | bytes/task | frame bytes | late max ms | max RSS spread MiB |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    cat "$work/rows"
    echo
    if [ -s "$work/notes" ]; then
      sed 's/^/- /' "$work/notes"
      echo
    fi
  } >"$work/section"
else
  draw_chart "$work/points" "$work/chart_notes" "sweep-$stamp" "Max RSS against concurrent tasks" \
    "Max RSS (MiB) against task count, one line per scenario"
  {
    echo "## $when — sweep N=$(echo "$sweep_ns" | tr ' ' ','), RUNS=$RUNS"
    echo
    cat "$work/machine"
    echo "- SWEEP=$sweep_ns, $settings"
    echo
    cat "$work/chart_lines"
    echo "| scenario | variant | N | threads | wall s | max RSS MiB | RSS at wait MiB | bytes/task from max RSS | bytes/task from binary | frame bytes | late max ms | max RSS spread MiB |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    cat "$work/rows"
    echo
    echo "- bytes/task from max RSS: (max RSS at N − max RSS at N=1) × 1024 / N, measured outside the binary, the same way for every program; the N=1 row is the baseline."
    echo "- bytes/task from binary: the binary's own bytes_per_task, (RSS at wait − RSS before the first task) × 1024 / N."
    sed 's/^/- /' "$work/notes"
    echo
  } >"$work/section"
fi

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
cat "$work/section"
echo "run.sh: appended to $RESULTS${charts:+; charts in $chart_dir: $charts}" >&2
[ "$failures" -eq 0 ]
