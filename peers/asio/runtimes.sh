# peers/asio/runtimes.sh: Boost.Asio's C++20 coroutines (co_spawn), compiled with CXX.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain asio boost g++ libboost-dev
family_runtime 'asio | asio | asio | boost.asio @V@ | - | 1 (one thread)'
family_threads 'Boost.Asio: one thread' \
  'Boost.Asio one thread whatever T'
family_programs <<'EOF'
coro_timer  | asio-coro_timer  | asio | - | - | - | - | co_spawn + own steady_timer
coro_shared | asio-coro_shared | asio | - | - | - | - | co_spawn, one shared steady_timer
EOF

detect_asio() {
  local out v
  have "$CXX" || { missing asio "\`$CXX\`"; return 1; }
  v=$(printf '#include <boost/version.hpp>\nBOOST_VERSION\n' | "$CXX" -x c++ -E - 2>/dev/null | tail -n 1)
  case $v in '' | *[!0-9]*) missing asio "Boost headers (boost/version.hpp, for $CXX)"; return 1 ;; esac
  echo "$((v / 100000)).$((v / 100 % 1000)).$((v % 100))" >"$pw/asio.version"
  out="Boost $((v / 100000)).$((v / 100 % 1000)).$((v % 100)), $("$CXX" --version 2>&1 | head -n 1), -O2 -std=c++20 -pthread"
  echo "$out"
}

build_asio() { build_cxx asio; }
