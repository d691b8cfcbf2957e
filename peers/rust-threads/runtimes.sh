# peers/rust-threads/runtimes.sh: Rust's std::thread, a thread per task, built with cargo (peers/lib.sh:
# build_cargo).
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that build its programs.

family_runtime 'ruststd | rust-std | rust | rust @V@ std | - | one per task'
family_threads 'Rust std::thread: a thread per task' \
  'Rust std::thread a thread per task whatever T'
family_programs <<'EOF'
threads      | rust-threads      | ruststd | -       | -     | - | - | std::thread per task, default stack
running_avg  | rust-running_avg  | ruststd | mutex   | start | - | - | mutex: std::thread per task; std Mutex
running_avg  | rust-running_avg  | ruststd | channel | start | - | - | channel: std::thread per task; mpsc to one consumer thread
hash_collect | rust-hash_collect | ruststd | mutex   | start | - | - | mutex: std::thread per task; std Mutex
hash_collect | rust-hash_collect | ruststd | channel | start | - | - | channel: std::thread per task; mpsc to one consumer thread
EOF

build_ruststd() { build_cargo rust-threads "$1" rust; }

ready_ruststd() { cargo_mode ruststd; }
