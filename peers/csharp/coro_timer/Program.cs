// coro_timer, C#: N async lambdas from Enumerable.Range(0, N).Select, each `await Task.Delay(SLEEP_MS)`,
// all awaited with Task.WhenAll; the continuations run on the .NET thread pool.
// Run:    csharp-coro_timer N [SLEEP_MS=5000]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=coro_timer runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS spawn_ms=S
//         ended_at_spawn=E wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N or the run took
//         less than one sleep (by the timers' own clock). S: ms from start until ToArray returns (each
//         lambda has run up to its await, so every delay's timer is armed); E: tasks already ended by
//         then (Task.IsCompleted, counted just after).
Peer.RunSleepers("coro_timer", args, (n, ms) => Enumerable.Range(0, n).Select(async _ => await Task.Delay(ms)).ToArray());
