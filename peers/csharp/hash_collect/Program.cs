// hash_collect, C#: N tasks from Task.Run, each first awaiting one gate (gated, the default: a
// TaskCompletionSource opened after the last Task.Run, so that all N exist before any hashes; eager:
// opened before the first), then taking Guid.NewGuid() (a version-4 UUID) as its 36 characters,
// SHA512.HashData of their UTF-8 bytes, and handing the 64-byte digest to one collector. mutex:
// added to a List<byte[]> under a C# `lock` on one object. channel: written to one unbounded
// System.Threading.Channels channel, whose one consumer task adds them to the list and stops after
// N. Task.WhenAll waits for the N tasks; all of them run on the .NET thread pool.
// Run:    csharp-hash_collect N mutex|channel [--start gated|eager]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=hash_collect runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sync=mutex|channel
//         start=G spawn_ms=S wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N, the list does not hold
//         N digests, two of them are equal, or one task's digest, recomputed, is not among them.
using System.Diagnostics;
using System.Security.Cryptography;
using System.Text;
using System.Threading.Channels;

const string name = "hash_collect";
var (n, locked, eager) = Peer.SyncArgs(name, args);

var digests = new List<byte[]>(n);  // sized up front, as ours reserves: no regrowth under the lock
object mutex = new();
var channel = Channel.CreateUnbounded<byte[]>(new UnboundedChannelOptions { SingleReader = true });
string? first = null;  // the first UUID text set here, for the check to hash again
var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
// Eager (--start eager): open from the start, so each task runs on as soon as the pool starts it,
// as the 2023 programs' tasks do (awaiting a completed task does not yield).
if (eager) gate.SetResult();

Console.Error.WriteLine($"{name}: spawning {n} tasks");
var clock = Stopwatch.StartNew();
// Spawned first, inside the timed spawning, as ours is. The channel is never completed: it stops
// at the Nth digest.
Task collector = locked ? Task.CompletedTask : Task.Run(async () =>
{
    await foreach (byte[] digest in channel.Reader.ReadAllAsync())
    {
        digests.Add(digest);
        if (digests.Count == n) break;
    }
});
// One delegate, made once for the N Task.Run calls: a lambda written in the loop that captured the
// task's index would be a closure and a delegate per task, memory that ours does not spend. So the
// check keeps whichever text is set first, not task 0's.
Func<Task> hash = async () =>
{
    await gate.Task;
    string text = Guid.NewGuid().ToString();
    if (first is null) Interlocked.CompareExchange(ref first, text, null);
    byte[] digest = SHA512.HashData(Encoding.UTF8.GetBytes(text));
    if (locked)
        lock (mutex) digests.Add(digest);
    else
        await channel.Writer.WriteAsync(digest);  // unbounded: never waits
};
var tasks = new Task[n];
for (int i = 0; i < n; i++) tasks[i] = Task.Run(hash);
long spawnMs = clock.ElapsedMilliseconds;
Console.Error.WriteLine($"{name}: {n} tasks spawned in {spawnMs} ms");
// Opening the gate queues the N waiting continuations to the pool; that is part of the run, not of
// spawning.
if (!eager) gate.SetResult();
Task all = Task.WhenAll(tasks);
Peer.WaitAll(name, all, tasks, n);
// A task that failed sent no digest, and the collector would wait for it forever.
if (all.IsCompletedSuccessfully) collector.Wait();
long wallMs = clock.ElapsedMilliseconds;

int completed = tasks.Count(t => t.IsCompletedSuccessfully);
Peer.Check(name, completed == n, $"completed {completed} of {n}");
Peer.Check(name, digests.Count == n, $"collected {digests.Count} digests of {n}");
// Sorted in place, not put in a HashSet: the check then takes no memory per digest, so it adds
// nothing to the max RSS being measured. Equal digests end up side by side.
var order = Comparer<byte[]>.Create((a, b) => ((ReadOnlySpan<byte>)a).SequenceCompareTo(b));
digests.Sort(order);
for (int i = 1; i < n; i++)
    Peer.Check(name, !digests[i].AsSpan().SequenceEqual(digests[i - 1]), "two digests are equal");
Peer.Check(name, first is not null && digests.BinarySearch(SHA512.HashData(Encoding.UTF8.GetBytes(first)), order) >= 0,
           "the first task's digest, recomputed, is not among those collected");
Console.WriteLine($"scenario={name} {Peer.Head(n)} sync={(locked ? "mutex" : "channel")} start={(eager ? "eager" : "gated")} spawn_ms={spawnMs} " +
                  $"wall_ms={wallMs} completed={completed} {Peer.Tail()}");
