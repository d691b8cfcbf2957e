// coro_shared, C#: one Task.Delay(SLEEP_MS), made before the first spawn, awaited by N async lambdas
// from Enumerable.Range(0, N).Select; Task.WhenAll waits for all of them. When the delay completes,
// the thread-pool thread that completes it runs the waiting continuations.
// Run:    csharp-coro_shared N [SLEEP_MS=5000]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=coro_shared runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS spawn_ms=S
//         wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N or the run took less than one sleep
//         (by the timers' own clock).
using System.Diagnostics;

const string name = "coro_shared";
var (n, ms) = Peer.SleepArgs(args, name);

Console.Error.WriteLine($"{name}: spawning {n} tasks");
var clock = Stopwatch.StartNew();
long ticks0 = Environment.TickCount64;
Task shared = Task.Delay((int)ms);
Task[] tasks = Enumerable.Range(0, (int)n).Select(async _ => await shared).ToArray();
long spawnMs = clock.ElapsedMilliseconds;
Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms");
Peer.WaitAll(name, Task.WhenAll(tasks), tasks, n);
long wallMs = clock.ElapsedMilliseconds;
int completed = Peer.Finish(name, tasks, n, ms, ticks0);
Console.WriteLine($"scenario={name} {Peer.Head(n)} sleep_ms={ms} spawn_ms={spawnMs} wall_ms={wallMs} " +
                  $"completed={completed} {Peer.Tail()}");
