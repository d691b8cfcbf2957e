#!/usr/bin/env bash
# Runs each argument, a Catch2 binary, a shell test (*.sh) or Python's unittest (*.py), then prints one line "N passed, M
# failed" counting test cases (Catch2's own report plus the shell tests' counts) and the time taken.
# Every line a test prints is shown as it comes, after the test's file name: a shell test's checks,
# a Catch2 binary's test cases with their durations (-d yes). TEST_JOBS files run at once (default:
# the number of CPUs; 1 runs them one after another): the shell tests spend their time starting
# processes, which a second CPU halves.
cd "$(dirname "$0")/.." || exit 1
started=$(date +%s)
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-unit.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
njobs=${TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $njobs in '' | *[!0-9]* | 0) echo "run_all.sh: TEST_JOBS must be a whole number >= 1, got '$njobs'" >&2; exit 2 ;; esac

# shown NAME COMMAND...: runs COMMAND, each line of its output shown as NAME: LINE and kept in
# $dir/NAME.log; its exit status in $dir/NAME.rc.
shown() {
  name=$1
  shift
  : >"$dir/$name.log"
  { "$@" 2>&1; echo "$?" >"$dir/$name.rc"; } | while IFS= read -r line || [ -n "$line" ]; do
    printf '%s: %s\n' "$name" "$line"
    printf '%s\n' "$line" >>"$dir/$name.log"
  done
}

# run_one FILE: runs one test file and writes "PASSED FAILED" to $dir/NAME.counts.
run_one() {
  t=$1 from=$(date +%s)
  case $t in
    *.sh)
      name=${t##*/}
      shown "$name" bash "$t"
      read -r rc <"$dir/$name.rc"
      last=$(tail -n 1 "$dir/$name.log")
      p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
      f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
      if [ -z "$p" ]; then p=0; f=1; echo "$name: no summary line (exit $rc)"; fi
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi ;;
    *.py)
      # Python's unittest: "Ran N tests", then "OK" or "FAILED (failures=F, errors=E)".
      name=${t##*/}
      shown "$name" python3 -B -m unittest -v "$t"
      read -r rc <"$dir/$name.rc"
      p=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$dir/$name.log")
      f=$(sed -n 's/^FAILED (\(.*\))$/\1/p' "$dir/$name.log" | tr ',' '\n' | sed -n 's/.*=\([0-9]*\)$/\1/p' | awk '{ s += $1 } END { print s + 0 }')
      if [ -z "$p" ]; then p=0; f=1; echo "$name: no unittest summary (exit $rc)"; fi
      p=$((p - f))
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi ;;
    *)
      name=${t#tests/build/}
      name=${name//\//-}
      shown "$name" "$t" -d yes
      # Catch2: "All tests passed (A assertions in C test cases)" or "test cases: C | P passed | F failed"
      summary=$(grep -E 'All tests passed|test cases:' "$dir/$name.log" | tail -n 1)
      case $summary in
        *"All tests passed"*)
          p=$(echo "$summary" | sed 's/.* in \([0-9]*\) test case.*/\1/'); f=0 ;;
        *"test cases:"*)
          p=$(echo "$summary" | sed -n 's/.*| *\([0-9]*\) passed.*/\1/p'); f=$(echo "$summary" | sed -n 's/.*| *\([0-9]*\) failed.*/\1/p') ;;
        *)
          echo "$name: no Catch2 summary (crashed?)"; p=0; f=1 ;;
      esac ;;
  esac
  echo "$name: ${p:-0} passed, ${f:-0} failed ($(($(date +%s) - from)) s)"
  echo "${p:-0} ${f:-0}" >"$dir/$name.counts"
}

# lane: takes the next file no other lane has claimed (mkdir is atomic), until none is left.
lane() {
  i=0
  for t in "$@"; do
    i=$((i + 1))
    mkdir "$dir/claim.$i" 2>/dev/null && run_one "$t"
  done
}

# Each lane is a job of its own (set -m), so it keeps SIGINT, which a shell ignores in the jobs it
# starts without job control; Ctrl-C or a TERM to this script stops every lane and what it runs.
lanes=''
trap 'for p in $lanes; do kill -TERM -- "-$p" 2>/dev/null; done; exit 130' INT TERM
k=0
set -m
while [ "$k" -lt "$njobs" ]; do
  lane "$@" </dev/null &
  lanes="$lanes $!"
  k=$((k + 1))
done
set +m
wait

passed=0
failed=0
for c in "$dir"/*.counts; do
  [ -f "$c" ] || continue
  read -r p f <"$c"
  passed=$((passed + p)) failed=$((failed + f))
done
# Every file must have reported (a lane that died leaves one without counts).
n=0
for c in "$dir"/*.counts; do [ -f "$c" ] && n=$((n + 1)); done
[ "$n" -eq "$#" ] || { echo "run_all.sh: $(($# - n)) of $# test files did not report"; failed=$((failed + 1)); }
echo "($(($(date +%s) - started)) s)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
