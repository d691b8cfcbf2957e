#!/usr/bin/env bash
# run.sh: builds the scenarios, runs each one RUNS times under /usr/bin/time and appends the best run
# of each to RESULTS.md as one self-describing section; ./run.sh --help says how. The harness is
# harness/run.py (Python 3.9 or newer, its standard library only): this finds a python3 and hands
# it the arguments. Written for macOS's bash 3.2 too.
# A python3 older than 3.9 is passed over, and so, at first, is one in a directory named shims (a
# version manager's, pyenv's or asdf's: a call through one costs about ten process starts).
here=$PWD
cd "$(dirname "$0")" || exit 1
passed='' first='' shim='' rest=$PATH:
while [ -n "$rest" ]; do
  d=${rest%%:*} rest=${rest#*:}
  py=${d:-.}/python3
  [ -x "$py" ] && [ ! -d "$py" ] || continue
  case /${d%/} in */shims) [ -n "$shim" ] || shim=$py; continue ;; esac
  if "$py" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then first=$py; break; fi
  passed="$passed $py ($("$py" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo 'no version'))"
done
if [ -z "$first" ] && [ -n "$shim" ]; then  # through the shim once: the interpreter it runs
  first=$("$shim" -c 'import sys; sys.exit(1) if sys.version_info < (3, 9) else print(sys.executable)' 2>/dev/null) ||
    { first='' passed="$passed $shim (older than 3.9)"; }
fi
if [ -z "$first" ]; then
  echo "run.sh: python3 3.9 or newer is needed: it plans every run and computes every section and chart (on Debian: apt-get install python3)${passed:+; passed over, older than 3.9:$passed}" >&2
  exit 1
fi
# The interpreter itself, not a shim, and no bytecode written into the tree.
exec "$first" -B -c 'import os, sys; sys.path.insert(0, "harness"); os.environ["BENCH_HERE"] = sys.argv[1]; import run; sys.exit(run.main(sys.argv[2:], dict(os.environ)))' "$here" "$@"
