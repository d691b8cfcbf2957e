# peers/floor/runtimes.sh: The floor: no coroutine, a state and a link per task in C++, the least a
# waiting task can cost.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain floor gcc g++
family_commands CXX=g++
family_runtime 'floor | floor | floor | floor: no coroutine, @V@ | - | 1 (one thread)'
family_threads 'the floor program here: one thread' \
  'the floor one thread whatever T'
family_programs <<'EOF'
coro_timer  | floor-coro_timer  | floor | - | - | - | - | no coroutine: a state and a link per task (8 bytes), one timer bucket per ms
coro_shared | floor-coro_shared | floor | - | - | - | - | no coroutine: a state and a link per task (8 bytes), one list of waiters
EOF

# The floor's version is its compiler's: "g++ 12.2.0", "clang 14.0.6".
detect_floor() {
  local line name
  have "$CXX" || { missing floor "\`$CXX\`"; return 1; }
  line=$("$CXX" --version 2>&1 | head -n 1)
  case $line in *clang*) name=clang ;; *) name=${line%% *} ;; esac
  echo "$name $(first_version "$line")" >"$pw/floor.version"
  echo "$line, -O2 -std=c++20"
}

build_floor() { build_cxx floor; }
