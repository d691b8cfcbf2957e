# peers/nim/runtimes.sh: Nim's async procs on asyncdispatch.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain nim nim nim
family_commands NIM=nim
family_runtime 'nim | nim | nim | nim @V@ | - | 1 (one thread)'
family_threads "Nim's asyncdispatch: one thread" \
  'Nim one thread whatever T'
family_programs <<'EOF'
coro_timer  | nim-coro_timer  | nim | - | - | - | - | async proc + sleepAsync, waitFor all
coro_shared | nim-coro_shared | nim | - | - | - | - | async procs wait on one event (a seq of futures) a sleepAsync sets
EOF

detect_nim() { detect_by_version nim nim "$NIM"; }

# Nim: -d:release, Nim's default memory management (refc in Nim 1.6); asyncdispatch is one thread.
build_nim() {
  local p s
  copy_src nim || return 1
  for p in $(programs_of nim); do
    s=${p#nim-}
    "$NIM" c -d:release --hints:off --nimcache:"$pb/nim/$s" -o:"$pb/bin/$p" "$pb/src/nim/$s.nim" || return 1
  done
  echo "nim $(cat "$pw/nim.version"): nim c -d:release, its default memory management; asyncdispatch runs on one thread" >>"$pw/notes"
}
