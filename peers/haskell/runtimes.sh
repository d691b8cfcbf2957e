# peers/haskell/runtimes.sh: Haskell's green threads, compiled by GHC.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain ghc ghc ghc
family_commands GHC=ghc
family_runtime 'haskell | haskell | ghc | haskell ghc @V@ | GHCRTS=-N@T@ | -'
family_threads 'GHC: one capability' \
  'GHC GHCRTS=-NT'
family_programs <<'EOF'
coro_timer  | haskell-coro_timer  | haskell | - | - | - | - | forkIO + threadDelay, one MVar for all
coro_shared | haskell-coro_shared | haskell | - | - | - | - | forkIO, each reads one MVar a timer thread fills
EOF

detect_ghc() {
  local v
  have "$GHC" || { missing ghc "\`$GHC\`"; return 1; }
  v=$("$GHC" --numeric-version 2>&1 | head -n 1)
  echo "$v" >"$pw/haskell.version"
  echo "The Glorious Glasgow Haskell Compilation System, version $v; -O2 -threaded -rtsopts"
}

# GHC: -O2 -threaded, and -rtsopts so that THREADS can set the capabilities (GHCRTS=-N<T>).
build_haskell() {
  local p s
  copy_src haskell || return 1
  for p in $(programs_of haskell); do
    s=${p#haskell-}
    mkdir -p "$pb/haskell/$s" && "$GHC" -O2 -threaded -rtsopts -outputdir "$pb/haskell/$s" -o "$pb/bin/$p" "$pb/src/haskell/$s.hs" || return 1
  done
  echo "haskell: ghc -O2 -threaded -rtsopts, one capability unless GHCRTS=-N<T> (THREADS) asks for more; each thread starts on GHC's default 1 KiB stack, which grows" >>"$pw/notes"
}
