#!/bin/sh
# Runs each argument, a Catch2 binary or a shell test (*.sh), then prints one line "N passed, M
# failed" counting test cases (Catch2's own report plus the shell tests' counts) and the time taken.
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
started=$(date +%s)
log=$(mktemp "${TMPDIR:-/tmp}/bench-unit.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT

for t in "$@"; do
  echo "== $t"
  case $t in
    *.sh)
      bash "$t" > "$log" 2>&1
      rc=$?
      cat "$log"
      last=$(tail -n 1 "$log")
      p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
      f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
      if [ -z "$p" ]; then p=0; f=1; echo "$t: no summary line (exit $rc)"; fi
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi ;;
    *)
      "$t" > "$log" 2>&1
      tail -n 3 "$log"
      grep -q 'All tests passed' "$log" || cat "$log"
      # Catch2: "All tests passed (A assertions in C test cases)" or "test cases: C | P passed | F failed"
      summary=$(grep -E 'All tests passed|test cases:' "$log" | tail -n 1)
      case $summary in
        *"All tests passed"*)
          p=$(echo "$summary" | sed 's/.* in \([0-9]*\) test case.*/\1/'); f=0 ;;
        *"test cases:"*)
          p=$(echo "$summary" | sed -n 's/.*| *\([0-9]*\) passed.*/\1/p'); f=$(echo "$summary" | sed -n 's/.*| *\([0-9]*\) failed.*/\1/p') ;;
        *)
          echo "$t: no Catch2 summary (crashed?)"; p=0; f=1 ;;
      esac ;;
  esac
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
done

echo "($(($(date +%s) - started)) s)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
