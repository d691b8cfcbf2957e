// coro_shared, C#: one Task.Delay(SLEEP_MS), made before the first spawn, awaited by N async lambdas
// from Enumerable.Range(0, N).Select; Task.WhenAll waits for all of them. When the delay completes,
// the thread-pool thread that completes it runs the waiting continuations.
// Run:    csharp-coro_shared N [SLEEP_MS=5000]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=coro_shared runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS spawn_ms=S
//         ended_at_spawn=E wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N or the run took
//         less than one sleep (by the timers' own clock). S: ms from start (the shared delay is made
//         first) until ToArray returns (each lambda has run up to its await); E: tasks already ended
//         by then (Task.IsCompleted, counted just after).
Peer.RunSleepers("coro_shared", args, (n, ms) =>
{
    Task shared = Task.Delay(ms);
    return Enumerable.Range(0, n).Select(async _ => await shared).ToArray();
});
