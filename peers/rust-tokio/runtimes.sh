# peers/rust-tokio/runtimes.sh: Rust's tokio, built with cargo (peers/lib.sh: build_cargo).
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that build its programs.

family_runtime 'tokio | tokio | rust | rust tokio @V@ | TOKIO_WORKER_THREADS=@T@ | -'
family_threads 'tokio: one worker per core' \
  'tokio TOKIO_WORKER_THREADS=T'
family_programs <<'EOF'
coro_timer     | tokio-coro_timer                | tokio | -       | -       | -              | - | tokio::spawn(sleep) per task
coro_timer     | tokio-coro_timer_join_all       | tokio | -       | -       | join_all       | - | join_all of N sleeps in one task
coro_timer     | tokio-coro_timer_join_all_async | tokio | -       | -       | join_all async | - | join_all of N async blocks, each awaits a sleep (the 2024 comparison)
coro_shared    | tokio-coro_shared               | tokio | -       | -       | -              | - | tokio::spawn per task, one watch channel
coro_shared    | tokio-coro_shared_join_all      | tokio | -       | -       | join_all       | - | join_all of N waits on one watch channel
atomic_counter | tokio-atomic_counter            | tokio | -       | counter | -              | - | tokio::spawn loop + sleep
running_avg    | tokio-running_avg               | tokio | mutex   | start   | -              | - | mutex: tokio::spawn per task; tokio Mutex
running_avg    | tokio-running_avg               | tokio | channel | start   | -              | - | channel: tokio::spawn per task; mpsc to one consumer
hash_collect   | tokio-hash_collect              | tokio | mutex   | start   | -              | - | mutex: tokio::spawn per task; tokio Mutex
hash_collect   | tokio-hash_collect              | tokio | channel | start   | -              | - | channel: tokio::spawn per task; mpsc to one consumer
EOF

# tokio_caveat VERSION [SUFFIX]: before 1.26 a tokio Sleep is 640 bytes, 128-aligned, and every task that
# sleeps holds one; tokio 1.26.0 removed the timer entries' cache padding (tokio-rs/tokio#5468) and
# a second copy of the deadline (#5410). The public 2024 figures used 1.41: the rows whose tasks
# hold a Sleep say so ($pw/PROGRAM.caveat, added to a program's variant cell), and so does a note.
# SUFFIX: "@SET", the programs built against a set of PEERS_PATCH.
tokio_caveat() {
  local p
  case $1 in 1.[0-9].* | 1.1[0-9].* | 1.2[0-5].*) ;; *) return 0 ;; esac
  for p in tokio-coro_timer tokio-coro_timer_join_all tokio-coro_timer_join_all_async tokio-atomic_counter; do
    echo " (tokio < 1.26: 640-byte Sleep, see notes)" >"$pw/$p${2:-}.caveat"
  done
  grep -q "^rust tokio ${1%% *}: each Sleep is 640 bytes" "$pw/notes" 2>/dev/null ||
    echo "rust tokio ${1%% *}: each Sleep is 640 bytes, 128-aligned, in every tokio before 1.26.0, which removed the timer entries' cache padding (tokio-rs/tokio#5468); the rows of tasks that hold one (coro_timer, atomic_counter) say \"tokio < 1.26\" and overstate a current tokio (the public 2024 runs used 1.41.1; PEERS_PATCH builds the peers against another tokio's source, peers/README.md)" >>"$pw/notes"
}

# build_tokio GROUP: the cargo build, then its caveat, even for a failed build (its version is known
# once cargo resolved it).
build_tokio() {
  local status=0 v=''
  build_cargo rust-tokio "$1" tokio tokio || status=1
  { read -r v <"$pw/$1.version"; } 2>/dev/null
  tokio_caveat "$v" "${1#tokio}"
  return "$status"
}

# The Rust groups first decide where their crates come from.
ready_tokio() { cargo_mode tokio; }
