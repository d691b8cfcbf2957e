// What the C# peers share (each project compiles this file beside its Program.cs): the command
// line, BENCH_THREADS, the wait, the self-checks and the keys every summary line carries.
using System.Diagnostics;
using System.Globalization;
using System.Runtime;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

static class Peer
{
    static int fixedThreads; // BENCH_THREADS once the pool took it, else 0
    static int peakThreads;

    // Num: the value of S when it is digits only (no sign, no spaces) and at most MAX, else -1. The
    // digits by pattern, not char.IsAsciiDigit, which .NET 6 lacks (PEERS_DOTNET=6.0 builds this).
    public static long Num(string s, long max) =>
        s.Length > 0 && s.All(c => c is >= '0' and <= '9')
        && long.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out long v) && v <= max
            ? v
            : -1;

    // RunSleepers: all of coro_timer and coro_shared but the line that makes the tasks. Reads
    // `N [SLEEP_MS=5000]` (exit 2 otherwise) and times `spawn` (N, SLEEP_MS -> the N tasks, each
    // already waiting when it returns): spawn_ms, rounded. ended_at_spawn: how many of the N had ended
    // by then, counted over the tasks (Task.IsCompleted) just after that moment, newest first (a task
    // that ends during the count counts too, so it can only err high). Waits with Task.WhenAll as the
    // public program does (of an array, or of a List as IEnumerable), then checks that every task
    // completed and that the run took at least one sleep by Environment.TickCount64, the clock
    // Task.Delay counts on (coarse: by a Stopwatch a delay may end up to 3 ms early, so a Stopwatch
    // check failed 5-17% of 1-task runs of 20 ms on Linux). Prints the summary line, with the
    // resident set read at the moment of ended_at_spawn (rss_wait_kib).
    public static void RunSleepers(string name, string[] args, Func<int, int, IEnumerable<Task>> spawn)
    {
        long n = args.Length is 1 or 2 ? Num(args[0], int.MaxValue) : -1;
        long ms = args.Length == 2 ? Num(args[1], int.MaxValue) : 5000;
        if (n < 1 || ms < 0) Usage($"usage: {name} N [SLEEP_MS=5000]  (N >= 1; env BENCH_THREADS=T for T pool workers)");
        SetThreads(name);

        Console.Error.WriteLine($"{name}: spawning {n} tasks");
        // Compiles the count now, so no JIT work falls between the moment and the count (an empty span
        // without a collection expression, which C# 12 brought: .NET 6 and 7 default to C# 10 and 11).
        Ended(ReadOnlySpan<Task>.Empty);
        var clock = Stopwatch.StartNew();
        long ticks0 = Environment.TickCount64;
        IEnumerable<Task> tasks = spawn((int)n, (int)ms);
        long spawnMs = (long)Math.Round(clock.Elapsed.TotalMilliseconds, MidpointRounding.AwayFromZero);
        int endedAtSpawn = Ended(tasks switch
        {
            Task[] made => made,
            List<Task> list => CollectionsMarshal.AsSpan(list),
            // A lazy sequence would make its tasks again at each enumeration: spawn returns them made.
            _ => throw new ArgumentException("spawn must return the tasks it made: an array or a List"),
        });
        string rssWait = RssKib(); // every task exists and waits
        Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms, {endedAtSpawn} had ended");
        WaitAll(name, tasks is Task[] array ? Task.WhenAll(array) : Task.WhenAll(tasks), tasks, n);
        long wallMs = clock.ElapsedMilliseconds;
        long ticks = Environment.TickCount64 - ticks0;

        int completed = tasks.Count(t => t.IsCompletedSuccessfully);
        Check(name, completed == n, $"completed {completed} of {n}");
        Check(name, ticks >= ms, $"the run took {ticks} ms by Environment.TickCount64, less than one sleep");
        Console.WriteLine($"scenario={name} {Head(n)} sleep_ms={ms} spawn_ms={spawnMs} ended_at_spawn={endedAtSpawn} " +
                          $"rss_wait_kib={rssWait} wall_ms={wallMs} completed={completed} {Tail()}");
    }

    // RssKib: the resident set in KiB, rss_wait_kib=: VmRSS from /proc/self/status on Linux, else the
    // runtime's own reading (Environment.WorkingSet).
    static string RssKib()
    {
        if (File.Exists("/proc/self/status"))
            foreach (string line in File.ReadLines("/proc/self/status"))
                if (line.StartsWith("VmRSS:"))
                    return line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1];
        return (Environment.WorkingSet / 1024).ToString(CultureInfo.InvariantCulture);
    }

    // Ended: how many of the tasks have completed, newest first (tasks end about in the order they were
    // made, so the ones that may still be ending are looked at closest to the moment); only reads them.
    // Optimized at its first call, not tiered (tier-0 code and its on-stack replacement added 20-60 ms
    // to a count of 200000 tasks here).
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    static int Ended(ReadOnlySpan<Task> tasks)
    {
        int ended = 0;
        for (int i = tasks.Length - 1; i >= 0; i--) if (tasks[i].IsCompleted) ended++;
        return ended;
    }

    // SyncArgs: reads `N mutex|channel [--start gated|eager]` (exit 2 otherwise), then BENCH_THREADS;
    // Locked: mutex; Eager: --start eager (the default is gated).
    public static (int N, bool Locked, bool Eager) SyncArgs(string name, string[] args)
    {
        bool startOk = args.Length == 2 || (args.Length == 4 && args[2] == "--start" && args[3] is "gated" or "eager");
        long n = startOk ? Num(args[0], int.MaxValue) : -1;
        if (n < 1 || args[1] is not ("mutex" or "channel"))
            Usage($"usage: {name} N mutex|channel [--start gated|eager]  (N >= 1; env BENCH_THREADS=T for T pool workers)");
        SetThreads(name);
        return ((int)n, args[1] == "mutex", args.Length == 4 && args[3] == "eager");
    }

    public static void Usage(string line)
    {
        Console.Error.WriteLine(line);
        Environment.Exit(2);
    }

    public static void Check(string name, bool ok, string what)
    {
        if (ok) return;
        Console.Error.WriteLine($"{name}: check failed: {what}");
        Environment.Exit(1);
    }

    // BENCH_THREADS=T: exactly T thread-pool workers (minimum and maximum both T). Without it the
    // runtime's defaults stay: ProcessorCount workers at first, more injected when the pool sees
    // starvation. Either way the timer thread and the main thread come on top of the workers.
    public static void SetThreads(string name)
    {
        string? s = Environment.GetEnvironmentVariable("BENCH_THREADS");
        if (s is null) return;
        long t = Num(s, int.MaxValue);
        if (t < 1) Usage($"{name}: BENCH_THREADS must be a whole number >= 1, got '{s}'");
        ThreadPool.GetMinThreads(out _, out int ioMin);
        ThreadPool.GetMaxThreads(out _, out int ioMax);
        // The minimum first: the pool refuses a maximum below its minimum (ProcessorCount by default),
        // so T below ProcessorCount works without DOTNET_PROCESSOR_COUNT.
        bool minOk = ThreadPool.SetMinThreads((int)t, ioMin);
        bool maxOk = ThreadPool.SetMaxThreads((int)t, ioMax);
        ThreadPool.GetMinThreads(out int min, out _);
        ThreadPool.GetMaxThreads(out int max, out _);
        if (!minOk || !maxOk || min != t || max != t)
            Usage($"{name}: BENCH_THREADS={t}: the thread pool did not take {t} workers (SetMinThreads {minOk}, " +
                  $"SetMaxThreads {maxOk}, now min {min} max {max}, ProcessorCount {Environment.ProcessorCount})");
        fixedThreads = (int)t;
    }

    // WaitAll: waits for `all` (the Task.WhenAll of `tasks` that the public program awaits), with a
    // progress line on stderr about once a second. A task
    // that threw is counted by the caller (IsCompletedSuccessfully), not rethrown here.
    public static void WaitAll(string name, Task all, IEnumerable<Task> tasks, long n)
    {
        while (!((IAsyncResult)all).AsyncWaitHandle.WaitOne(1000))
        {
            Sample();
            Console.Error.WriteLine($"{name}: {tasks.Count(t => t.IsCompleted)} of {n} completed");
        }
    }

    // Sample: notes the thread pool's worker count (called about once a second and at the end).
    public static void Sample() => peakThreads = Math.Max(peakThreads, ThreadPool.ThreadCount);

    // The keys after scenario=: runtime, n and threads (the most pool workers seen), and pool (who
    // chose the count).
    public static string Head(long n)
    {
        Sample();
        string runtime = RuntimeFeature.IsDynamicCodeSupported ? "dotnet-jit" : "dotnet-aot";
        string pool = fixedThreads > 0 ? "BENCH_THREADS" : "default";
        return $"runtime={runtime} n={n} threads={peakThreads} pool={pool}";
    }

    // The keys that close the line: the GC mode that ran and the runtime's version.
    // LatencyMode is Batch exactly when concurrent (background) collection is off.
    public static string Tail()
    {
        string kind = GCSettings.IsServerGC ? "server" : "workstation";
        string concurrent = GCSettings.LatencyMode == GCLatencyMode.Batch ? "nonconcurrent" : "concurrent";
        return $"gc={kind}-{concurrent} dotnet={Environment.Version}";
    }
}
