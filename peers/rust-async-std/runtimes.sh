# peers/rust-async-std/runtimes.sh: Rust's async-std, built with cargo (peers/lib.sh: build_cargo).
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that build its programs.

family_runtime 'asyncstd | async-std | rust | rust async-std @V@ | ASYNC_STD_THREAD_COUNT=@T@ | -'
family_threads 'async-std: one worker per core' \
  'async-std ASYNC_STD_THREAD_COUNT=T'
family_programs <<'EOF'
coro_timer   | async-std-coro_timer          | asyncstd | -       | -     | -        | - | task::spawn(sleep) per task
coro_timer   | async-std-coro_timer_join_all | asyncstd | -       | -     | join_all | - | join_all of N task::sleep in one task (the 2024 take 1)
coro_shared  | async-std-coro_shared         | asyncstd | -       | -     | -        | - | task::spawn per task, one channel closed
running_avg  | async-std-running_avg         | asyncstd | mutex   | start | -        | - | mutex: task::spawn per task; async-std Mutex
running_avg  | async-std-running_avg         | asyncstd | channel | start | -        | - | channel: task::spawn per task; a channel to one consumer
hash_collect | async-std-hash_collect        | asyncstd | mutex   | start | -        | - | mutex: task::spawn per task; async-std Mutex
hash_collect | async-std-hash_collect        | asyncstd | channel | start | -        | - | channel: task::spawn per task; a channel to one consumer
EOF

build_asyncstd() { build_cargo rust-async-std "$1" async-std async-std; }

ready_asyncstd() { cargo_mode asyncstd; }
