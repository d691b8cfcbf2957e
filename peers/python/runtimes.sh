# peers/python/runtimes.sh: The Python asyncio programs, run by CPython and by PyPy.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain python python python3
family_toolchain pypy pypy pypy3
family_commands PYTHON=python3 PYPY=pypy3
family_runtime 'python | python | python | python @V@ | - | 1 (one thread)'
family_runtime 'pypy | pypy | pypy | pypy @V@ | - | 1 (one thread)'
family_threads 'Python asyncio and PyPy: one thread' \
  'Python asyncio and PyPy one thread whatever T'
family_programs <<'EOF'
coro_timer  | python-coro_timer  | python | - | - | - | - | asyncio.sleep + gather
coro_timer  | pypy-coro_timer    | pypy   | - | - | - | - | asyncio.sleep + gather (the Python program)
coro_shared | python-coro_shared | python | - | - | - | - | tasks wait on one asyncio.Event
coro_shared | pypy-coro_shared   | pypy   | - | - | - | - | tasks wait on one asyncio.Event (the Python program)
EOF

detect_python() { detect_by_version python python "$PYTHON"; }

detect_pypy() {
  local out
  have "$PYPY" || { missing pypy "\`$PYPY\`"; return 1; }
  out=$("$PYPY" --version 2>&1 | tr '\n' ' ')
  # "Python 3.9.16 (..., ...) [PyPy 7.3.11 with GCC 12.2.0]": PyPy's own version names the row.
  printf '%s\n' "$out" | sed -n 's/.*PyPy \([0-9][0-9.]*\).*/\1/p' >"$pw/pypy.version"
  echo "$out" | sed 's/ *$//'
}

build_python() {
  local p
  copy_src python || return 1
  for p in $(programs_of python); do launcher "$p" "$(command -v "$PYTHON")" "$pb/src/python/${p#python-}.py" || return 1; done
}

# PyPy runs the Python programs unchanged.
build_pypy() {
  local p
  copy_src python pypy || return 1
  for p in $(programs_of pypy); do launcher "$p" "$(command -v "$PYPY")" "$pb/src/pypy/${p#pypy-}.py" || return 1; done
  echo "pypy $(cat "$pw/pypy.version"): the Python programs unchanged; PyPy's garbage collector is generational, not reference counting, so what a finished task held comes back at a collection, not at once" >>"$pw/notes"
}
