# tests/lib.sh: the few helpers the shell tests share. Source it, call `check`, end with `finish`.
# Every check prints one line; `finish` prints "P passed, F failed" (which `make test` adds up)
# and exits non-zero when anything failed.
passed=0
failed=0
bin=${BIN_DIR:-.}  # where the scenario binaries are: make asan and make tsan build their own
# A runtime's switch set in the caller's environment would be named in every section's settings line (settings.py,
# RUNTIME_ENV), so the tests run without any.
for v in $(python3 -B -c 'import os, sys; sys.path.insert(0, "harness"); import settings
print(" ".join(k for k in os.environ if settings.RUNTIME_ENV.fullmatch(k)))'); do unset "$v"; done

# check NAME CONDITION-COMMAND...: runs the command; success passes the check.
check() {
  local check_name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok - $check_name"
  else
    failed=$((failed + 1))
    echo "FAIL - $check_name"
    # What the last run_cmd said on stderr, to tell why from a CI log alone.
    [ -z "${err:-}" ] || printf '%s\n' "$err" | tail -n 3 | sed 's/^/  # last stderr: /'
  fi
}

# run_cmd CMD...: runs a command, keeping its exit status in $rc, stdout in $out, stderr in $err.
run_cmd() {
  out=$("$@" 2>"$tmp/stderr")
  rc=$?
  err=$(<"$tmp/stderr")
}

# skipped SANITIZERS NAME: true, saying so, when this run is built with one of SANITIZERS
# (make asan / make tsan set SANITIZER); the tests it guards cannot run there.
skipped() {
  case " $1 " in
    *" ${SANITIZER:-none} "*) echo "skip - $2 (not under $SANITIZER)"; return 0 ;;
  esac
  return 1
}

# The helpers below use no other program: the suite calls them thousands of times, and on some
# machines a process takes 7 ms to start. They read TEXT a line at a time, as grep would.
nl='
'
# has TEXT REGEX: a line of TEXT matches the extended regular expression REGEX, which the test
# writes itself. Text from the machine (a CPU name, a kernel, a path) is never a regex: has_text.
has() {
  local line
  while IFS= read -r line; do [[ $line =~ $2 ]] && return 0; done <<TEXT
$1
TEXT
  return 1
}
# has_i TEXT REGEX: has, ignoring case.
has_i() {
  local r=0 was=-u
  ! shopt -q nocasematch || was=-s
  shopt -s nocasematch
  has "$1" "$2" || r=1
  shopt "$was" nocasematch
  return $r
}
# has_text TEXT STRING: a line of TEXT contains STRING as it is; has_line TEXT LINE: a line of
# TEXT is LINE. For machine text: "Intel(R) Xeon(R)" or a path with "+" in it is data.
has_text() { [[ $1 == *"$2"* ]]; }
has_line() { [[ $nl$1$nl == *"$nl$2$nl"* ]]; }
# has_prefix TEXT STRING: a line of TEXT begins with STRING as it is.
has_prefix() { [[ $nl$1 == *"$nl$2"* ]]; }

# field KEY [LINE]: the value of KEY=value in a summary line (default: $out, the last run_cmd's),
# each one if KEY is there twice.
field() {
  local rest=" ${2-$out} "
  rest=${rest//$nl/ }
  while :; do
    case $rest in
      *" $1="*) rest=${rest#*" $1="}; printf '%s\n' "${rest%% *}" ;;
      *) return 0 ;;
    esac
  done
}

# exited STATUS REGEX: the last run_cmd exited STATUS and said REGEX on stderr.
exited() { [ "$rc" -eq "$1" ] && has "$err" "$2"; }

# within SECONDS CMD...: runs CMD, killed after SECONDS (a limit far above what it needs, that only
# a hang reaches: then rc is 137); sets rc, out, err.
within() {
  local limit=$1 pid i=0
  shift
  "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && [ $i -lt $((limit * 10)) ]; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  out=$(<"$tmp/out") err=$(<"$tmp/err")
}

# For the run.sh tests, which keep RESULTS in $res and give run.sh $tmp/tmpdir as TMPDIR:
# bench [VAR=VALUE...] COMMAND...: run_cmd with that RESULTS and TMPDIR.
bench() { run_cmd env RESULTS="$res" TMPDIR="$tmp/tmpdir" "$@"; }
# last_section [FILE]: the newest section of FILE (default: $res).
last_section() { awk '/^## / { s = "" } { s = s $0 "\n" } END { printf "%s", s }' "${1:-$res}"; }
# table_rows: the data rows of the newest section's table (its header and separator left out).
table_rows() { awk '/^## / { s = ""; h = 0 } /^[|] / { if (h++) s = s $0 "\n" } END { printf "%s", s }' "$res"; }
# renders_again: the last bench's section, printed again by ./run.sh --render (its run id, from
# run.sh's last words) from the store, byte for byte.
renders_again() {
  local id
  id=$(printf '%s\n' "$err" | sed -n 's/^run.sh: appended to .*(run \(.*\))$/\1/p')
  last_section >"$tmp/section.written" &&
    [ -n "$id" ] && env RESULTS="$res" ./run.sh --render "$id" >"$tmp/section.rendered" 2>/dev/null &&
    cmp -s "$tmp/section.written" "$tmp/section.rendered"
}
# no_temp_files: run.sh left nothing in its TMPDIR.
no_temp_files() { [ -z "$(ls -A "$tmp/tmpdir")" ]; }
# peerlib FUNCTION ARGS...: one of peers/lib.sh's functions, as the harness calls them.
peerlib() { bash peers/lib.sh "$@"; }
# check_published FILE: a write-up's data file checked as --replicate checks it: its problems, a line
# each; fails when it has one.
# The about lines of tiny-2099, the made-up write-up the replication and profile tests read.
tiny_about() {
  local k v
  while IFS='|' read -r k v; do printf 'about\t%s\t%s\n' "$k" "$v"; done <<'ABOUT'
name|tiny-2099
author|A. Tester
year|2099
title|Tiny tasks
url|https://example.org/tiny
published|2099-01-01
read|2099-02-02
measured|peak memory of N sleeping tasks
machine|a toaster
versions|Go 1.99
unit|KB: KiB, as max RSS gives them
runs|one run a figure
ABOUT
}

check_published() {
  python3 -B -c 'import sys; sys.path.insert(0, "harness"); import replicate
problems, _ = replicate.check(sys.argv[1], open(sys.argv[1], encoding="utf-8", newline="").read())
print("\n".join(problems)); sys.exit(1 if problems else 0)' "$1"
}

# bad_case REGEX [VAR=VALUE...] COMMAND...: bench refuses COMMAND with exit 2, saying REGEX on
# stderr, and leaves RESULTS as $tmp/before holds it (and `untouched`, which a test may redefine).
untouched() { :; }
bad_case() {
  local text=$1
  shift
  bench "$@"
  check "$* exits 2 saying '$text'" eval 'exited 2 "$text" && cmp -s "$res" "$tmp/before" && untouched'
}

# interrupted SIGNAL MARKER [VAR=VALUE...] COMMAND...: runs COMMAND as bench does, in the background
# and in its own process group (a background run.sh would otherwise ignore SIGINT), with the marker
# file MARKER present, which makes a fake program write slow.pid and hang. Once slow.pid exists it
# sends SIGNAL and waits; sets rc. The MARKER is removed after.
interrupted() {
  local sig=$1 marker=$2 pid i=0
  shift 2
  rm -f slow.pid slow.stopped
  touch "$marker"
  # A suite started in the background (`make test &`) inherits SIGINT ignored, and a shell cannot
  # undo that for itself: GNU env restores the default for the command, where it can.
  [ -n "${default_int+set}" ] || { default_int=--default-signal=INT && env "$default_int" true 2>/dev/null || default_int=''; }
  set -m
  env $default_int RESULTS="$res" TMPDIR="$tmp/tmpdir" "$@" >/dev/null 2>&1 &
  pid=$!
  set +m
  while [ ! -s slow.pid ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done  # at most a minute
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  rm -f "$marker"
}
# stopped: the hung fake got its SIGTERM (it may finish just after run.sh has exited, not being its
# child).
stopped() {
  local i=0
  while [ ! -f slow.stopped ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done  # at most 30 s
  [ -f slow.stopped ]
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-test.XXXXXX") || exit 1
# run.sh's lock is the test's own, so that the tests can run while a benchmark holds the real one.
export BENCH_TEST_LOCK=$tmp/run.lock
# KEEP_TMP=1 keeps the sandbox, to look at after a failure.
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
