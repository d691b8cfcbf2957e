# tests/fakes.sh: the sandbox of the --peers tests, sourced after tests/lib.sh: a checkout ($box) with
# run.sh, the real peers/, a fake Makefile and fake scenarios, and fake toolchains ($tools: go, dotnet,
# cargo, rustc, node, python3, elixir, java, javac, a C++ compiler) whose "builds" write fake programs,
# so no real toolchain is needed. It ends in $box with every run.sh variable pointing at the fakes.
# RUNSH_FROM (default: this checkout) is where run.sh and peers/ are copied from. The toolchains of
# the runtimes added later (bun, deno, node-current, pypy3, ghc, nim, erl, erlc) are faked too.
repo=$PWD
box=$tmp/sandbox     # the checkout: run.sh, a fake Makefile, fake scenarios, the real peers/
tools=$tmp/tools     # the fake toolchains
pb=$tmp/peers-build  # PEERS_BUILD
reg=$tmp/registry    # PEERS_CARGO_REGISTRY: Debian's crate sources, by name only
res=$tmp/RESULTS.md
mkdir -p "$box" "$tools" "$tmp/tmpdir" "$reg/tokio-1.24.2" "$reg/futures-0.3.21" "$reg/async-std-1.12.0"
cp "${RUNSH_FROM:-$repo}/run.sh" "$box/"
[ ! -d "${RUNSH_FROM:-$repo}/harness" ] || cp -R "${RUNSH_FROM:-$repo}/harness" "$box/"
cp -R "${RUNSH_FROM:-$repo}/peers" "$box/"
printf 'all:\n\t@:\nprint-build:\n\t@echo "compiler=g++ (Fake) 12.2.0"\n\t@echo "flags=-std=c++20 -pthread -O2"\n' >"$box/Makefile"

# fakepeer NAME SCENARIO N [SLEEP|OPTIONS...]: every fake program, ours and the peers', sourced by
# each (not exec'd: a run starts one shell, not two). It logs
# NAME and its arguments (args.log), NAME, N and the thread-count knobs it was given (env.log), holds N × 40 KB (so max RSS grows with N), and prints a summary line
# whose own bytes_per_task the table must not use. Marker files in the sandbox: fail_NAME exits 1,
# short_NAME reports one task fewer, half_dotnet_V and long_more change memory (below), slow_NAME hangs until SIGTERM (slow.stopped; if it is never
# sent one, it ends after 30 s leaving slow.finished), deaf_NAME the same but ignores SIGTERM (only SIGKILL ends it).
cat >"$tools/fakepeer" <<EOF
#!/bin/sh
name=\$1 scenario=\$2
shift 2
# A variant's program is named after its scenario (coro_timer_list), and prints the scenario.
case \$scenario in coro_timer_*) scenario=coro_timer ;; coro_shared_*) scenario=coro_shared ;; esac
echo "\$name \$*" >>"$box/args.log"
echo "\$name \$1 GOMAXPROCS=\${GOMAXPROCS-} TOKIO_WORKER_THREADS=\${TOKIO_WORKER_THREADS-} BENCH_THREADS=\${BENCH_THREADS-} RAYON_NUM_THREADS=\${RAYON_NUM_THREADS-}" >>"$box/env.log"
[ -f "$box/fail_\$name" ] && { echo "\$scenario: check failed: completed 0 of \$1" >&2; exit 1; }
[ -f "$box/slow_\$name" ] && { echo "\$scenario: 3 of \$1 done" >&2; trap 'echo >"$box/slow.stopped"; echo "\$scenario: terminated" >&2; exit 143' TERM; echo \$\$ >"$box/slow.pid"; sleep 30 & wait; echo >"$box/slow.finished"; exit 0; }
[ -f "$box/deaf_\$name" ] && { trap '' TERM; echo \$\$ >"$box/slow.pid"; sleep 30; echo >"$box/slow.finished"; exit 0; }
# half_dotnet_V: a C# program of .NET V holds half as much; long_more: one that sleeps 30000 ms, half as much again.
per=40000
[ -f "$box/half_dotnet_\${fake_dotnet:-}" ] && per=20000
[ -f "$box/long_more" ] && case " \$* " in *" 30000 "*) per=60000 ;; esac
dd if=/dev/zero of=/dev/null bs=\$((\$1 * per)) count=1 2>/dev/null
done=\$1
[ -f "$box/short_\$name" ] && done=\$((\$1 - 1))
extra=
case \$name in csharp-*) extra=" gc=workstation-concurrent dotnet=\${fake_dotnet:-10.0.3}" ;; esac
# The sleep scenarios say how long spawning took, how many tasks had ended by then and their RSS
# at that moment (N × 39 + 1000 KiB): markers
# early_NAME (spawning outlasted the sleep and 2 had ended) and due_NAME (outlasted, none ended).
case \$scenario in
  coro_timer | coro_shared)
    sp=3 e=0
    [ -f "$box/early_\$name" ] && sp=\$((\$2 + 7)) e=2
    [ -f "$box/due_\$name" ] && sp=\$((\$2 + 7))
    extra="\$extra sleep_ms=\$2 spawn_ms=\$sp ended_at_spawn=\$e rss_wait_kib=\$((\$1 * 39 + 1000))" ;;
  atomic_counter) extra="\$extra hits_per_s=\$((\$1 * 10))" ;;
esac
echo "scenario=\$scenario runtime=fake n=\$1 bytes_per_task=999999.9 completed=\$done\$extra"
EOF
chmod +x "$tools/fakepeer"
# program FILE NAME SCENARIO: a fake program at FILE.
program() { printf '#!/bin/sh\nfp="%s"\nset -- "%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "$2" "$3" >"$1" && chmod +x "$1"; }
for s in threads coro_timer coro_shared atomic_counter running_avg hash_collect; do
  program "$box/$s" "$s" "$s"
done

# tool NAME BODY: a fake toolchain command; it logs how it was called to tools.log and fails with
# a compiler-like error when the marker break_NAME exists.
tool() {
  {
    printf '#!/bin/sh\necho "%s $*" >>"%s/tools.log"\n' "$1" "$box"
    printf '[ -f "%s/break_%s" ] && [ "$1" != --version ] && [ "$1" != -version ] && [ "$1" != version ] && { echo "error: %s broke here" >&2; exit 1; }\n' "$box" "$1" "$1"
    printf 'box=%s tools=%s\n' "$box" "$tools"
    cat
  } >"$tools/$1"
  chmod +x "$tools/$1"
}
tool go <<'EOF'
case $1 in
  version) echo "go version go1.19.8 linux/amd64"; exit 0 ;;
  build) [ "$2" = -o ] && [ -f go.mod ] || { echo "go: unexpected: $*" >&2; exit 1; }
    printf '#!/bin/sh\nfp="%s"\nset -- "%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "${3##*/}" "${4#./}" >"$3" && chmod +x "$3" ;;
  *) echo "go $1: not expected from run.sh" >&2; exit 1 ;;
esac
EOF
# dotnet publish PROJECT -c Release -p:AssemblyName=NAME -o OUT [-p:PublishAot=true]: OUT/NAME. The
# AOT build leaves the ILCompiler version in obj/project.assets.json and fails when break_aot exists.
# The TargetFramework of Directory.Build.props, netV.0, builds for .NET V.0.7 (a self-contained one
# leaves its runtime pack in OUT/NAME.deps.json, and its programs report that runtime), and fails
# when break_netV.0 exists.
tool dotnet <<'EOF'
case $1 in
  --version) echo 10.0.100; exit 0 ;;
  --info) printf '.NET SDK:\n Version:           10.0.100\n\nRuntime Environment:\n OS Name:     debian\n RID:         linux-x64\n'; exit 0 ;;
  --list-runtimes) printf 'Microsoft.AspNetCore.App 10.0.3 [/x]\nMicrosoft.NETCore.App 9.0.5 [/x]\nMicrosoft.NETCore.App 10.0.1 [/x]\nMicrosoft.NETCore.App 10.0.3 [/opt/fake dotnet/shared/Microsoft.NETCore.App]\n'; exit 0 ;;
  publish) proj=$2; shift 2 ;;
  *) echo "dotnet $1: not expected from run.sh" >&2; exit 1 ;;
esac
name= out= aot= release= contained= rid=
while [ $# -gt 0 ]; do
  case $1 in
    -p:AssemblyName=*) name=${1#*=} ;; -o) out=$2; shift ;; -p:PublishAot=true) aot=yes ;; -c) release=$2; shift ;;
    --self-contained) contained=yes ;; -r) rid=$2; shift ;;
  esac
  shift
done
d=$(dirname "$proj")
tfm=$(sed -n 's/.*<TargetFramework>\(.*\)<\/TargetFramework>.*/\1/p' "$d/../Directory.Build.props" 2>/dev/null) v=${tfm#net}.7
[ "$tfm" != net10.0 ] || v=10.0.2
[ -f "$proj" ] && [ -f "$d/../Directory.Build.props" ] && [ "$release" = Release ] || { echo "error MSB1009: Project file does not exist." >&2; exit 1; }
[ -z "$contained" ] || [ -n "$rid" ] || { echo "error NETSDK1031: a self-contained build needs a RuntimeIdentifier" >&2; exit 1; }
[ -f "$box/break_$tfm" ] && { echo "/usr/share/dotnet/sdk/Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting .NET ${tfm#net}. [$proj]" >&2; exit 1; }
if [ -n "$aot" ]; then
  [ -f "$box/break_aot" ] && { echo "/nuget/ilcompiler/Native.Unix.targets(316,5): error : Platform linker ('clang' or 'gcc') not found in PATH. [$proj]" >&2; exit 1; }
  mkdir -p "$d/obj" && echo "{ \"libraries\": { \"runtime.linux-x64.Microsoft.DotNet.ILCompiler/$v\": {} } }" >"$d/obj/project.assets.json"
fi
s=${proj##*/}
s=${s%.csproj}
mkdir -p "$out" && printf '#!/bin/sh\nfp="%s"\nfake_dotnet=%s\nset -- "%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "$([ "$tfm" = net10.0 ] || echo "$v")" "$name" "$s" >"$out/$name" && chmod +x "$out/$name"
[ -z "$contained" ] || echo "{ \"libraries\": { \"runtimepack.Microsoft.NETCore.App.Runtime.$rid/$v\": {} } }" >"$out/$name.deps.json"
EOF
tool cargo <<'EOF'
case $1 in
  --version) echo "cargo 1.70.0 (fake)"; exit 0 ;;
  fetch)
    [ -f "$box/offline" ] && { echo "error: failed to get \`tokio\`: Could not resolve host: index.crates.io" >&2; exit 101; }
    exit 0 ;;
  build) shift ;;
  *) echo "cargo $1: not expected from run.sh" >&2; exit 101 ;;
esac
[ -f "$box/slow_cargo" ] && { trap 'echo >"$box/slow.stopped"; exit 143' TERM; echo $$ >"$box/slow.pid"; sleep 30 & wait; }
offline= target=
while [ $# -gt 0 ]; do
  case $1 in --offline) offline=yes ;; --target-dir) target=$2; shift ;; esac
  shift
done
if [ -n "$offline" ]; then
  r=$(sed -n 's/^directory = "\(.*\)"$/\1/p' .cargo/config.toml 2>/dev/null)
  [ -n "$r" ] && [ -d "$r" ] || { echo "error: no matching package named \`tokio\` found (offline)" >&2; exit 101; }
  tv=$(ls "$r" | sed -n 's/^tokio-//p') av=$(ls "$r" | sed -n 's/^async-std-//p')
else
  [ -f "$box/offline" ] && { echo "warning: spurious network error (3 tries remaining): Could not resolve host" >&2; echo "error: failed to get \`tokio\`: Could not resolve host: index.crates.io" >&2; exit 101; }
  tv=1.99.0 av=1.99.1
fi
case $(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | head -n 1) in
  peers-tokio) who=tokio ;; peers-async-std) who=async-std ;; peers-rayon) who=rayon ;; *) who=rust ;;
esac
# The lock: each crate's own runtime (tokio's with pin-project-lite under it), at the registry's
# version, or a PEERS_PATCH source's ([patch.crates-io] NAME = { path = "DIR" }) unless DIR holds
# the marker cargo-ignores-me, which makes the fake drop the patch as cargo drops one it cannot use
# (or cargo-fails-on-me, which fails the build).
lock() { # NAME VERSION
  p=$(sed -n "s/^$1 = { path = \"\(.*\)\" }$/\1/p" Cargo.toml)
  # cargo-fails-on-me: a source this rustc cannot build, cargo's error naming its path.
  [ -z "$p" ] || [ ! -f "$p/cargo-fails-on-me" ] ||
    { echo "error: package \`$1 v9.9.9 ($p)\` cannot be built because it requires rustc 1.99 or newer" >&2; exit 101; }
  if [ -n "$p" ] && [ ! -f "$p/cargo-ignores-me" ]; then
    set -- "$1" "$(sed -n 's/^version = "\(.*\)"$/\1/p' "$p/Cargo.toml" | head -n 1)"
  elif [ -n "$p" ]; then
    echo "warning: Patch \`$1 v$(sed -n 's/^version = "\(.*\)"$/\1/p' "$p/Cargo.toml" | head -n 1) ($p)\` was not used in the crate graph." >&2
  fi
  printf '[[package]]\nname = "%s"\nversion = "%s"\n\n' "$1" "$2"
}
case $who in
  tokio) { lock pin-project-lite 0.2.9; lock tokio "$tv"; } ;;
  async-std) lock async-std "$av" ;;
  rayon) lock rayon 1.99.2 ;;
  *) : ;;
esac >Cargo.lock
bins=
[ ! -d src/bin ] || bins=$(ls src/bin | sed 's/\.rs$//')
[ ! -f src/main.rs ] || bins="$bins threads"
mkdir -p "$target/release"
for b in $bins; do
  printf '#!/bin/sh\nfp="%s"\nset -- "%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "$who-$b" "$b" >"$target/release/$b"
  chmod +x "$target/release/$b"
done
EOF
tool rustc <<'EOF'
echo "rustc 1.70.0 (fake 2023-06-01)"
EOF
tool node <<'EOF'
[ "$1" = --version ] && { echo v20.0.0; exit 0; }
s=${1##*/}
shift
set -- "node-${s%.js}" "${s%.js}" "$@"
. "$tools/fakepeer"
EOF
tool python3 <<'EOF'
[ "$1" = --version ] && { echo "Python 3.11.0"; exit 0; }
s=${1##*/}
shift
set -- "python-${s%.py}" "${s%.py}" "$@"
. "$tools/fakepeer"
EOF
tool elixir <<'EOF'
[ "$1" = --version ] && { printf 'Erlang/OTP 25 [erts-13.1.5] [64-bit]\n\nElixir 1.14.0 (compiled with Erlang/OTP 24)\n'; exit 0; }
[ "$1" = --erl ] || { echo "elixir: expected --erl first" >&2; exit 1; }
s=${3##*/}
shift 3
set -- "elixir-${s%.exs}" "${s%.exs}" "$@"
. "$tools/fakepeer"
EOF
tool javac <<'EOF'
[ "$1" = -version ] && { echo "javac $(cat "$box/jdk" 2>/dev/null || echo 17.0.2)"; exit 0; }
[ "$1" = -d ] || exit 1
d=$2
shift 2
for f in "$@"; do f=${f##*/}; : >"$d/${f%.java}.class"; done
EOF
tool java <<'EOF'
[ "$1" = -version ] && { echo "openjdk version \"$(cat "$box/jdk" 2>/dev/null || echo 17.0.2)\" 2022-01-18" >&2; exit 0; }
[ -f "$2/$3.class" ] || { echo "Error: Could not find or load main class $3" >&2; exit 1; }
case $3 in
  Threads) n=java-threads s=threads ;;
  CoroTimer) n=java-coro_timer s=coro_timer ;;
  CoroShared) n=java-coro_shared s=coro_shared ;;
  VirtualTimer) n=java-virtual-coro_timer s=coro_timer ;;
  VirtualShared) n=java-virtual-coro_shared s=coro_shared ;;
  RunningAvg) n=java-running_avg s=running_avg ;;
  HashCollect) n=java-hash_collect s=hash_collect ;;
  VirtualRunningAvg) n=java-virtual-running_avg s=running_avg ;;
  VirtualHashCollect) n=java-virtual-hash_collect s=hash_collect ;;
  ThreadsRunningAvg) n=java-threads-running_avg s=running_avg ;;
  ThreadsHashCollect) n=java-threads-hash_collect s=hash_collect ;;
esac
shift 3
set -- "$n" "$s" "$@"
. "$tools/fakepeer"
EOF
tool cxx <<'EOF'
[ "$1" = --version ] && { echo "g++ (Fake) 12.2.0"; exit 0; }
if [ "$1" = -x ]; then
  cat >/dev/null
  [ -f "$box/no_boost" ] && { echo "<stdin>:1:10: fatal error: boost/version.hpp: No such file or directory" >&2; exit 1; }
  printf '# 1 "<stdin>"\n107400\n'
  exit 0
fi
out= src=
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; *.cpp) src=$1 ;; esac; shift; done
s=${src##*/} p=${out##*/}
printf '#!/bin/sh\nfp="%s"\nset -- "%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "${p%.tmp}" "${s%.cpp}" >"$out" && chmod +x "$out"
EOF
# The runtimes the npm registry serves (Bun, Deno, a current Node) and the ones from Debian (PyPy,
# GHC, Nim, Erlang): each runs or builds fake programs named as the real ones.
tool bun <<'EOF'
[ "$1" = --version ] && { echo 1.4.4; exit 0; }
s=${1##*/}
shift
set -- "bun-${s%.js}" "${s%.js}" "$@"
. "$tools/fakepeer"
EOF
tool deno <<'EOF'
[ "$1" = --version ] && { printf 'deno 2.9.6 (stable, release, x86_64-unknown-linux-gnu)\nv8 14.0\ntypescript 5.9\n'; exit 0; }
[ "$1 $2 $3" = "run --quiet --allow-read=/proc/self/status" ] && [ "$DENO_NO_UPDATE_CHECK" = 1 ] || { echo "deno: expected run --quiet --allow-read=/proc/self/status, no update check" >&2; exit 1; }
s=${4##*/}
shift 4
set -- "deno-${s%.cjs}" "${s%.cjs}" "$@"
. "$tools/fakepeer"
EOF
tool node-current <<'EOF'
[ "$1" = --version ] && { echo v26.10.0; exit 0; }
s=${1##*/}
shift
set -- "node-current-${s%.js}" "${s%.js}" "$@"
. "$tools/fakepeer"
EOF
tool pypy3 <<'EOF'
[ "$1" = --version ] && { printf 'Python 3.9.16 (7.3.11+dfsg-2, Feb 06 2023, 16:52:03)\n[PyPy 7.3.11 with GCC 12.2.0]\n'; exit 0; }
s=${1##*/}
shift
set -- "pypy-${s%.py}" "${s%.py}" "$@"
. "$tools/fakepeer"
EOF
tool ghc <<'EOF'
[ "$1" = --numeric-version ] && { echo 9.0.2; exit 0; }
out= src=
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; *.hs) src=$1 ;; esac; shift; done
s=${src##*/}
printf '#!/bin/sh\nfp="%s"\nset -- "haskell-%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "${s%.hs}" "${s%.hs}" >"$out" && chmod +x "$out"
EOF
tool nim <<'EOF'
[ "$1" = --version ] && { echo "Nim Compiler Version 1.6.10 [Linux: amd64]"; exit 0; }
[ "$1" = c ] || exit 1
out= src=
for a in "$@"; do case $a in -o:*) out=${a#-o:} ;; *.nim) src=$a ;; esac; done
s=${src##*/}
printf '#!/bin/sh\nfp="%s"\nset -- "nim-%s" "%s" "$@"\n. "$fp"\n' "$tools/fakepeer" "${s%.nim}" "${s%.nim}" >"$out" && chmod +x "$out"
EOF
tool erlc <<'EOF'
[ "$1" = -o ] || exit 1
s=${3##*/}
: >"$2/${s%.erl}.beam"
EOF
tool erl <<'EOF'
[ "$2" = -eval ] && { echo "25 13.1.5"; exit 0; }
# -noshell +P PROCS -pa DIR -run MODULE main -extra ARGS...
[ "$1 $2" = "-noshell +P" ] && [ "$6" = -run ] && [ "$9" = -extra ] && [ -f "$5/$7.beam" ] || { echo "erl: unexpected: $*" >&2; exit 1; }
m=$7
shift 9
set -- "erlang-$m" "$m" "$@"
. "$tools/fakepeer"
EOF
cd "$box" || exit 1

# Every run.sh here uses the fake toolchains and the test's PEERS_BUILD (bench adds RESULTS, TMPDIR).
export PEERS_BUILD="$pb" PEERS_CARGO_REGISTRY="$reg" GO="$tools/go" DOTNET="$tools/dotnet" CARGO="$tools/cargo" RUSTC="$tools/rustc" \
  NODE="$tools/node" PYTHON="$tools/python3" ELIXIR="$tools/elixir" JAVA="$tools/java" JAVAC="$tools/javac" \
  CXX="$tools/cxx" BUN="$tools/bun" DENO="$tools/deno" NODE_CURRENT="$tools/node-current" PYPY="$tools/pypy3" \
  GHC="$tools/ghc" NIM="$tools/nim" ERL="$tools/erl" ERLC="$tools/erlc" PEERS_INSTALL=no PEERS_JDKS="$tmp/jdks/*"
unset JAVA_HOME
