// coro_timer, C#, as the 2024 "1 million concurrent tasks" posts write it: a List<Task> of N bare
// Task.Delay(SLEEP_MS) tasks, no async method around each (so no state machine per task), then
// Task.WhenAll of the list.
// Run:    csharp-coro_timer_list N [SLEEP_MS=5000]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=coro_timer runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS spawn_ms=S
//         wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N or the run took less than one sleep
//         (by the timers' own clock).
using System.Diagnostics;

const string name = "coro_timer";
var (n, ms) = Peer.SleepArgs(args, name);

Console.Error.WriteLine($"{name}: spawning {n} tasks");
var clock = Stopwatch.StartNew();
long ticks0 = Environment.TickCount64;
var tasks = new List<Task>((int)n);
for (long i = 0; i < n; i++) tasks.Add(Task.Delay((int)ms));
long spawnMs = clock.ElapsedMilliseconds;
Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms");
Peer.WaitAll(name, Task.WhenAll(tasks), tasks, n);
long wallMs = clock.ElapsedMilliseconds;
int completed = Peer.Finish(name, tasks, n, ms, ticks0);
Console.WriteLine($"scenario={name} {Peer.Head(n)} sleep_ms={ms} spawn_ms={spawnMs} wall_ms={wallMs} " +
                  $"completed={completed} {Peer.Tail()}");
