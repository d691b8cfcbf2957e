# peers/peers.sh: the other runtimes of `./run.sh --peers`: the machinery that finds each toolchain,
# builds the programs (release mode, in PEERS_BUILD, never in this tree) and gives harness/plan.py
# the tables a peers run is planned from (run.sh's plan_py passes them). Each family of programs is
# one folder, peers/FAMILY, with its programs and its descriptor, runtimes.sh, sourced below.
# run.sh sources this file (and .ci/run, for crate_packages); sourcing only defines variables and
# functions. They use run.sh's settings (N, sweep_ns, scenarios, PEERS, work, tab, os_kind), its
# state (best_summary: peer_facts) and its bad, is_count and field_to; prepare_peers leaves in $pw the section's lines (tools, notes,
# missing), each group's state and the versions of the runtime column.
# Written for macOS's bash 3.2 and BSD tools too, like run.sh: no arrays, no GNU-only flags.
#
# Adding a runtime: a folder peers/FAMILY with its programs and a runtimes.sh, or a runtime line and
# its programs in an existing family's runtimes.sh; the plan, the run and the section need no more.
# A descriptor declares, with the family_* functions below:
#   family_runtime 'GROUP | PEERS name | toolchain | runtime column | threads knob | fixed threads'
#       a build group: its programs are built together (build_GROUP). The runtime column's @V@ is
#       the version that detect or the build found (dropped when none was); the threads knob is the
#       environment that sets the worker count to @T@ under THREADS, "-" for a runtime that has
#       none, whose threads cell is then its fixed threads ("one per task": capped at THREAD_CAP).
#   family_programs <<'EOF' ... EOF
#       a line per program and variant: scenario | program | group | variant key | options |
#       chart suffix | Java class | variant. program: built as $pb/bin/PROGRAM by build_GROUP;
#       variant key: mutex or channel in running_avg and hash_collect, whose programs take PROGRAM
#       N VARIANT; options: the write-ups' variants it takes: counter (atomic_counter's --hits,
#       --mode, --spawn-from, --poll-ms, --burst, --burst-pause-ms), start (--start gated|eager),
#       "-" for none (a program with one shape only); chart suffix: what tells the program's line or
#       bar from another of its runtime's; Java class: its main class; variant: the table's words
#       for what it does.
#   family_threads 'DEFAULT' 'KNOB'
#       how many threads its runtimes run by default, and what THREADS sets (the section's Threads line).
#   family_toolchain NAME FORMULA PACKAGE... and family_commands VAR=default...
#       a toolchain of its own: its Homebrew formula and its Debian packages (or npm:NAME@VERSION,
#       installed into PEERS_BUILD/npm, never globally), and the commands the environment may name.
# and defines the functions:
#   build_GROUP: builds each program of `programs_of GROUP` as $pb/bin/PROGRAM, a binary or a
#     `launcher`, from a copy of its sources (copy_src DIR); a non-zero status is a failed build,
#     whose rows say why. Optional: ready_GROUP, run before the build, returns 1 to skip the group
#     after a line in $pw/notes saying why.
#   detect_TOOLCHAIN, for a toolchain of its own: `missing` when the command is absent, else the
#     version line on stdout and each group's version in $pw/GROUP.version (detect_by_version does
#     this for a command whose `--version` says it in its first line).
# Every program takes PROGRAM N SLEEP_MS (or the variant), checks its own work and prints one
# scenario= line; tests/peers_test.sh adds a runtime this way and checks its rows.

# The descriptors' declarations, gathered in the families' order: each adds to these.
group_lines='' program_lines='' toolchain_lines='' peer_commands='' peer_threads='' peer_knobs='ours --threads T'
family_runtime() { group_lines="$group_lines$1"$'\n'; }
family_programs() {
  local lines
  IFS= read -r -d '' lines || : # the here-document, whole; no process (sourcing runs it for each family)
  program_lines=$program_lines$lines
}
family_threads() {
  [ $# -eq 2 ] || { echo "run.sh: peers/$family/runtimes.sh: family_threads takes two texts, the default threads and the knob" >&2; return 1; }
  peer_threads="$peer_threads${peer_threads:+; }$1" peer_knobs="$peer_knobs; $2"
}
family_toolchain() { toolchain_lines="$toolchain_lines$*"$'\n'; }
family_commands() { peer_commands="$peer_commands${peer_commands:+ }$*"; }

# Ours: one line per scenario and variant, first in each scenario (group "ours": ./SCENARIO, built
# by make; the variant key is passed as --sync VARIANT).
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

# Rust's toolchain, shared by the four Rust families (build_cargo, below): its Debian packages are
# cargo and the Rust peers' crate sources.
family_toolchain rust rust cargo librust-tokio-dev librust-futures-dev librust-async-std-dev librust-rand-dev librust-sha2-dev librust-uuid-dev librust-rayon-dev librust-crossbeam-channel-dev
family_commands CARGO=cargo RUSTC=rustc

# The families, in this order (the order of PEERS, of the groups, and of each table's rows), then
# any other folder with a descriptor, in name order.
peer_families="floor go csharp rust-tokio rust-async-std rust-threads rust-rayon node python elixir erlang java haskell nim asio"
# read_descriptors: sources each family's descriptor; a missing one is an error.
read_descriptors() {
  local LC_ALL=C f # the other folders in name order, whatever the user's locale
  for family in $peer_families; do
    # shellcheck source=/dev/null
    . "$peers_dir/$family/runtimes.sh" || { echo "run.sh: could not load $peers_dir/$family/runtimes.sh" >&2; return 1; }
  done
  for f in "$peers_dir"/*/runtimes.sh; do
    [ -f "$f" ] || continue
    family=${f%/runtimes.sh} && family=${family##*/}
    case " $peer_families " in *" $family "*) continue ;; esac
    # shellcheck source=/dev/null
    . "$f" || { echo "run.sh: could not load $f" >&2; return 1; }
    peer_families="$peer_families $family"
  done
  family=''
}
case ${BASH_SOURCE[0]} in */*) peers_dir=${BASH_SOURCE[0]%/*} ;; *) peers_dir=. ;; esac
family=''
read_descriptors || return 1
peer_knobs="$peer_knobs; a runtime without a knob runs once, at the first T"

# peer_toolchains: one line per toolchain: name, Homebrew formula, Debian/Ubuntu packages, or npm
# packages (npm:NAME@VERSION), which go into PEERS_BUILD/npm, never globally.
peer_toolchains() { printf '%s' "$toolchain_lines"; }

# The toolchains' commands (peer_commands), VARIABLE=default: the environment may name others.
# "npm": the one run.sh installs in PEERS_BUILD/npm (npm_tool), else the command of that name on PATH.

# The sleep of coro_timer and coro_shared under --peers when SLEEP_MS is unset. Longer than the
# slowest runtime here took to spawn 1M tasks (Python and Elixir: 15-24 s): a task that ends before
# the last one is spawned frees memory that the max RSS then never holds, so every task must still
# be waiting when spawning ends. Each row says whether it was (the "all alive" column).
peers_sleep_ms=30000

# The tables' columns are separated by " | ". tables_read reads both once, in one awk, into
# groups_tab and catalogue_tab (a line each, tab-separated, padding gone): the catalogue's lines
# grouped by scenario in the order each scenario first appears (ours first), and for each set of
# PEERS_PATCH a copy of every Rust group's lines, for each version of PEERS_DOTNET a copy of both C#
# groups': group GROUP@SET, program PROGRAM@SET, built against that set's crate sources or for that
# .NET (build_patched). The copies follow their group's last line, so that a patched row sits
# beside the unpatched ones. The Rust and C# groups: those whose toolchain is rust or dotnet. The
# readers below run for every row run_plan runs, and use no other program where they can. With
# "names" (when sourced, before any copy) it also sets peer_scenarios and peer_names: the
# scenarios that have peers and the names PEERS knows, in catalogue order.
rust_groups='' dotnet_groups=''
while IFS='|' read -r g _ family _; do
  g=${g// /} family=${family// /} # names have no spaces: the padding goes
  case $family in rust) rust_groups="$rust_groups $g" ;; dotnet) dotnet_groups="$dotnet_groups $g" ;; esac
done <<GROUPS
$group_lines
GROUPS
unset g
patch_sets='' # the sets, one a line: PEERS_PATCH's NAME=DIRECTORY words, then dotnet=VERSION (patch_settings)
tables_read() {
  local all sc nm nl=$'\n' kinds='' set
  while IFS= read -r set; do
    case $set in '') ;; dotnet=*) kinds="$kinds dotnet" ;; *) kinds="$kinds rust" ;; esac
  done <<SETS
$patch_sets
SETS
  all=$(awk -F ' *[|] *' -v OFS='\t' -v kinds="$kinds" -v rust=" $rust_groups " -v dotnet=" $dotnet_groups " '
    BEGIN { sets = split(kinds, set_kind, " ") }
    # put LINE GROUP-COLUMN: LINE into out, then its copies once the lines of its group have ended.
    function put(line, col,   f, of) {
      split(line, f, "\t")
      if (n && f[col] != last) flush(col)
      out = out line "\n"
      of = index(rust, " " f[col] " ") ? "rust" : index(dotnet, " " f[col] " ") ? "dotnet" : ""
      if (of != "") { copies[++n] = line; last = f[col]; copied = of }
    }
    function flush(col,   set, i, k, f, j, s) {
      for (set = 1; set <= sets; set++) if (set_kind[set] == copied) for (i = 1; i <= n; i++) {
        k = split(copies[i], f, "\t"); s = ""
        for (j = 1; j <= k; j++) s = s (j > 1 ? "\t" : "") f[j] (j == col || (col == 3 && j == 2) ? "@" set : "")
        out = out s "\n"
      }
      n = 0
    }
    $0 == "" { next }
    $0 == "@@" { if (n) flush(1); groups = out; out = ""; cat = 1; next }
    { $1 = $1 }
    cat { if (!($1 in lines)) { order[++m] = $1; sc = sc (sc == "" ? "" : " ") $1 } lines[$1] = lines[$1] $0 "\n"; next }
    { put($0, 1); if (!seen_n[$2]++) nm = nm (nm == "" ? "" : " ") $2 }
    END {
      for (i = 1; i <= m; i++) { k = split(lines[order[i]], rows, "\n"); for (j = 1; j < k; j++) put(rows[j], 3) }
      if (n) flush(3)
      printf "%s\n%s\n%s@@\n%s", sc, nm, groups, out
    }' <<<"$group_lines@@
$program_lines")
  sc=${all%%"$nl"*} all=${all#*"$nl"}
  nm=${all%%"$nl"*} all=${all#*"$nl"}
  [ "${1:-}" != names ] || peer_scenarios=$sc peer_names=$nm
  groups_tab=${all%%"$nl"@@*} catalogue_tab=${all#*@@"$nl"}
}
# catalogue SCENARIO: its programs, ours first, as tab-separated program, group, variant key,
# options, chart suffix and variant.
catalogue() {
  printf '%s\n' "$catalogue_tab" | awk -F '\t' -v s="$1" '$1 == s { printf "%s\t%s\t%s\t%s\t%s\t%s\n", $2, $3, $4, $5, $6, $8 }'
}
# groups_column K: column K of every group line (groups_tab).
groups_column() { printf '%s\n' "$groups_tab" | awk -F '\t' -v k="$1" '{ print $k }'; }
# programs_of GROUP: the programs of GROUP that the chosen scenarios need.
programs_of() {
  printf '%s\n' "$catalogue_tab" | awk -F '\t' -v g="$1" -v sel=" $scenarios " '$3 == g && index(sel, " " $1 " ") && !seen[$2]++ { print $2 }'
}
# catalogue_column K PROGRAM: column K of PROGRAM's first catalogue line (3: its group; 7: the main
# class of a Java peer).
catalogue_column() { local v; catalogue_row_to v "$2" - && printf '%s\n' "$v" | cut -f"$1"; }
java_class() { catalogue_column 7 "$1"; }
# catalogue_row_to VAR PROGRAM KEY: VAR set to PROGRAM's first catalogue line of variant key KEY
# ("-": any), tab-separated as catalogue_tab has it, "" without one (no process: replicate_settings
# reads it for every row of a replication).
catalogue_row_to() {
  local _line _rest _p _k
  while IFS= read -r _line; do
    _rest=${_line#*"$tab"} && _p=${_rest%%"$tab"*}
    [ "$_p" = "$2" ] || continue
    _rest=${_rest#*"$tab"} && _rest=${_rest#*"$tab"} && _k=${_rest%%"$tab"*}
    [ "$3" = - ] || [ "$_k" = "$3" ] || continue
    printf -v "$1" '%s' "$_line"
    return
  done <<CATALOGUE
$catalogue_tab
CATALOGUE
  printf -v "$1" '%s' ''
}
# group_field_to VAR K GROUP: VAR set to column K of GROUP's line, "" without one (no process:
# it runs for every row run_plan runs; see run.sh's field_to).
group_field_to() {
  local _g _c2 _c3 _c4 _c5 _c6 _rest
  while IFS=$'\t' read -r _g _c2 _c3 _c4 _c5 _c6 _rest; do
    [ "$_g" != "$3" ] || { case $2 in 1) _g=$_g ;; 2) _g=$_c2 ;; 3) _g=$_c3 ;; 4) _g=$_c4 ;; 5) _g=$_c5 ;; 6) _g=$_c6 ;; esac; printf -v "$1" '%s' "$_g"; return; }
  done <<GROUPS
$groups_tab
GROUPS
  printf -v "$1" '%s' ''
}
# toolchain_of GROUP: the toolchain a group needs.
toolchain_of() { local v; group_field_to v 3 "$1"; echo "$v"; }
# runtime_label GROUP: the runtime column of GROUP, with the version detect or the build wrote in
# $pw/GROUP.version (none before prepare_peers, as under --plan); ours is "c++20 (this repo)".
runtime_label_to() {
  local _v='' _r
  [ "$2" != ours ] || { printf -v "$1" '%s' "c++20 (this repo)"; return; }
  [ -z "${pw:-}" ] || { read -r _v <"$pw/$2.version"; } 2>/dev/null
  group_field_to _r 4 "$2"
  if [ -z "$_v" ]; then _r=${_r/ @V@/} _r=${_r/@V@/}; else _r=${_r/@V@/"$_v"}; fi
  printf -v "$1" '%s' "$_r"
}
runtime_label() { local v; runtime_label_to v "$@"; echo "$v"; }

tables_read names

# Where a JDK of 21 or newer (virtual threads) is looked for after JAVA_HOME, before PATH.
default_jdks="/usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home"

# peers_usage: the --help lines of the peers' environment.
peers_usage() {
  cat <<EOF
  PEERS="$peer_names"
                      the runtimes --peers compares with ours (java includes its virtual threads)
  PEERS_BUILD=\${XDG_CACHE_HOME:-\$HOME/.cache}/bench-peers
                      where --peers copies, builds and keeps the peers (never inside this tree)
  PEERS_CARGO=auto    auto: crates.io, or Debian's crate sources when crates.io cannot be reached;
                      crates-io or debian to choose; PEERS_CARGO_REGISTRY=/usr/share/cargo/registry
  PEERS_INSTALL=auto  auto: a missing toolchain is installed before the run: as root where apt-get
                      is, with apt-get (and the Rust peers' crate sources); Bun, Deno and the
                      current Node (Linux x64) with npm into PEERS_BUILD/npm, as any user; no: never
  PEERS_JDKS="$default_jdks"
                      where the Java virtual-thread peers look for a JDK >= 21: JAVA_HOME first,
                      then the newest of these, then the javac on PATH
  PEERS_PATCH="tokio=DIR [CRATE=DIR ...][; tokio=DIR2 ...]"
                      builds the Rust peers again against these crates' source trees, one copy per
                      set (sets separated by ";"), through [patch.crates-io] in that copy only; each
                      set's rows sit beside the unpatched ones, labelled with the version its
                      Cargo.lock holds (and the commit of a git checkout); a patch that cargo
                      drops fails that set's build, and its rows say so
  PEERS_DOTNET="9.0 [8.0 ...]"
                      builds the C# peers again for each of these .NETs (the build copy's
                      TargetFramework, packs from NuGet; the JIT ones self-contained), their rows
                      beside .NET 10's
  PEER_TIMEOUT=S      each --peers run is stopped after S seconds and its row says so (default:
                      the larger of 60 s and 10 x the rounds of sleep the scenario needs)
EOF
  # The command variables on one line, their defaults below, wrapped at 100 columns.
  printf '%s\n' "$peer_commands" | awk '{
      for (i = 1; i <= NF; i++) { split($i, kv, "="); names = names (i > 1 ? " " : "") kv[1]; defaults = defaults (i > 1 ? " " : "") kv[2] }
      print "  " names
      n = split("the toolchain commands --peers uses (default: " defaults "; npm: the one run.sh installs from the npm registry in PEERS_BUILD/npm)", w, " ")
      for (i = 1; i <= n; i++) {
        if (line != "" && 22 + length(line) + 1 + length(w[i]) > 100) { printf "%22s%s\n", "", line; line = "" }
        line = line (line == "" ? "" : " ") w[i]
      }
      printf "%22s%s\n", "", line
    }'
}

# peers_settings: the peers' environment, checked like run.sh's own (bad values exit 2): PEERS,
# PEERS_CARGO, the crate registry and the toolchain commands (their defaults where unset).
peers_settings() {
  local kv p v
  PEERS_CARGO=${PEERS_CARGO:-auto} PEERS_INSTALL=${PEERS_INSTALL:-auto}
  PEERS_JDKS=${PEERS_JDKS-$default_jdks}
  case $PEERS_INSTALL in auto | no) ;; *) bad "PEERS_INSTALL must be auto or no, got '$PEERS_INSTALL'" ;; esac
  case $PEERS_CARGO in auto | crates-io | debian) ;; *) bad "PEERS_CARGO must be auto, crates-io or debian, got '$PEERS_CARGO'" ;; esac
  for kv in $peer_commands; do v=${kv%%=*} && printf -v "$v" '%s' "${!v:-${kv#*=}}"; done
  registry=${PEERS_CARGO_REGISTRY:-/usr/share/cargo/registry}
  [ -z "${PEER_TIMEOUT:-}" ] || is_count "$PEER_TIMEOUT" ||
    bad "PEER_TIMEOUT must be a whole number of seconds >= 1, got '$PEER_TIMEOUT'"
  PEERS=${PEERS-$peer_names}
  for p in $PEERS; do
    case " $peer_names " in *" $p "*) ;; *) bad "PEERS: unknown runtime '$p' (allowed: $peer_names)" ;; esac
  done
  patch_settings
}

# patch_settings: PEERS_PATCH="tokio=DIR pin-project-lite=DIR2; tokio=DIR3": sets separated by ";",
# each one or more CRATE=DIRECTORY, each directory (relative to where the user stands) the source of
# that crate: its Cargo.toml's [package] names it and gives its version. Each set becomes a build of
# the Rust peers against those sources (build_patched). Then PEERS_DOTNET="9.0 8.0": each version a
# set "dotnet=VERSION", a build of the C# peers for that .NET. Anything else: exit 2, one line.
patch_settings() {
  local set word name dir toml pkg v
  patch_sets=
  [ -n "${PEERS_PATCH:-}${PEERS_DOTNET:-}" ] || return 0
  while IFS= read -r set; do
    [ -n "$(echo $set)" ] || continue
    for word in $set; do
      name=${word%%=*} dir=${word#*=}
      case $word in *=?*) ;; *) bad "PEERS_PATCH: '$word' is not CRATE=DIRECTORY (sets are separated by ';')" ;; esac
      case $name in '' | *[!A-Za-z0-9_-]*) bad "PEERS_PATCH: '$name' is not a crate's name" ;; esac
      case " $set " in *" $name="*" $name="*) bad "PEERS_PATCH: a set names $name twice: $set" ;; esac
      dir=$(cd "$dir" 2>/dev/null && pwd) || bad "PEERS_PATCH: no directory ${word#*=} for $name"
      toml=$dir/Cargo.toml
      [ -f "$toml" ] || bad "PEERS_PATCH: ${word#*=} holds no crate $name (no Cargo.toml there)"
      pkg=$(crate_field "$toml" name)
      [ "$pkg" = "$name" ] || bad "PEERS_PATCH: ${word#*=} holds no crate $name (its Cargo.toml's package is ${pkg:-none})"
      [ -n "$(crate_field "$toml" version)" ] || bad "PEERS_PATCH: ${word#*=}/Cargo.toml gives $name no version"
      patch_sets="$patch_sets$name=$dir "
    done
    patch_sets="${patch_sets% }
"
  done <<SETS
$(printf '%s\n' "${PEERS_PATCH:-}" | tr ';' '\n')
SETS
  set -f
  for v in ${PEERS_DOTNET:-}; do
    case $v in
      10.0) bad "PEERS_DOTNET: 10.0 is the C# peers' own .NET; name another (9.0, 8.0)" ;;
      [5-9].0 | [1-9][0-9].0) ;;
      *) bad "PEERS_DOTNET: '$v' is not a .NET of 5.0 or newer, such as 9.0 or 8.0" ;;
    esac
    case $patch_sets in *"dotnet=$v"*) bad "PEERS_DOTNET names $v twice" ;; esac
    patch_sets="${patch_sets}dotnet=$v
"
  done
  set +f
  patch_sets=$(printf '%s' "$patch_sets" | grep .)
  tables_read
}

# crate_field CARGO_TOML KEY: KEY (name, version) of its [package], its quotes taken off.
crate_field() {
  awk -v k="$2" '/^\[/ { in_pkg = $0 == "[package]" } in_pkg && $1 == k && $2 == "=" { v = $3; gsub(/"/, "", v); print v; exit }' "$1"
}

# peers_build_dir HERE: pb, PEERS_BUILD as an absolute path (a relative one is relative to HERE,
# where the user stands). Called from the checkout's root, which it must lie outside of.
peers_build_dir() {
  pb=${PEERS_BUILD:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/bench-peers}
  case $pb in /*) ;; *) pb=$1/$pb ;; esac
  case $pb/ in "$PWD"/*) bad "PEERS_BUILD must be outside this tree (got $pb): the peers are built elsewhere" ;; esac
}

# install_hint TOOLCHAIN: the command that installs it on this OS.
install_hint() {
  local sudo='sudo ' pkgs
  [ "$(id -u)" != 0 ] || sudo=
  pkgs=$(peer_toolchains | awk -v t="$1" '$1 == t { $1 = $2 = ""; sub(/^ +/, ""); print }')
  case $pkgs in npm:*) echo "npm install --prefix PEERS_BUILD/npm ${pkgs#npm:}"; return ;; esac
  if [ "${os_kind:-$(uname -s)}" = Darwin ]; then
    echo "brew install $(peer_toolchains | awk -v t="$1" '$1 == t { print $2 }')"
  else
    printf '%s' "${sudo}apt-get install $(peer_toolchains | awk -v t="$1" '$1 == t { $1 = $2 = ""; sub(/^ +/, ""); print }')"
    [ "$1" != dotnet ] || printf ' (on Debian, after adding Microsoft'"'"'s package repository: %s)' \
      https://learn.microsoft.com/dotnet/core/install/linux-debian
    echo
  fi
}

# have COMMAND: COMMAND can be run.
have() { command -v "$1" >/dev/null 2>&1; }

# missing TOOLCHAIN WHAT: lists a missing toolchain (once) with the command that installs it.
missing() {
  local line
  [ -z "$probing" ] || return 0
  line="$1: $2 not found; install: $(install_hint "$1")"
  echo "run.sh: --peers: $line" >&2
  echo "$line" >>"$pw/missing"
}

# first_version TEXT: the first dotted version number in TEXT ("v20.20.2", "go1.19.8" and
# 'openjdk version "17.0.15" 2025-04-15' give 20.20.2, 1.19.8 and 17.0.15).
first_version() { printf '%s\n' "$1" | sed -n 's/^[^0-9]*\([0-9][0-9]*\(\.[0-9][0-9]*\)*\).*/\1/p' | head -n 1; }

# lock_version CARGO_LOCK CRATE: the version of CRATE that cargo resolved, "" when absent.
lock_version() {
  awk -v c="$2" '$0 == "name = \"" c "\"" { getline; if ($1 == "version") { gsub(/"/, "", $3); print $3 }; exit }' "$1" 2>/dev/null
}

# detect TOOLCHAIN: 0 when it is installed; then writes the version of its groups (the runtime
# column's @V@, in $pw/GROUP.version) and a line naming its version for the section. Otherwise
# lists it as missing and returns 1.
detect() {
  local out
  [ "$(type -t "detect_$1")" = function ] || { echo "run.sh: --peers: no descriptor defines detect_$1" >&2; exit 1; }
  out=$("detect_$1") || return 1
  echo "- $1: $out" >>"$pw/tools"
}

# detect_by_version TOOLCHAIN GROUP COMMAND: the usual detect_TOOLCHAIN: the first line of
# `COMMAND --version` is the toolchain's line, and its first version number GROUP's.
detect_by_version() {
  local out
  have "$3" || { missing "$1" "\`$3\`"; return 1; }
  out=$("$3" --version 2>&1 | head -n 1)
  first_version "$out" >"$pw/$2.version"
  echo "$out"
}

# detect_rust: Rust's toolchain, shared by the four Rust families.
detect_rust() {
  local out v
  have "$CARGO" || { missing rust "\`$CARGO\`"; return 1; }
  out="$("$RUSTC" --version 2>&1 | head -n 1), $("$CARGO" --version 2>&1 | head -n 1)"
  v=$(first_version "$("$RUSTC" --version 2>&1)")
  echo "$v" >"$pw/ruststd.version" # the crates' groups: build_cargo writes what cargo resolved
  echo "$out"
}

# install_toolchain TOOLCHAIN [PACKAGE...]: unless PEERS_INSTALL=no, installs TOOLCHAIN's packages
# (or the PACKAGEs): npm's into PEERS_BUILD/npm as any user, Debian's as root where apt-get is;
# logged in PEERS_BUILD/logs/install-TOOLCHAIN.log, and the section says so. A toolchain apt cannot give (dotnet needs Microsoft's repository) stays missing.
probing=
install_toolchain() {
  local tc=$1 pkgs
  shift
  [ "$PEERS_INSTALL" != no ] || return 1
  pkgs=$(peer_toolchains | awk -v t="$tc" '$1 == t { $1 = $2 = ""; sub(/^ +/, ""); print }')
  case $pkgs in npm:*) npm_install "$tc" "${pkgs#npm:}"; return ;; esac
  [ "$(id -u)" = 0 ] && have apt-get || return 1
  [ "$tc" != dotnet ] || return 1 # not in Debian's archive: Microsoft's repository is the user's call
  pkgs=${*:-$(peer_toolchains | awk -v t="$tc" '$1 == t { $1 = $2 = ""; sub(/^ +/, ""); print }')}
  echo "run.sh: --peers: $tc is missing; installing $pkgs with apt-get (PEERS_INSTALL=no turns this off)" >&2
  if run_logged "$pb/logs/install-$tc.log" apt_install $pkgs; then
    echo "$tc: installed by run.sh (apt-get install $pkgs)" >>"$pw/notes"
  else
    echo "run.sh: --peers: apt-get install $pkgs failed (log: $pb/logs/install-$tc.log)" >&2
    return 1
  fi
}

# npm_install TOOLCHAIN PACKAGE: a runtime from the npm registry, into PEERS_BUILD/npm (never
# globally, and no root needed); the section says so.
npm_install() {
  have npm || { echo "run.sh: --peers: $1 needs npm to be installed (npm install --prefix PEERS_BUILD/npm $2)" >&2; return 1; }
  echo "run.sh: --peers: $1 is missing; installing $2 from the npm registry into $pb/npm (PEERS_INSTALL=no turns this off)" >&2
  if run_logged "$pb/logs/install-$1.log" npm install --prefix "$pb/npm" --no-audit --no-fund "$2"; then
    echo "$1: installed by run.sh (npm install --prefix PEERS_BUILD/npm $2)" >>"$pw/notes"
  else
    echo "run.sh: --peers: npm install $2 failed (log: $pb/logs/install-$1.log)" >&2
    return 1
  fi
}

# npm_tool VARIABLE FILE: the command of a runtime from the npm registry: VARIABLE's value when the
# user named one, else FILE under PEERS_BUILD/npm/node_modules where run.sh installed it, else
# FILE's own name on PATH (bun, deno).
npm_tool() {
  local v=${!1}
  if [ "$v" != npm ]; then echo "$v"; elif [ -x "$pb/npm/node_modules/$2" ]; then echo "$pb/npm/node_modules/$2"; else basename "$2"; fi
}

# apt_install PACKAGE...: a fresh image has no package lists yet: update only when the plain
# install fails.
apt_install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" ||
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"; }
}

# run_logged LOG COMMAND...: COMMAND with its output appended to LOG, in its own process group
# like a measured run, so an interrupt stops a build too.
run_logged() {
  local log=$1 status
  shift
  set -m
  "$@" >>"$log" 2>&1 </dev/null &
  job=$!
  set +m
  wait "$job"
  status=$?
  job=
  return "$status"
}

# copy_src DIR [COPY]: a fresh copy of peers/DIR as $pb/src/COPY (default: DIR; times kept, so
# unchanged sources stay older than what was built from them), without the bin/ and obj/ that a
# build by hand in peers/ may have left.
copy_src() {
  local to=${2:-$1}
  rm -rf "${pb:?}/src/${to:?}" && mkdir -p "$pb/src" && cp -Rp "peers/$1" "$pb/src/$to" &&
    rm -rf "$pb/src/$to"/*/bin "$pb/src/$to"/*/obj
}

# launcher PROGRAM COMMAND...: $pb/bin/PROGRAM, a script that execs COMMAND "$@" (exec: the
# runtime itself is the process /usr/bin/time measures).
launcher() {
  local out=$pb/bin/$1 line=exec a
  shift
  for a in "$@"; do line="$line '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
  printf '#!/bin/sh\n%s "$@"\n' "$line" >"$out" && chmod +x "$out"
}

# Rust: the four Rust families' build. build_cargo CRATE GROUP PREFIX [NAME]: builds a copy of
# peers/CRATE in release mode; in the debian mode, offline against Debian's crate sources through a
# config that exists only in that copy. The runtime column then names the version of crate NAME that
# cargo resolved. For a GROUP@SET, the copy is CRATE@SET and its Cargo.toml gets that set of
# PEERS_PATCH as [patch.crates-io] (a patch cargo does not use fails the build: patch_check); a
# program's binary is named without "@SET". $pw/GROUP.crate names the copy (patch_ready reads it).
build_cargo() {
  local set='' d p mode status v unused=''
  case $2 in *@*) set=${2##*@} ;; esac
  d=$pb/rust/$1${set:+@$set}
  echo "$d" >"$pw/$2.crate" || return 1
  mode=$(cat "$pw/cargo_mode" 2>/dev/null)
  [ -n "$mode" ] || mode=crates-io # std::thread alone: no crates, nothing to fetch
  mkdir -p "$d" && rm -rf "$d/src" && cp -Rp "peers/$1/src" "peers/$1/Cargo.toml" "$d/" || return 1
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
  [ "$status" -eq 0 ] || return 1
  for p in $(programs_of "$2"); do cp "$d/target/release/$(echo "${p#"$3"-}" | sed 's/@[0-9]*$//')" "$pb/bin/$p" || return 1; done
}

# The sets of PEERS_PATCH (patch_settings). patch_set SET: set SET's NAME=DIRECTORY words.
patch_set() { printf '%s\n' "$patch_sets" | sed -n "${1}p"; }
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
# patch_ready GROUP@SET: a set applies to a Rust group whose own build resolved every crate of the
# set (its Cargo.lock): tokio to the tokio peers, not to rayon's, which uses none of it. A .NET
# version (PEERS_DOTNET) applies to both C# groups wherever their toolchain is here and chosen.
patch_ready() {
  local g=${1%@*} set=${1##*@} w name line
  case $(cat "$pw/$g.state" 2>/dev/null) in
    ok | "build failed"*) case $(patch_set "$set") in dotnet=*) return 0 ;; esac ;;
    *) return 1 ;;  # not chosen, or its toolchain is missing: said elsewhere
  esac
  name=$(runtime_label "$g" | sed 's/ [0-9][0-9.]*//')  # "rust tokio", "rust std"
  case $(cat "$pw/$g.state") in "build failed"*)
    line="PEERS_PATCH set $set: the $name peers were not built against it, since their own build failed" ;;
  esac
  if [ -z "${line:-}" ]; then
    for w in $(patch_set "$set"); do
      grep -qx "name = \"${w%%=*}\"" "$(cat "$pw/$g.crate")/Cargo.lock" 2>/dev/null ||
        { line="PEERS_PATCH set $set: the $name peers use no ${w%%=*}, so they are not built against it"; break; }
    done
  fi
  [ -n "${line:-}" ] || return 0
  grep -qxF -- "$line" "$pw/notes" 2>/dev/null || echo "$line" >>"$pw/notes"
  return 1
}
# build_patched GROUP@SET: the group built against set SET of PEERS_PATCH (a Rust group), or for
# the .NET version of that set (PEERS_DOTNET, a C# group): its own build, given GROUP@SET.
build_patched() { "build_${1%@*}" "$1"; }

# cargo_probe DIR: crates.io answers (or the crates are cached): resolves DIR's dependencies.
cargo_probe() { (cd "$1" && CARGO_NET_RETRY=0 CARGO_HTTP_TIMEOUT=20 "$CARGO" fetch); }

# crate_packages: the Debian packages of the Rust peers' crate sources (rust's line after cargo).
crate_packages() { peer_toolchains | awk '$1 == "rust" { for (i = 4; i <= NF; i++) print $i }'; }

# install_crates: Debian's sources of the Rust peers' crates, where run.sh may install (install_toolchain).
install_crates() { install_toolchain rust $(crate_packages); }

# cargo_mode GROUP: decides once where the crates come from: crates-io, or debian when crates.io
# cannot be reached and Debian's crate sources are installed; the section says which.
cargo_mode() {
  local crate=rust-tokio mode
  [ ! -s "$pw/cargo_mode" ] || return 0
  [ "$1" != asyncstd ] || crate=rust-async-std
  case $PEERS_CARGO in
    crates-io) mode=crates-io ;;
    debian) mode=debian; [ -n "$(ls "$registry" 2>/dev/null)" ] || install_crates || : ;;
    *)
      mkdir -p "$work/probe" && cp -Rp "peers/$crate/src" "peers/$crate/Cargo.toml" "$work/probe/"
      echo "run.sh: --peers: asking crates.io for the Rust peers' crates" >&2
      if run_logged "$pb/logs/cargo-probe.log" cargo_probe "$work/probe"; then
        mode=crates-io
      elif [ -n "$(ls "$registry" 2>/dev/null)" ] || { install_crates && [ -n "$(ls "$registry" 2>/dev/null)" ]; }; then
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

# beam_procs: the BEAM's +P for this run: N + 1024 (a sweep's largest N), at least 2^20.
beam_procs() {
  local procs=$((${N:-${sweep_ns##* }} + 1024))
  [ "$procs" -ge 1048576 ] || procs=1048576
  echo "$procs"
}

# The C++ groups (Boost.Asio, the floor): compiled again only when the source or the compiler
# changed; into a temporary file first, so an interrupted build never leaves a binary that looks
# up to date.
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

# build_reason LOG: why a build failed: its first line that says error (a warning that mentions
# one, even MSBuild's "FILE : warning CODE: ...", is not it), else its last line, on one line of at most 160 characters.
build_reason() {
  local l
  l=$(grep -i -v -e '^[[:space:]]*warning' -e ': warning [a-z]*[0-9]*:' "$1" 2>/dev/null | grep -i -m 1 'error')
  [ -n "$l" ] || l=$(awk 'NF { l = $0 } END { print l }' "$1" 2>/dev/null)
  l=$(no_paths "$l")
  # MSBuild prefixes FILE(LINE,COL): and appends [PROJECT]; the message is what says why.
  printf '%s\n' "${l:-no output}" | awk 'NF { l = $0 } END {
      sub(/^[ \t]+/, "", l); sub(/^[^ ]*\([0-9]+,[0-9]+\): /, "", l); sub(/ \[[^] ]*\]$/, "", l)
      if (length(l) > 160) l = substr(l, 1, 157) "..."; print l }'
}

# no_paths TEXT: TEXT, for a row, without this machine's paths: a crate source of PEERS_PATCH
# becomes "PEERS_PATCH set N's CRATE", PEERS_BUILD and the home directory their names.
no_paths() {
  local t=$1 set w s=0
  while IFS= read -r set; do
    s=$((s + 1))
    case $set in dotnet=*) continue ;; esac # a version, not a path
    for w in $set; do t=${t//"${w#*=}"/"PEERS_PATCH set $s's ${w%%=*}"}; done
  done <<SETS
$patch_sets
SETS
  t=${t//"$pb"/PEERS_BUILD}
  [ -z "${HOME:-}" ] || [ "$HOME" = / ] || t=${t//"$HOME"/\~}
  printf '%s\n' "$t"
}

# prepare_peers: finds the toolchains the chosen scenarios need, builds their groups one at a
# time and leaves in $pw/GROUP.state: ok, missing, skip, unchosen or "build failed: ...".
prepare_peers() {
  local g tc pn log groups ready build built
  pw=$work/peers
  mkdir -p "$pw" && : >"$pw/tools" && : >"$pw/tools.last" && : >"$pw/missing" && : >"$pw/notes" && : >"$pw/limits" || exit 1
  groups=$(printf '%s\n' "$catalogue_tab" | awk -F '\t' -v sel=" $scenarios " '$3 != "ours" && index(sel, " " $1 " ") && !seen[$3]++ { print $3 }')
  mkdir -p "$pb/bin" "$pb/logs" || { echo "run.sh: cannot create $pb" >&2; exit 1; }
  for g in $groups; do
    group_field_to pn 2 "$g" && case " $PEERS " in *" $pn "*) ;; *) echo unchosen >"$pw/$g.state"; continue ;; esac
    group_field_to tc 3 "$g"
    if [ ! -f "$pw/$tc.tool" ]; then
      # Quietly first; a missing toolchain is installed where run.sh can, then looked for again.
      probing=yes
      if detect "$tc" || { probing= && { install_toolchain "$tc" || :; } && detect "$tc"; }; then
        echo yes >"$pw/$tc.tool"
      else
        echo no >"$pw/$tc.tool"
      fi
      probing=
    fi
    if [ "$(cat "$pw/$tc.tool")" = no ]; then
      echo missing >"$pw/$g.state"
      continue
    fi
    # A group built against a set of PEERS_PATCH (GROUP@SET) is built by build_patched.
    case $g in
      *@*) ready=patch_ready build=build_patched ;;
      *) ready=ready_$g build=build_$g ;;
    esac
    if [ "$(type -t "$ready")" = function ] && ! "$ready" "$g"; then
      echo skip >"$pw/$g.state"
      continue
    fi
    log=$pb/logs/$g.log
    : >"$log"
    echo "run.sh: --peers: building $g (log: $log)" >&2
    built=$SECONDS
    if run_logged "$log" "$build" "$g"; then
      echo ok >"$pw/$g.state"
      echo $((SECONDS - built)) >"$pb/$g.build_s" # for the next estimate (harness/plan.py)
    else
      # The section names the log under PEERS_BUILD, not by its path on this machine.
      echo "build failed: $(build_reason "$log") (log: PEERS_BUILD/logs/$g.log)" >"$pw/$g.state"
      echo "run.sh: --peers: $g: $(cat "$pw/$g.state")" >&2
    fi
  done
  cat "$pw/tools.last" >>"$pw/tools"
}

# peer_facts LABEL: what the kept run's summary line says of its runtime beyond the table (the C#
# programs' gc= and dotnet=), once per runtime, among the notes.
peer_facts() {
  local gc v line
  field_to gc gc "$best_summary"
  field_to v dotnet "$best_summary"
  [ "$gc" != - ] || return 0
  line="$1: the $gc GC ran, runtime $v (the program's own report)"
  grep -qxF -- "$line" "$pw/notes" || echo "$line" >>"$pw/notes"
}
