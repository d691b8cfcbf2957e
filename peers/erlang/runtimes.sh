# peers/erlang/runtimes.sh: Raw Erlang processes on the BEAM, compiled by erlc.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain erlang erlang erlang-base
family_commands ERL=erl ERLC=erlc
family_runtime 'erlang | erlang | erlang | erlang/OTP @V@ | ERL_FLAGS=+S@T@:@T@ | -'
# The BEAM's JIT (OTP 24 on) writes /tmp/perf-PID.map, which names the code it compiles for perf.
family_profile erlang 'ERL_FLAGS=+JPperf true'
family_threads 'Erlang: one BEAM scheduler per core' \
  'Erlang +S T:T (ERL_FLAGS)'
family_programs <<'EOF'
coro_timer  | erlang-coro_timer  | erlang | - | - | - | - | spawn + receive after, a message to main each
coro_shared | erlang-coro_shared | erlang | - | - | - | - | spawn, each monitors one timer process
EOF

detect_erlang() {
  local v
  have "$ERL" || { missing erlang "\`$ERL\`"; return 1; }
  have "$ERLC" || { missing erlang "\`$ERLC\`"; return 1; }
  v=$("$ERL" -noshell -eval 'io:format("~s ~s", [erlang:system_info(otp_release), erlang:system_info(version)]), halt().' 2>&1)
  # An erl that cannot start prints an error, not "25 13.1.5".
  case $v in [0-9]*' '[0-9]*) ;; *) missing erlang "a working \`$ERL\`"; return 1 ;; esac
  echo "${v%% *}" >"$pw/erlang.version"
  echo "Erlang/OTP ${v%% *}, erts ${v#* }"
}

# Raw Erlang processes: each program compiled by erlc, run by erl with the same +P as Elixir's.
build_erlang() {
  local p
  copy_src erlang && rm -rf "$pb/erlang" && mkdir -p "$pb/erlang" || return 1
  for p in $(programs_of erlang); do
    "$ERLC" -o "$pb/erlang" "$pb/src/erlang/${p#erlang-}.erl" &&
      launcher "$p" "$(command -v "$ERL")" -noshell +P "$(beam_procs)" -pa "$pb/erlang" -run "${p#erlang-}" main -extra || return 1
  done
  echo "erlang: raw processes (spawn), +P raised to N + 1024 (at least 2^20) as for Elixir, the BEAM's default limit being 262,144 processes; the N = 1 run gets the same flag" >>"$pw/notes"
}
