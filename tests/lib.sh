# tests/lib.sh: the few helpers the shell tests share. Source it, call `check`, end with `finish`.
# Every check prints one line; `finish` prints "P passed, F failed" (which `make test` adds up)
# and exits non-zero when anything failed.
passed=0
failed=0
bin=${BIN_DIR:-.}  # where the scenario binaries are: make asan and make tsan build their own

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
  fi
}

# run_cmd CMD...: runs a command, keeping its exit status in $rc, stdout in $out, stderr in $err.
run_cmd() {
  out=$("$@" 2>"$tmp/stderr")
  rc=$?
  err=$(cat "$tmp/stderr")
}

# skipped SANITIZERS NAME: true, saying so, when this run is built with one of SANITIZERS
# (make asan / make tsan set SANITIZER); the tests it guards cannot run there.
skipped() {
  case " $1 " in
    *" ${SANITIZER:-none} "*) echo "skip - $2 (not under $SANITIZER)"; return 0 ;;
  esac
  return 1
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
