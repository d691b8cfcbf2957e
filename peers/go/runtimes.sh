# peers/go/runtimes.sh: Go's goroutines, built with go build.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain go go golang-go
family_commands GO=go
family_runtime 'go | go | go | go @V@ | GOMAXPROCS=@T@ | -'
family_threads 'Go: GOMAXPROCS = cores' \
  'Go GOMAXPROCS=T'
family_programs <<'EOF'
coro_timer     | go-coro_timer          | go | -       | -       | -              | - | goroutine + time.Sleep, WaitGroup
coro_shared    | go-coro_shared         | go | -       | -       | -              | - | goroutines wait on one channel, close()
coro_shared    | go-coro_shared_sleeper | go | -       | -       | sleeper closes | - | goroutines wait on one channel a sleeping goroutine closes (the 2024 comparison)
atomic_counter | go-atomic_counter      | go | -       | counter | -              | - | goroutine loop + time.Sleep
running_avg    | go-running_avg         | go | mutex   | start   | -              | - | mutex: goroutine per task; sync.Mutex
running_avg    | go-running_avg         | go | channel | start   | -              | - | channel: goroutine per task; a chan to one consumer
hash_collect   | go-hash_collect        | go | mutex   | start   | -              | - | mutex: goroutine per task; sync.Mutex
hash_collect   | go-hash_collect        | go | channel | start   | -              | - | channel: goroutine per task; a chan to one consumer
EOF

detect_go() {
  local out
  have "$GO" || { missing go "\`$GO\`"; return 1; }
  out=$("$GO" version 2>&1 | head -n 1)
  first_version "$(echo "$out" | awk '{ print $3 }')" >"$pw/go.version"
  echo "$out"
}

build_go() {
  local p
  copy_src go || return 1
  for p in $(programs_of go); do
    (cd "$pb/src/go" && "$GO" build -o "$pb/bin/$p" "./${p#go-}") || return 1
  done
}
