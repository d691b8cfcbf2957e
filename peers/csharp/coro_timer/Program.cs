// coro_timer, C#: N async lambdas from Enumerable.Range(0, N).Select, each `await Task.Delay(SLEEP_MS)`,
// all awaited with Task.WhenAll; the continuations run on the .NET thread pool.
// Run:    csharp-coro_timer N [SLEEP_MS=5000]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=coro_timer runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS spawn_ms=S
//         wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N or the run took less than one sleep
//         (by the timers' own clock).
using System.Diagnostics;

const string name = "coro_timer";
var (n, ms) = Peer.SleepArgs(args, name);

Console.Error.WriteLine($"{name}: spawning {n} tasks");
var clock = Stopwatch.StartNew();
long ticks0 = Environment.TickCount64;
Task[] tasks = Enumerable.Range(0, (int)n).Select(async _ => await Task.Delay((int)ms)).ToArray();
long spawnMs = clock.ElapsedMilliseconds;
Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms");
Peer.WaitAll(name, Task.WhenAll(tasks), tasks, n);
long wallMs = clock.ElapsedMilliseconds;
int completed = Peer.Finish(name, tasks, n, ms, ticks0);
Console.WriteLine($"scenario={name} {Peer.Head(n)} sleep_ms={ms} spawn_ms={spawnMs} wall_ms={wallMs} " +
                  $"completed={completed} {Peer.Tail()}");
