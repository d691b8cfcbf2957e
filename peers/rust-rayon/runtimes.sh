# peers/rust-rayon/runtimes.sh: Rust's rayon, built with cargo (peers/lib.sh: build_cargo).
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that build its programs.

family_runtime 'rayon | rayon | rust | rust rayon @V@ | RAYON_NUM_THREADS=@T@ | -'
family_threads 'rayon: one worker per core' \
  'rayon RAYON_NUM_THREADS=T'
family_programs <<'EOF'
running_avg  | rayon-running_avg  | rayon | mutex   | - | - | - | mutex: par_iter over 0..N, never N tasks at once; std Mutex
running_avg  | rayon-running_avg  | rayon | channel | - | - | - | channel: par_iter over 0..N, never N tasks at once; a channel to one consumer thread
hash_collect | rayon-hash_collect | rayon | mutex   | - | - | - | mutex: par_iter over 0..N, never N tasks at once; std Mutex
hash_collect | rayon-hash_collect | rayon | channel | - | - | - | channel: par_iter over 0..N, never N tasks at once; a channel to one consumer thread
EOF

build_rayon() { build_cargo rust-rayon "$1" rayon rayon; }

ready_rayon() { cargo_mode rayon; }
