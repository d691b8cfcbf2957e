# peers/elixir/runtimes.sh: Elixir's processes on the BEAM.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain elixir elixir elixir
family_commands ELIXIR=elixir
family_runtime 'elixir | elixir | elixir | elixir @V@ | ERL_FLAGS=+S@T@:@T@ | -'
# The BEAM's JIT (OTP 24 on) writes /tmp/perf-PID.map, which names the code it compiles for perf.
family_profile elixir 'ERL_FLAGS=+JPperf true'
family_threads 'Elixir: one BEAM scheduler per core' \
  'Elixir +S T:T (ERL_FLAGS)'
family_programs <<'EOF'
coro_timer  | elixir-coro_timer  | elixir | - | - | - | - | Task.async + Task.await_many
coro_shared | elixir-coro_shared | elixir | - | - | - | - | Task.async, each monitors one timer process
EOF

detect_elixir() {
  local out v otp
  have "$ELIXIR" || { missing elixir "\`$ELIXIR\`"; return 1; }
  out=$("$ELIXIR" --version 2>&1)
  v=$(printf '%s\n' "$out" | sed -n 's/^Elixir \([0-9][0-9.]*\).*/\1/p' | head -n 1)
  otp=$(printf '%s\n' "$out" | sed -n 's/^Erlang\/OTP \([0-9][0-9]*\).*/\1/p' | head -n 1)
  echo "${v:-?}${otp:+ (OTP $otp)}" >"$pw/elixir.version"
  out="Elixir ${v:-?} on Erlang/OTP ${otp:-?}"
  echo "$out"
}

# Elixir: +P, the process limit (OTP's default is 262144), is raised to N + 1024 (a sweep's largest
# N), at least 2^20; the N = 1 run gets the same flag, so the table's baseline holds the bigger
# process table too.
build_elixir() {
  local p
  copy_src elixir || return 1
  for p in $(programs_of elixir); do
    launcher "$p" "$(command -v "$ELIXIR")" --erl "+P $(beam_procs)" "$pb/src/elixir/${p#elixir-}.exs" || return 1
  done
}
