// running_avg, C#: N tasks from Task.Run, each first awaiting one gate (gated, the default: a
// TaskCompletionSource opened after the last Task.Run, so that all N exist before any draws; eager:
// opened before the first), then drawing Random.Shared.NextDouble() * 100 and pushing it into one
// running mean and variance (Welford).
// mutex: the push under a C# `lock` on one object. channel: the value written to one unbounded
// System.Threading.Channels channel, whose one consumer task owns the statistics and stops after N
// values. Task.WhenAll waits for the N tasks; all of them run on the .NET thread pool.
// Run:    csharp-running_avg N mutex|channel [--start gated|eager]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=running_avg runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sync=mutex|channel
//         start=G spawn_ms=S wall_ms=W mean=M variance=V completed=C gc=... dotnet=V; exits 1 if C != N, the
//         statistics did not count N values, or the mean or the variance is more than 6 standard
//         errors from that of uniform [0, 100).
using System.Diagnostics;
using System.Threading.Channels;

const string name = "running_avg";
var (n, locked, eager) = Peer.SyncArgs(name, args);

var stats = new Welford();
object mutex = new();
var channel = Channel.CreateUnbounded<double>(new UnboundedChannelOptions { SingleReader = true });
var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
// Eager (--start eager): open from the start, so each task runs on as soon as the pool starts it,
// as the 2023 programs' tasks do (awaiting a completed task does not yield).
if (eager) gate.SetResult();
// One delegate, made once for the N Task.Run calls (a lambda written in the loop would be a new
// delegate per task).
Func<Task> draw = locked
    ? async () =>
    {
        await gate.Task;
        double x = Random.Shared.NextDouble() * 100;
        lock (mutex) stats.Push(x);
    }
    : async () =>
    {
        await gate.Task;
        await channel.Writer.WriteAsync(Random.Shared.NextDouble() * 100);  // unbounded: never waits
    };

Console.Error.WriteLine($"{name}: spawning {n} tasks");
var clock = Stopwatch.StartNew();
// Spawned first, inside the timed spawning, as ours is. The channel is never completed: it stops
// at the Nth value.
Task consumer = locked ? Task.CompletedTask : Task.Run(async () =>
{
    await foreach (double x in channel.Reader.ReadAllAsync())
    {
        stats.Push(x);
        if (stats.N == n) break;
    }
});
var tasks = new Task[n];
for (int i = 0; i < n; i++) tasks[i] = Task.Run(draw);
long spawnMs = clock.ElapsedMilliseconds;
Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms");
// Opening the gate queues the N waiting continuations to the pool; that is part of the run, not of
// spawning.
if (!eager) gate.SetResult();
Task all = Task.WhenAll(tasks);
Peer.WaitAll(name, all, tasks, n);
// A task that failed sent no value, and the consumer would wait for it forever.
if (all.IsCompletedSuccessfully) consumer.Wait();
long wallMs = clock.ElapsedMilliseconds;

// Uniform [0, 100): mean 50 and variance 100^2 / 12 = 833.333. Standard errors: sqrt(833.333 / N) for
// the mean, about sqrt(mu4 - 833.333^2) / sqrt(N) = 745.36 / sqrt(N) for the sample variance (fourth
// central moment mu4 = 100^4 / 80). Six of them: a correct run all but never fails. The variance is
// checked only when N >= 3: at N = 2 the sample variance exceeds its band whenever the two values
// are more than 89.4 apart, about 1.1 % of honest runs. The mean's band holds for every N.
int completed = tasks.Count(t => t.IsCompletedSuccessfully);
double variance = stats.Variance;
Peer.Check(name, completed == n, $"completed {completed} of {n}");
Peer.Check(name, stats.N == n, $"counted {stats.N} values of {n}");
Peer.Check(name, Math.Abs(stats.Mean - 50) <= 6 * Math.Sqrt(833.333 / n),
           $"mean {stats.Mean} is more than 6 standard errors from 50");
if (n >= 3)
    Peer.Check(name, Math.Abs(variance - 833.333) <= 6 * 745.36 / Math.Sqrt(n),
               $"variance {variance} is more than 6 standard errors from 833.333");
Console.WriteLine($"scenario={name} {Peer.Head(n)} sync={(locked ? "mutex" : "channel")} start={(eager ? "eager" : "gated")} spawn_ms={spawnMs} " +
                  $"wall_ms={wallMs} mean={stats.Mean:F6} variance={variance:F6} completed={completed} {Peer.Tail()}");

// Welford's running mean and variance (Welford 1962; Knuth, TAOCP vol. 2, 4.2.2): one value at a
// time, without the cancellation of a sum of squares minus a squared sum.
sealed class Welford
{
    public long N;
    public double Mean, M2;

    public void Push(double x)
    {
        N++;
        double d = x - Mean;
        Mean += d / N;
        M2 += d * (x - Mean);
    }

    // The sample variance (over N - 1); 0 for one value, which has no spread.
    public double Variance => N > 1 ? M2 / (N - 1) : 0;
}
