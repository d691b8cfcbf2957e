#!/usr/bin/env bash
# tests/golden_test.sh: the sections run.sh writes, against golden copies in tests/golden/: a plain
# run, a sweep, a peers run and a peers sweep on the fakes of tests/fakes.sh (with failed builds and
# THREADS lists), and --plan's listings. What differs from machine to machine or run to run (the
# date, the machine's lines, measured figures) is masked first; the rest must match to the byte.
# GOLDEN_WRITE=DIR writes the masked sections to DIR instead (to review a change, then copy them).
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh || exit 1
golden=$PWD/tests/golden
# shellcheck source=tests/fakes.sh
. tests/fakes.sh || exit 1

# mask: a section with the date, the machine, paths of this run and every measured figure masked.
mask() {
  T=$tmp awk '
    { gsub(ENVIRON["T"], "TMP") }
    /^## / { sub(/^## [0-9-]+ [0-9:]+ UTC/, "## DATE") }
    /^- (commit|OS|kernel|CPU|cores|memory|fresh memory): / { sub(/: .*/, ": #") }
    # Build times are measured (PEERS_BUILD/GROUP.build_s), so the total and the builds of the estimate are
    # too; its runs part is a computation, and stays.
    /^Estimated time here: / { sub(/about [^:]*:/, "about #:"); sub(/, [0-9]+ (s|min|h [0-9]+ min) of builds/, ", # of builds") }
    # The name of a chart has the time in it, and "-2" when one of that name was already there.
    /^!\[/ { gsub(/[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]/, "STAMP"); gsub(/-[0-9]+[.]svg/, ".svg") }
    /^\| scenario / { avg = 0; n = split($0, c, " [|] "); for (i = 1; i <= n; i++) if (c[i] == "avg RSS MiB") avg = i }
    /^\| / && !/^\| scenario / {
      sub(/ [|]$/, ""); n = split($0, c, " [|] "); line = c[1]
      for (i = 2; i <= n; i++) {
        v = c[i]
        # Seconds, MiB, bytes/task and spreads, a range over the runs and its wide mark too; the avg
        # RSS cell also holds "-" when a run was too short for a sample.
        if (v ~ /^[0-9]+[.][0-9]+ [(][0-9.]+–[0-9.]+[)]( †)?$/) v = "# (#–#)"
        if (v ~ /^[0-9]+[.][0-9]+(–[0-9]+[.][0-9]+)?( [(]this run[)])?$/) sub(/^[0-9.–]+/, "#", v)
        if (i == avg) v = "~"
        line = line " | " v
      }
      $0 = line " |"
    }
    { print }'
}

# section NAME VAR=VALUE... ./run.sh ARGS...: runs it, and checks (or writes) its masked section.
section() {
  local name=$1
  shift
  bench "$@"
  last_section | mask >"$tmp/$name.md"
  compare "$name"
}
# compare NAME: $tmp/NAME.md against the golden copy (or written to GOLDEN_WRITE).
compare() {
  if [ -n "${GOLDEN_WRITE:-}" ]; then
    mkdir -p "$GOLDEN_WRITE" && cp "$tmp/$1.md" "$GOLDEN_WRITE/$1.md"
    echo "wrote $GOLDEN_WRITE/$1.md"
  else
    check "$1: the section is the golden one" diff -u "$golden/$1.md" "$tmp/$1.md"
  fi
}

section plain RUNS=1 SLEEP_MS=50 ./run.sh 50
section sweep RUNS=1 SLEEP_MS=50 THREADS="1 2" THREAD_CAP=20 SWEEP="1 10 100" ./run.sh --sweep threads coro_timer running_avg
touch break_aot
section peers RUNS=1 SLEEP_MS=50 THREAD_CAP=20 ./run.sh --peers 50
rm break_aot
section peers_threads RUNS=1 SLEEP_MS=50 THREADS="1 2" THREAD_CAP=20 PEERS="go tokio node rust-std" ./run.sh --peers 30 coro_timer atomic_counter running_avg
touch break_go
section peers_sweep RUNS=1 SLEEP_MS=50 SWEEP="1 10 100" THREAD_CAP=20 PEERS="go node rust-std csharp" ./run.sh --sweep --peers threads coro_timer hash_collect
rm break_go

# --plan: its listing is golden too, and it builds, detects, installs and writes nothing: no
# toolchain is called, no file changes (RESULTS, charts, PEERS_BUILD, the lock), none appears.
plan() {
  local name=$1 before after
  shift
  : >tools.log
  before=$(find "$tmp" -path "$tmp/stderr" -prune -o -print | sort)
  bench "$@"
  after=$(find "$tmp" -path "$tmp/stderr" -prune -o -print | sort)
  check "$name: --plan exits 0" [ "$rc" -eq 0 ]
  check "$name: --plan runs no toolchain" [ ! -s tools.log ]
  check "$name: --plan writes no file" [ "$before" = "$after" ]
  printf '%s\n' "$out" | mask >"$tmp/$name.md"
  compare "$name"
}
plan plan_peers THREADS="1 2" THREAD_CAP=20 PEERS="go tokio node rust-std csharp-aot" ./run.sh --plan --peers 30 threads coro_timer running_avg
plan plan_sweep SWEEP="1 10 100" THREAD_CAP=20 PEERS="go rust-std java" ./run.sh --plan --sweep --peers threads coro_shared hash_collect
plan plan_ours THREADS="1 2" SWEEP="1 10 100" THREAD_CAP=20 ./run.sh --plan --sweep threads atomic_counter running_avg
bench ./run.sh --plan --peers 10 nosuch
check "--plan refuses a bad argument like a run (exit 2, one line)" \
  eval '[ "$rc" -eq 2 ] && [ "$(printf "%s\n" "$err" | wc -l)" -eq 1 ] && has "$err" "unknown scenario"'
finish
