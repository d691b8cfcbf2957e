// atomic_counter, C# (the scoreboard test): N async lambdas each `await Task.Yield()`, then loop
// { Interlocked.Increment(ref hits); await Task.Delay(SLEEP_MS); }; main polls every 100 ms and, at
// HITS (default 10 x N), tells them to stop and waits for all with Task.WhenAll.
// --mode once: each task delays once, increments once and ends; main polls until N hits.
// --spawn-from task: one task (Task.Run) spawns the N, pausing --burst-pause-ms after every
// --burst, while main only polls, as in the 2022 follow-up to the scoreboard.
// Run:    csharp-atomic_counter N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms 100]
//                               [--spawn-from main|task] [--burst K] [--burst-pause-ms 1000]
//         (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=atomic_counter runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS
//         mode=... spawn_ms=S reached_ms=R wall_ms=W hits=H hits_per_s=P completed=C gc=... dotnet=V;
//         exits 1 if a task ended (or threw) before the stop (loop), a hit came before its delay
//         was over (once), the hits fall short, or C != N.
using System.Diagnostics;

const string name = "atomic_counter";
var o = Options.Parse(args);
Peer.SetThreads(name);

// The stop is a flag each task reads when it wakes (Volatile.Read: a volatile read), as in the Go
// and Node peers, so stopping costs at most one more sleep per task. Not a CancellationToken: given
// to Task.Delay it registers a callback on every sleep, and each cancelled task ends by throwing
// TaskCanceledException, N exceptions at the stop; that would measure cancellation, not the loop.
bool stop = false;
long hits = 0, firstHitTicks = 0;
int completed = 0;
var tasks = new Task[o.N];
Console.Error.WriteLine($"{name}: spawning {o.N} tasks");
var clock = Stopwatch.StartNew();
long ticks0 = Environment.TickCount64; // the clock Task.Delay counts on: the once-mode checks use it
long spawnMs = -1, spawnTicks = 0;

async Task Loop()
{
    await Task.Yield();
    while (!Volatile.Read(ref stop))
    {
        Interlocked.Increment(ref hits);
        await Task.Delay(o.SleepMs);
    }
    Interlocked.Increment(ref completed);
}

async Task Once()
{
    await Task.Yield();
    await Task.Delay(o.SleepMs);
    if (Interlocked.Increment(ref hits) == 1) Volatile.Write(ref firstHitTicks, Environment.TickCount64);
    Interlocked.Increment(ref completed);
}

async Task SpawnAll()
{
    for (int i = 1; i <= o.N; i++)
    {
        tasks[i - 1] = o.Once ? Once() : Loop();
        if (o.Burst > 0 && i % o.Burst == 0 && i < o.N) await Task.Delay(o.PauseMs);
    }
    spawnTicks = Environment.TickCount64;
    Volatile.Write(ref spawnMs, clock.ElapsedMilliseconds); // main reads the rest once it sees this
}

Task spawner = o.FromTask ? Task.Run(SpawnAll) : SpawnAll();
long target = o.Once ? o.N : o.Hits;
for (int polls = 1; Interlocked.Read(ref hits) < target || Volatile.Read(ref spawnMs) < 0; polls++)
{
    Thread.Sleep(o.PollMs);
    if (polls % Math.Max(1, 1000 / o.PollMs) == 0)
    {
        Peer.Sample();
        Console.Error.WriteLine($"{name}: {Interlocked.Read(ref hits)} of {target} hits");
    }
}
double reachedS = clock.Elapsed.TotalSeconds;
long reachedTicks = Environment.TickCount64;
spawner.Wait();
int endedEarly = tasks.Count(t => t.IsCompleted);  // before the stop, a looping task can only end by throwing
Volatile.Write(ref stop, true);
Console.Error.WriteLine($"{name}: {Interlocked.Read(ref hits)} hits, stopping");
Peer.WaitAll(name, Task.WhenAll(tasks), tasks, o.N);
long wallMs = clock.ElapsedMilliseconds;
long total = Interlocked.Read(ref hits);

Peer.Check(name, completed == o.N && tasks.All(t => t.IsCompletedSuccessfully), $"completed {completed} of {o.N}");
if (o.Once)
{
    Peer.Check(name, total == o.N, $"{total} hits, expected {o.N}");
    Peer.Check(name, firstHitTicks - ticks0 >= o.SleepMs, $"the first hit came {firstHitTicks - ticks0} ms after the start, before one delay");
    Peer.Check(name, reachedTicks - spawnTicks >= o.SleepMs, "the last hit came before the last task's delay was over");
}
else
{
    Peer.Check(name, total >= o.Hits, $"{total} hits, fewer than the target {o.Hits}");
    Peer.Check(name, endedEarly == 0, $"{endedEarly} tasks ended before the stop");
}
Console.WriteLine($"scenario={name} {Peer.Head(o.N)} sleep_ms={o.SleepMs} {o.Echo} spawn_ms={spawnMs} " +
                  $"reached_ms={(long)(reachedS * 1000)} wall_ms={wallMs} hits={total} hits_per_s={total / reachedS:F0} " +
                  $"completed={completed} {Peer.Tail()}");

// N [SLEEP_MS] and the options, as atomic_counter.cpp takes them; anything else: one usage line, exit 2.
sealed class Options
{
    public int N, SleepMs = 1000, PollMs = 100, PauseMs = 1000;
    public long Hits, Burst;
    public bool Once, FromTask;
    public string Echo = "";

    public static Options Parse(string[] args)
    {
        var o = new Options();
        void Fail(string why) => Peer.Usage("usage: atomic_counter N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms P] " +
                                            $"[--spawn-from main|task] [--burst K] [--burst-pause-ms P]  ({why}; env BENCH_THREADS=T for T pool workers)");
        long Num(string s, long min, long max, string what)
        {
            long v = Peer.Num(s, max);
            if (v < min) Fail($"{what} must be a whole number from {min} to {max}, got '{s}'");
            return v;
        }
        if (args.Length == 0) Fail("N is missing");
        o.N = (int)Num(args[0], 1, int.MaxValue, "N");
        int i = 1;
        if (i < args.Length && !args[i].StartsWith("--")) o.SleepMs = (int)Num(args[i++], 0, 86400000, "SLEEP_MS");
        string mode = "loop", from = "main", pause = "-";
        var seen = new HashSet<string>();
        for (; i < args.Length; i += 2)
        {
            if (!args[i].StartsWith("--")) Fail($"unexpected argument '{args[i]}'");
            if (i + 1 >= args.Length || !seen.Add(args[i])) Fail($"'{args[i]}' needs one value, once");
            string v = args[i + 1];
            switch (args[i])
            {
                case "--hits": o.Hits = Num(v, 1, long.MaxValue, "--hits"); break;
                case "--mode": mode = v is "loop" or "once" ? v : Bad($"--mode must be loop or once, got '{v}'"); break;
                case "--poll-ms": o.PollMs = (int)Num(v, 1, 86400000, "--poll-ms"); break;
                case "--spawn-from": from = v is "main" or "task" ? v : Bad($"--spawn-from must be main or task, got '{v}'"); break;
                case "--burst": o.Burst = Num(v, 1, int.MaxValue, "--burst"); break;
                case "--burst-pause-ms": o.PauseMs = (int)Num(v, 0, 86400000, "--burst-pause-ms"); pause = v; break;
                default: Fail($"unknown argument '{args[i]}'"); break;
            }
        }
        o.Once = mode == "once";
        o.FromTask = from == "task";
        if (o.Once && o.Hits > 0) Fail("--hits applies to --mode loop only");
        if (o.Burst > 0 && !o.FromTask) Fail("--burst needs --spawn-from task");
        if (pause != "-" && o.Burst == 0) Fail("--burst-pause-ms needs --burst");
        if (o.Hits == 0) o.Hits = 10L * o.N;
        if (o.Burst > 0 && pause == "-") pause = "1000";
        o.Echo = $"mode={mode} spawn_from={from} poll_ms={o.PollMs} burst={o.Burst} burst_pause_ms={pause}";
        return o;

        string Bad(string why)
        {
            Fail(why);
            return "";
        }
    }
}
