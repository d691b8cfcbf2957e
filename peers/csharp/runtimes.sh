# peers/csharp/runtimes.sh: C#'s tasks on .NET 10, JIT (csharp) and NativeAOT (csharp-aot),
# published with dotnet publish.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain dotnet dotnet dotnet-sdk-10.0
family_commands DOTNET=dotnet
family_runtime 'csharp | csharp | dotnet | c# .NET @V@ JIT | BENCH_THREADS=@T@ | -'
family_runtime 'csharpaot | csharp-aot | dotnet | c# .NET @V@ NativeAOT | BENCH_THREADS=@T@ | -'
# The JIT writes /tmp/perf-PID.map, which names its methods for perf; NativeAOT's are in the binary's symbols.
family_profile csharp 'DOTNET_PerfMapEnabled=1'
family_threads '.NET: a thread pool that starts with one worker per core and adds more when it sees its workers blocked' \
  "C# BENCH_THREADS=T (the thread pool's minimum and maximum)"
family_programs <<'EOF'
coro_timer     | csharp-coro_timer          | csharp    | -       | -       | -         | - | async lambda + Task.Delay, Task.WhenAll
coro_timer     | csharp-aot-coro_timer      | csharpaot | -       | -       | -         | - | async lambda + Task.Delay, Task.WhenAll
coro_timer     | csharp-coro_timer_list     | csharp    | -       | -       | Task list | - | List of bare Task.Delay, Task.WhenAll (the 2024 posts)
coro_timer     | csharp-aot-coro_timer_list | csharpaot | -       | -       | Task list | - | List of bare Task.Delay, Task.WhenAll (the 2024 posts)
coro_shared    | csharp-coro_shared         | csharp    | -       | -       | -         | - | async lambdas await one Task.Delay, Task.WhenAll
coro_shared    | csharp-aot-coro_shared     | csharpaot | -       | -       | -         | - | async lambdas await one Task.Delay, Task.WhenAll
atomic_counter | csharp-atomic_counter      | csharp    | -       | counter | -         | - | async loop: Interlocked.Increment + Task.Delay
atomic_counter | csharp-aot-atomic_counter  | csharpaot | -       | counter | -         | - | async loop: Interlocked.Increment + Task.Delay
running_avg    | csharp-running_avg         | csharp    | mutex   | start   | -         | - | mutex: Task.Run per task; lock
running_avg    | csharp-running_avg         | csharp    | channel | start   | -         | - | channel: Task.Run per task; Channel<T> to one consumer
running_avg    | csharp-aot-running_avg     | csharpaot | mutex   | start   | -         | - | mutex: Task.Run per task; lock
running_avg    | csharp-aot-running_avg     | csharpaot | channel | start   | -         | - | channel: Task.Run per task; Channel<T> to one consumer
hash_collect   | csharp-hash_collect        | csharp    | mutex   | start   | -         | - | mutex: Task.Run per task; lock
hash_collect   | csharp-hash_collect        | csharp    | channel | start   | -         | - | channel: Task.Run per task; Channel<T> to one consumer
hash_collect   | csharp-aot-hash_collect    | csharpaot | mutex   | start   | -         | - | mutex: Task.Run per task; lock
hash_collect   | csharp-aot-hash_collect    | csharpaot | channel | start   | -         | - | channel: Task.Run per task; Channel<T> to one consumer
EOF

detect_dotnet() {
  local out v
  have "$DOTNET" || { missing dotnet "\`$DOTNET\`"; return 1; }
  # The JIT programs roll forward to the newest 10.0.x runtime installed (--list-runtimes is in
  # increasing order); build_csharpaot names the runtime NativeAOT compiled in.
  out=$("$DOTNET" --list-runtimes 2>/dev/null | awk '$1 == "Microsoft.NETCore.App" && $2 ~ /^10[.]/ { l = $0 } END { print l }')
  v=$(echo "$out" | awk '{ print $2 }')
  # "Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]": the root.
  echo "$out" | sed -n 's/^[^[]*\[\(.*\)\/shared\/Microsoft\.NETCore\.App\]$/\1/p' >"$pw/dotnet_root"
  out="SDK $("$DOTNET" --version 2>&1 | head -n 1), runtime Microsoft.NETCore.App ${v:-10.0 not installed}"
  echo "${v:-?}" >"$pw/csharp.version"
  echo "$out"
}

# C#: `dotnet publish -c Release`, as `csharp` framework-dependent and run by its own apphost (never
# `dotnet run`), as `csharp-aot` with NativeAOT; both restore from the NuGet source this machine is
# configured with. Each group builds from its own copy (NativeAOT restores for this machine's RID).
# build_dotnet GROUP PREFIX [OPTION...]: publishes each program of GROUP into $pb/dotnet/GROUP/.
build_dotnet() {
  local g=$1 prefix=$2 p s props
  shift 2
  rm -rf "${pb:?}/dotnet/${g:?}" && copy_src csharp "$g" || return 1
  # Another .NET (dotnet_version): the copy's TargetFramework, which its restore reads too (a
  # -p:TargetFramework on the command line is not passed to the restore).
  if [ -n "${dotnet_tfm:-}" ]; then
    props=$pb/src/$g/Directory.Build.props
    sed "s|<TargetFramework>net10[.]0</TargetFramework>|<TargetFramework>$dotnet_tfm</TargetFramework>|" "$props" >"$props.new" &&
      mv "$props.new" "$props" && grep -q "<TargetFramework>$dotnet_tfm</TargetFramework>" "$props" ||
      { echo "error: peers/csharp/Directory.Build.props names no net10.0 TargetFramework to replace with $dotnet_tfm" >&2; return 1; }
  fi
  for p in $(programs_of "$g"); do
    p=${p%@*} s=${p#"$prefix"-}
    DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 "$DOTNET" publish "$pb/src/$g/$s/$s.csproj" -c Release \
      -p:AssemblyName="$p" -o "$pb/dotnet/$g/$s" "$@" || return 1
  done
}

# dotnet_version GROUP: the .NET version a C# group is built for: "" for .NET 10, the peers' own;
# for a copy GROUP@SET, the version of that set of PEERS_DOTNET (9.0). Its TargetFramework is then
# the copy's (build_dotnet), and its runtime pack and NativeAOT compiler are restored from NuGet.
dotnet_version() { case $1 in *@*) patch_set "${1##*@}" | sed 's/^dotnet=//' ;; esac; }

# The JIT build: the apphost needs its .dll and .runtimeconfig.json beside it, so the launcher
# execs it where it was published, with DOTNET_ROOT naming the runtime that detect found (the
# apphost alone looks only in the default install location). Another .NET is published
# self-contained instead, its runtime beside it, so that the runtime that runs is the one restored,
# whatever is installed; the runtime column names it (its deps.json's runtime pack).
build_csharp() {
  local g=${1:-csharp} v p d rid found line
  v=$(dotnet_version "$g")
  if [ -z "$v" ]; then
    build_dotnet "$g" csharp || return 1
  else
    echo "$v" >"$pw/$g.version" # until the build names the whole version
    rid=$("$DOTNET" --info 2>/dev/null | awk '$1 == "RID:" { print $2; exit }')
    dotnet_tfm=net$v build_dotnet "$g" csharp --self-contained -r "${rid:-linux-x64}" || return 1
    found=$(cat "$pb/dotnet/$g"/*/*.deps.json 2>/dev/null | grep -o 'runtimepack[.]Microsoft[.]NETCore[.]App[.]Runtime[.][a-z0-9-]*/[0-9][0-9.]*' | head -n 1)
    [ -z "$found" ] || echo "${found##*/}" >"$pw/$g.version"
    line="@R:$g@: published self-contained, so the runtime that ran is the one restored from NuGet, not one installed here"
    grep -qxF -- "$line" "$pw/notes" || echo "$line" >>"$pw/notes"
  fi
  for p in $(programs_of "$g"); do
    d=${p%@*} && d=$pb/dotnet/$g/${d#csharp-}/${p%@*}
    if [ -z "$v" ]; then launcher "$p" env DOTNET_ROOT="$(cat "$pw/dotnet_root")" "$d" || return 1
    else launcher "$p" "$d" || return 1; fi
  done
}

# NativeAOT links with clang, or gcc when there is no clang (make's g++ brings gcc); without either
# the publish fails with one line that names them. .NET 10 links its own zlib (libz.a in the
# runtime pack), so zlib's headers are not needed. The runtime column names the ILCompiler restored.
build_csharpaot() {
  local g=${1:-csharpaot} v p d
  v=$(dotnet_version "$g")
  [ -z "$v" ] || echo "$v" >"$pw/$g.version"
  dotnet_tfm=${v:+net$v} build_dotnet "$g" csharp-aot -p:PublishAot=true || return 1
  v=$(cat "$pb/src/$g"/*/obj/project.assets.json 2>/dev/null | grep -o '"runtime[.][a-z0-9-]*[.]Microsoft[.]DotNet[.]ILCompiler/[0-9][0-9.]*' | head -n 1)
  [ -z "$v" ] || echo "${v##*/}" >"$pw/$g.version"
  for p in $(programs_of "$g"); do
    d=${p%@*} && d=$pb/dotnet/$g/${d#csharp-aot-}/${p%@*}
    cp "$d" "$pb/bin/$p" || return 1
  done
}
