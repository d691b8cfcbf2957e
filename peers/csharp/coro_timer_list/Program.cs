// coro_timer, C#, as the 2024 "1 million concurrent tasks" posts write it: a List<Task> of N bare
// Task.Delay(SLEEP_MS) tasks, no async method around each (so no state machine per task), then
// Task.WhenAll of the list.
// Run:    csharp-coro_timer_list N [SLEEP_MS=5000]   (env BENCH_THREADS=T: T pool workers)
// Prints: scenario=coro_timer runtime=dotnet-jit|dotnet-aot n=N threads=T pool=... sleep_ms=MS spawn_ms=S
//         ended_at_spawn=E wall_ms=W completed=C gc=... dotnet=V; exits 1 if C != N or the run took
//         less than one sleep (by the timers' own clock). S: ms from start until the loop returns
//         (every delay's timer is armed by Task.Delay); E: tasks already ended by then
//         (Task.IsCompleted, counted just after).
Peer.RunSleepers("coro_timer", args, (n, ms) =>
{
    var tasks = new List<Task>(n);
    for (int i = 0; i < n; i++) tasks.Add(Task.Delay(ms));
    return tasks;
});
