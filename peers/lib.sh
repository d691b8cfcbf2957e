#!/usr/bin/env bash
# peers/lib.sh: what a descriptor (peers/FAMILY/runtimes.sh, see peers/README.md, "Adding a runtime") declares and
# calls. harness/peers.py runs `bash peers/lib.sh FUNCTION ARGS...`, which sources every descriptor and calls FUNCTION:
# `tables` to read the declarations, or a descriptor's detect_, ready_ or build_ function, in an environment that
# names the build's directories (pb: PEERS_BUILD, pw: this run's notes and versions), the commands, the programs to
# build (peer_programs) and the sets of PEERS_PATCH, PEERS_DOTNET and PEERS_GO (patch_sets).

nl=$'\n'
group_lines='' program_lines='' toolchain_lines='' peer_commands='' peer_threads='' peer_knobs='ours --threads T' profile_lines=''
family_runtime() { group_lines="$group_lines$1$nl"; }
family_programs() { local lines; IFS= read -r -d '' lines || :; program_lines=$program_lines$lines; }
family_threads() {
  [ $# -eq 2 ] || { echo "run.sh: peers/$family/runtimes.sh: family_threads takes two texts, the default threads and the knob" >&2; return 1; }
  peer_threads="$peer_threads${peer_threads:+; }$1" peer_knobs="$peer_knobs; $2"
}
family_toolchain() { toolchain_lines="$toolchain_lines$*$nl"; }
family_commands() { peer_commands="$peer_commands${peer_commands:+ }$*"; }
# family_profile GROUP 'VAR=VALUE': what run.sh --profile sets in GROUP's environment so that perf can name the frames
# its runtime compiles as it runs (VALUE is appended where VAR is set already, as the threads knob may).
family_profile() { profile_lines="$profile_lines$1 $2$nl"; }

# Ours: one line per scenario and variant, first in each scenario (group "ours": ./SCENARIO, built by make; the
# variant key is passed as --sync VARIANT).
family_programs <<'EOF'
threads        | threads        | ours | -       | -       | - | - | std::thread per task
coro_timer     | coro_timer     | ours | -       | -       | - | - | job + co_await d
coro_shared    | coro_shared    | ours | -       | -       | - | - | job per task, co_await one event
atomic_counter | atomic_counter | ours | -       | counter | - | - | job loop + co_await d
running_avg    | running_avg    | ours | mutex   | start   | - | - | mutex: job per task; bench::mutex
running_avg    | running_avg    | ours | channel | start   | - | - | channel: job per task; a channel to one consumer
hash_collect   | hash_collect   | ours | mutex   | start   | - | - | mutex: job per task; bench::mutex
hash_collect   | hash_collect   | ours | channel | start   | - | - | channel: job per task; a channel to one consumer
EOF

# The families, in this order (the order of PEERS, of the groups, and of each table's rows), then any other folder
# with a descriptor, in name order.
peer_families="rust floor go csharp rust-tokio rust-async-std rust-threads rust-rayon node python elixir erlang java haskell nim asio"
peers_dir=$(cd "${BASH_SOURCE[0]%/*}" && pwd)
for f in $peer_families "$peers_dir"/*/runtimes.sh; do
  case $f in */runtimes.sh) [ -f "$f" ] || continue; f=${f%/runtimes.sh} f=${f##*/}; case " $peer_families " in *" $f "*) continue ;; esac; peer_families="$peer_families $f" ;; esac
  family=$f
  # shellcheck source=/dev/null
  . "$peers_dir/$f/runtimes.sh" || { echo "run.sh: could not load $peers_dir/$f/runtimes.sh" >&2; exit 1; }
done

# tables: the declarations for harness/peers.py (which gives each call the commands), each after a line "@@ KIND".
tables() {
  printf '@@ families\n%s\n@@ groups\n%s@@ programs\n%s@@ toolchains\n%s@@ commands\n%s\n@@ threads\n%s\n@@ knobs\n%s\n@@ profile\n%s' \
    "$peer_families" "$group_lines" "$program_lines" "$toolchain_lines" "$peer_commands" "$peer_threads" "$peer_knobs" \
    "$profile_lines"
}

# What the harness tells each call: the programs to build, "GROUP PROGRAM CLASS" a line (peer_programs), and the sets
# of PEERS_PATCH, PEERS_DOTNET and PEERS_GO, one a line (patch_sets). A note may name a group's runtime column as
# @R:GROUP@: the harness writes it in, with the version the build found.
programs_of() { printf '%s\n' "${peer_programs:-}" | while read -r g p _; do [ "$g" != "$1" ] || echo "$p"; done; }
java_class() { printf '%s\n' "${peer_programs:-}" | while read -r _ p c; do [ "$p" != "$1" ] || { echo "$c"; break; }; done; }
patch_set() { printf '%s\n' "${patch_sets:-}" | sed -n "${1}p"; }

# have COMMAND: COMMAND can be run.
have() { command -v "$1" >/dev/null 2>&1; }

# missing TOOLCHAIN WHAT: lists a missing toolchain (once) with the command that installs it; not while probing (the
# first, quiet look before an install).
missing() {
  local line
  [ -z "${probing:-}" ] || return 0
  line="$1: $2 not found; install: $(install_hint "$1")"
  echo "run.sh: --peers: $line" >&2
  echo "$line" >>"$pw/missing"
}

# packages TOOLCHAIN: its Debian packages or npm:NAME@VERSION (its family_toolchain words after the formula).
packages() { printf '%s' "$toolchain_lines" | awk -v t="$1" '$1 == t { $1 = $2 = ""; sub(/^ +/, ""); print }'; }

# install_hint TOOLCHAIN: the command that installs it on this OS.
install_hint() {
  local pkgs
  pkgs=$(packages "$1")
  case $pkgs in npm:*) echo "npm install --prefix PEERS_BUILD/npm ${pkgs#npm:}"; return ;; esac
  if [ "$(uname -s)" = Darwin ]; then
    echo "brew install $(printf '%s' "$toolchain_lines" | awk -v t="$1" '$1 == t { print $2 }')"
  else
    [ "$(id -u)" = 0 ] || printf 'sudo '
    printf '%s' "apt-get install $pkgs"
    [ "$1" != dotnet ] || printf ' (on Debian, after adding Microsoft'"'"'s package repository: %s)' \
      https://learn.microsoft.com/dotnet/core/install/linux-debian
    echo
  fi
}

# first_version TEXT: the first dotted version number in TEXT ("v20.20.2", "go1.19.8" and 'openjdk version "17.0.15"
# 2025-04-15' give 20.20.2, 1.19.8 and 17.0.15).
first_version() { printf '%s\n' "$1" | sed -n 's/^[^0-9]*\([0-9][0-9]*\(\.[0-9][0-9]*\)*\).*/\1/p' | head -n 1; }

# lock_version CARGO_LOCK CRATE: the version of CRATE that cargo resolved, "" when absent.
lock_version() { awk -v c="$2" '$0 == "name = \"" c "\"" { getline; if ($1 == "version") { gsub(/"/, "", $3); print $3 }; exit }' "$1" 2>/dev/null; }
# crate_field CARGO_TOML KEY: KEY (name, version) of its [package], its quotes taken off.
crate_field() { awk -v k="$2" '/^\[/ { in_pkg = $0 == "[package]" } in_pkg && $1 == k && $2 == "=" { v = $3; gsub(/"/, "", v); print v; exit }' "$1"; }

# detect TOOLCHAIN: 0 when it is installed; then writes the version of its groups (the runtime column's @V@, in
# $pw/GROUP.version) and a line naming its version for the section. Otherwise lists it as missing and returns 1.
detect() {
  local out
  [ "$(type -t "detect_$1")" = function ] || { echo "run.sh: --peers: no descriptor defines detect_$1" >&2; exit 1; }
  out=$("detect_$1") || return 1
  echo "- $1: $out" >>"$pw/tools"
}

# detect_by_version TOOLCHAIN GROUP COMMAND: the usual detect_TOOLCHAIN: the first line of `COMMAND --version` is the
# toolchain's line, and its first version number GROUP's.
detect_by_version() {
  local out
  have "$3" || { missing "$1" "\`$3\`"; return 1; }
  out=$("$3" --version 2>&1 | head -n 1)
  first_version "$out" >"$pw/$2.version"
  echo "$out"
}

# install_toolchain TOOLCHAIN [PACKAGE...]: unless PEERS_INSTALL=no, installs TOOLCHAIN's packages (or the PACKAGEs):
# npm's into PEERS_BUILD/npm (never globally) as any user, Debian's as root where apt-get is; logged in
# PEERS_BUILD/logs/install-TOOLCHAIN.log, and the section says so, naming it tc_label where the caller sets one (the
# Go of PEERS_GO). A toolchain apt cannot give (dotnet needs Microsoft's repository) stays missing.
install_toolchain() {
  local tc=$1 pkgs how
  shift
  [ "$PEERS_INSTALL" != no ] || return 1
  pkgs=$(packages "$tc")
  case $pkgs in
    npm:*)
      pkgs=${pkgs#npm:} how="npm install --prefix PEERS_BUILD/npm $pkgs"
      have npm || { echo "run.sh: --peers: $tc needs npm to be installed ($how)" >&2; return 1; }
      echo "run.sh: --peers: $tc is missing; installing $pkgs from the npm registry into $pb/npm (PEERS_INSTALL=no turns this off)" >&2
      set -- npm install --prefix "$pb/npm" --no-audit --no-fund "$pkgs" ;;
    *)
      [ "$(id -u)" = 0 ] && have apt-get || return 1
      [ "$tc" != dotnet ] || return 1 # not in Debian's archive: Microsoft's repository is the user's call
      pkgs=${*:-$pkgs} how="apt-get install ${*:-$pkgs}"
      echo "run.sh: --peers: ${tc_label:-$tc} is missing; installing $pkgs with apt-get (PEERS_INSTALL=no turns this off)" >&2
      set -- apt_install $pkgs ;;
  esac
  if "$@" >>"$pb/logs/install-$tc.log" 2>&1 </dev/null; then
    echo "${tc_label:-$tc}: installed by run.sh ($how)" >>"$pw/notes"
  else
    echo "run.sh: --peers: ${how%% *} install $pkgs failed (log: $pb/logs/install-$tc.log)" >&2
    return 1
  fi
}

# apt_install PACKAGE...: a fresh image has no package lists yet: update only when the plain install fails.
apt_install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" ||
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"; }
}

# apt_backports PACKAGE LOG: where no suite of apt's sources has PACKAGE, even after an update, and this is Debian,
# adds the release's backports suite (Go 1.23 is in bookworm-backports only) and updates again (its output to LOG):
# kept, and said in the notes, where it has PACKAGE; else taken out again, so that apt is left as it was (status 1).
apt_backports() {
  local codename etc=${apt_etc:-/etc/apt} list  # apt_etc: the tests' own
  list=$etc/sources.list.d
  apt_has "$1" && return 0
  apt-get update >>"$2" 2>&1 </dev/null
  apt_has "$1" && return 0
  codename=$(. /etc/os-release 2>/dev/null && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}")
  [ -n "$codename" ] && ! grep -qs -- "$codename-backports" "$etc/sources.list" "$list"/*.list "$list"/*.sources ||
    return 0
  list=$list/$codename-backports.list
  echo "run.sh: --peers: no suite of apt's sources has $1; adding Debian's $codename-backports to them ($list)" >&2
  echo "deb http://deb.debian.org/debian $codename-backports main" >"$list" || return 1
  apt-get update >>"$2" 2>&1 </dev/null
  if apt_has "$1"; then
    echo "apt: run.sh added Debian's $codename-backports suite to apt's sources ($list), for $1" >>"$pw/notes"
    return 0
  fi
  # Not there either (or the suite cannot be fetched, which would fail every later update): taken out again.
  echo "run.sh: --peers: $codename-backports has no $1 either; taking it out of apt's sources again" >&2
  rm -f "$list" && apt-get update >>"$2" 2>&1 </dev/null
  return 1
}
apt_has() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }

# copy_src DIR [COPY]: a fresh copy of peers/DIR as $pb/src/COPY (default: DIR; times kept, so unchanged sources stay
# older than what was built from them), without the bin/ and obj/ that a build by hand in peers/ may have left.
copy_src() {
  local to=${2:-$1}
  rm -rf "${pb:?}/src/${to:?}" && mkdir -p "$pb/src" && cp -Rp "$peers_dir/$1" "$pb/src/$to" &&
    rm -rf "$pb/src/$to"/*/bin "$pb/src/$to"/*/obj
}

# launcher PROGRAM COMMAND...: $pb/bin/PROGRAM, a script that execs COMMAND "$@" (exec: the runtime itself is the
# process /usr/bin/time measures).
launcher() {
  local out=$pb/bin/$1 line=exec a
  shift
  for a in "$@"; do line="$line '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
  printf '#!/bin/sh\n%s "$@"\n' "$line" >"$out" && chmod +x "$out"
}

# beam_procs: the BEAM's +P for this run: N + 1024 (a sweep's largest N), at least 2^20.
beam_procs() {
  local procs=$((${N:-${sweep_ns##* }} + 1024))
  echo $((procs > 1048576 ? procs : 1048576))
}

# The C++ groups (Boost.Asio, the floor): compiled again only when the source or the compiler changed; into a
# temporary file first, so an interrupted build never leaves a binary that looks up to date.
build_cxx() {
  local p src stamp
  copy_src "$1" || return 1
  stamp="$CXX -O2 -std=c++20 -pthread | $("$CXX" --version 2>&1 | head -n 1)"
  [ "$(cat "$pb/$1.stamp" 2>/dev/null)" = "$stamp" ] || rm -f "$pb/bin/$1"-*
  for p in $(programs_of "$1"); do
    src=$pb/src/$1/${p#"$1"-}.cpp
    [ "$pb/bin/$p" -nt "$src" ] && continue
    "$CXX" -O2 -std=c++20 -pthread -o "$pb/bin/$p.tmp" "$src" && mv "$pb/bin/$p.tmp" "$pb/bin/$p" || return 1
  done
  echo "$stamp" >"$pb/$1.stamp"
}

# ready GROUP and build GROUP: the group's ready_ function where it has one, and its build; a copy GROUP@SET (for a
# set of PEERS_PATCH, PEERS_DOTNET or PEERS_GO) by its group's functions, given GROUP@SET (a Rust copy is never
# given to ready: the harness checks its set).
ready() { [ "$(type -t "ready_${1%@*}")" != function ] || "ready_${1%@*}" "$1"; }
build() { "build_${1%@*}" "$1"; }

# Called by the harness: FUNCTION ARGS...
[ "${BASH_SOURCE[0]}" != "$0" ] || [ $# -eq 0 ] || "$@"
