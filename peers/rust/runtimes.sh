# peers/rust/runtimes.sh: Rust's toolchain, which the four Rust families share (rust-tokio,
# rust-async-std, rust-threads, rust-rayon): how it is found, where the crates come from, and the
# cargo build of a family's crate, against the crate sources of PEERS_PATCH where a set names them.
# Sourced by peers/lib.sh like every descriptor; it declares no runtime of its own.

# Its Debian packages: cargo and the Rust peers' crate sources.
family_toolchain rust rust cargo librust-tokio-dev librust-futures-dev librust-async-std-dev librust-rand-dev librust-sha2-dev librust-uuid-dev librust-rayon-dev librust-crossbeam-channel-dev
family_commands CARGO=cargo RUSTC=rustc

# detect_rust: Rust's toolchain, shared by the four Rust families.
detect_rust() {
  local out
  have "$CARGO" || { missing rust "\`$CARGO\`"; return 1; }
  out="$("$RUSTC" --version 2>&1 | head -n 1), $("$CARGO" --version 2>&1 | head -n 1)"
  first_version "$("$RUSTC" --version 2>&1)" >"$pw/ruststd.version" # the crates' groups: build_cargo writes what cargo resolved
  echo "$out"
}

# Rust: the four Rust families' build. build_cargo CRATE GROUP PREFIX [NAME]: builds a copy of
# peers/CRATE in release mode; in the debian mode, offline against Debian's crate sources through a
# config that exists only in that copy. The runtime column then names the version of crate NAME that
# cargo resolved. For a GROUP@SET, the copy is CRATE@SET and its Cargo.toml gets that set of
# PEERS_PATCH as [patch.crates-io] (a patch cargo does not use fails the build: patch_check); a
# program's binary is named without "@SET". $pw/GROUP.crate names the copy (the harness reads it).
build_cargo() {
  local set='' d p mode status v unused=''
  case $2 in *@*) set=${2##*@} ;; esac
  d=$pb/rust/$1${set:+@$set}
  echo "$d" >"$pw/$2.crate" || return 1
  mode=$(cat "$pw/cargo_mode" 2>/dev/null)
  [ -n "$mode" ] || mode=crates-io # std::thread alone: no crates, nothing to fetch
  mkdir -p "$d" && rm -rf "$d/src" && cp -Rp "$peers_dir/$1/src" "$peers_dir/$1/Cargo.toml" "$d/" || return 1
  [ -z "$set" ] || patch_section "$set" >>"$d/Cargo.toml" || return 1
  # A lock resolved against the other source, or other patches, names versions this build may not have.
  [ "$(cat "$d/.source" 2>/dev/null)" = "$mode ${set:+$(patch_set "$set")}" ] || rm -f "$d/Cargo.lock"
  echo "$mode ${set:+$(patch_set "$set")}" >"$d/.source"
  if [ "$mode" = debian ]; then
    mkdir -p "$d/.cargo" &&
      printf '[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "%s"\n' "$registry" >"$d/.cargo/config.toml" &&
      (cd "$d" && "$CARGO" build --release --offline --target-dir "$d/target")
  else
    rm -f "$d/.cargo/config.toml"
    (cd "$d" && "$CARGO" build --release --target-dir "$d/target")
  fi
  status=$?
  # A patch cargo did not use fails the build, and its label does not say patched.
  [ "$status" -ne 0 ] || [ -z "$set" ] || patch_check "$set" "$d/Cargo.lock" || status=1 unused=yes
  # Even after a failed build: the lock, once resolved, says which version failed.
  v=
  [ -z "${4:-}" ] || v=$(lock_version "$d/Cargo.lock" "$4")
  if [ -n "$set" ] && [ -n "$v" ]; then
    if [ -n "$unused" ]; then v="$v (PEERS_PATCH set $set not used)"; else v="$v $(patch_label "$set" "$4")"; fi
  fi
  [ -z "$v" ] || echo "$v" >"$pw/$2.version"
  # A lock resolved without the patch would keep cargo on that version once the source is fixed.
  [ -z "$unused" ] || rm -f "$d/Cargo.lock"
  [ "$status" -eq 0 ] || return 1
  for p in $(programs_of "$2"); do cp "$d/target/release/$(echo "${p#"$3"-}" | sed 's/@[0-9]*$//')" "$pb/bin/$p" || return 1; done
}

# patch_section SET: the [patch.crates-io] table of set SET, for a build copy's Cargo.toml only.
patch_section() {
  local w
  printf '\n[patch.crates-io]\n'
  for w in $(patch_set "$1"); do printf '%s = { path = "%s" }\n' "${w%%=*}" "${w#*=}"; done
}
# patch_check SET LOCK: each crate of set SET is in LOCK at the version of its source; one that is
# not was dropped by cargo (it only warns), so the build fails and its row says which.
patch_check() {
  local w name want got
  for w in $(patch_set "$1"); do
    name=${w%%=*} want=$(crate_field "${w#*=}/Cargo.toml" version) got=$(lock_version "$2" "$name")
    [ "$got" = "$want" ] || {
      if [ -n "$got" ]; then got="$name $got"; else got="no $name"; fi
      echo "error: patch not used: $name $want (PEERS_PATCH set $1), cargo resolved $got"
      return 1
    }
  done
}
# patch_label SET NAME: what the runtime column adds to the version of NAME under set SET:
# "(patched, COMMIT)" where NAME's source is a git checkout whose Cargo.toml git tracks, with
# "-dirty" when the source differs from that commit, else "(patched)"; never a path.
patch_label() {
  local w d commit=''
  for w in $(patch_set "$1"); do
    [ "${w%%=*}" = "$2" ] || continue
    d=${w#*=}
    # A crate copied into some other repository's tree is not that repository's commit.
    git -C "$d" ls-files --error-unmatch Cargo.toml >/dev/null 2>&1 || continue
    commit=$(git -C "$d" rev-parse --short=7 HEAD 2>/dev/null) || commit=
    [ -z "$commit" ] || [ -z "$(git -C "$d" status --porcelain -- . 2>/dev/null)" ] || commit=$commit-dirty
  done
  echo "(patched${commit:+, $commit})"
}
# crate_packages: the Debian packages of the Rust peers' crate sources (rust's line after cargo).
crate_packages() { printf '%s' "$toolchain_lines" | awk '$1 == "rust" { for (i = 4; i <= NF; i++) print $i }'; }

# cargo_mode GROUP: decides once where the crates come from: crates-io, or debian when crates.io
# cannot be reached and Debian's crate sources are installed; the section says which.
cargo_mode() {
  local crate=rust-tokio mode probe
  [ ! -s "$pw/cargo_mode" ] || return 0
  [ "$1" != asyncstd ] || crate=rust-async-std
  case $PEERS_CARGO in
    crates-io) mode=crates-io ;;
    debian) mode=debian; [ -n "$(ls "$registry" 2>/dev/null)" ] || install_toolchain rust $(crate_packages) || : ;;
    *)
      probe=$pw/probe
      mkdir -p "$probe" && cp -Rp "$peers_dir/$crate/src" "$peers_dir/$crate/Cargo.toml" "$probe/"
      echo "run.sh: --peers: asking crates.io for the Rust peers' crates" >&2
      if (cd "$probe" && CARGO_NET_RETRY=0 CARGO_HTTP_TIMEOUT=20 "$CARGO" fetch) >>"$pb/logs/cargo-probe.log" 2>&1 </dev/null; then
        mode=crates-io
      elif [ -n "$(ls "$registry" 2>/dev/null)" ] || { install_toolchain rust $(crate_packages) && [ -n "$(ls "$registry" 2>/dev/null)" ]; }; then
        mode=debian
        echo "crates.io could not be reached (log: PEERS_BUILD/logs/cargo-probe.log): the Rust peers were built offline from Debian's crate sources in $registry" >>"$pw/notes"
      else
        mode=crates-io # the build fails and its row says why
        echo "crates.io could not be reached and $registry is empty: $(install_hint rust) gives the Rust peers Debian's crate sources" >>"$pw/notes"
      fi ;;
  esac
  echo "$mode" >"$pw/cargo_mode"
  # After every toolchain's own line in the section.
  if [ "$mode" = debian ]; then
    echo "- rust crates: Debian's sources in $registry, built offline" >>"$pw/tools.last"
  else
    echo "- rust crates: crates.io (or cargo's cache)" >>"$pw/tools.last"
  fi
}
