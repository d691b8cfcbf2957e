// atomic_counter, C# (the scoreboard test): N async lambdas each `await Task.Yield()`, then loop
// { Interlocked.Increment(ref hits); await Task.Delay(SLEEP_MS); }; main polls every 100 ms and, at
// HITS (default 10 x N), tells them to stop and waits for all with Task.WhenAll.
// Run:    csharp-atomic_counter N [SLEEP_MS=1000 [HITS]]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=atomic_counter runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS
//         spawn_ms=S wall_ms=W hits=H hits_per_s=R completed=C gc=... dotnet=V; exits 1 if a task
//         ended (or threw) before the stop, or C != N.
using System.Diagnostics;

const string name = "atomic_counter";
long n = args.Length is >= 1 and <= 3 ? Peer.Num(args[0], int.MaxValue) : -1;
long ms = args.Length >= 2 ? Peer.Num(args[1], int.MaxValue) : 1000;
long target = args.Length == 3 ? Peer.Num(args[2], long.MaxValue) : 10 * n;
if (n < 1 || ms < 0 || target < 1)
    Peer.Usage($"usage: {name} N [SLEEP_MS=1000 [HITS=10*N]]  (N >= 1, HITS >= 1; env BENCH_THREADS=T for T pool workers)");
Peer.SetThreads(name);

// The stop is a flag each task reads when it wakes (Volatile.Read: a volatile read), as in the Go
// and Node peers, so stopping costs at most one more sleep per task. Not a CancellationToken: given
// to Task.Delay it registers a callback on every sleep, and each cancelled task ends by throwing
// TaskCanceledException, N exceptions at the stop; that would measure cancellation, not the loop.
bool stop = false;
long hits = 0;
int completed = 0;
Console.Error.WriteLine($"{name}: spawning {n} tasks");
var clock = Stopwatch.StartNew();
Task[] tasks = Enumerable.Range(0, (int)n).Select(async _ =>
{
    await Task.Yield();
    while (!Volatile.Read(ref stop))
    {
        Interlocked.Increment(ref hits);
        await Task.Delay((int)ms);
    }
    Interlocked.Increment(ref completed);
}).ToArray();
long spawnMs = clock.ElapsedMilliseconds;
Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms");
for (int polls = 1; Interlocked.Read(ref hits) < target; polls++)
{
    Thread.Sleep(100);
    if (polls % 10 == 0)
    {
        Peer.Sample();
        Console.Error.WriteLine($"{name}: {Interlocked.Read(ref hits)} of {target} hits");
    }
}
double reachedS = clock.Elapsed.TotalSeconds;
int endedEarly = tasks.Count(t => t.IsCompleted);  // before the stop, a task can only end by throwing
Volatile.Write(ref stop, true);
Console.Error.WriteLine($"{name}: {Interlocked.Read(ref hits)} hits, stopping");
Peer.WaitAll(name, Task.WhenAll(tasks), tasks, n);
long wallMs = clock.ElapsedMilliseconds;
long total = Interlocked.Read(ref hits);

Peer.Check(name, endedEarly == 0, $"{endedEarly} tasks ended before the stop");
Peer.Check(name, completed == n && tasks.All(t => t.IsCompletedSuccessfully), $"completed {completed} of {n}");
Console.WriteLine($"scenario={name} {Peer.Head(n)} sleep_ms={ms} spawn_ms={spawnMs} wall_ms={wallMs} " +
                  $"hits={total} hits_per_s={total / reachedS:F0} completed={completed} {Peer.Tail()}");
