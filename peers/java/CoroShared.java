// coro_shared, Java: ONE CompletableFuture that one ScheduledExecutorService thread completes after
// SLEEP_MS (scheduled before the waiters exist); per task a dependent stage (thenRun) of it;
// CompletableFuture.allOf waits for all of them.
// Run:    java CoroShared N [SLEEP_MS=5000]  (BENCH_THREADS=T: T timer threads, see Timers.java)
// Prints: scenario=coro_shared runtime=java variant=CompletableFuture n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R
//         wall_ms=W completed=C; exits 1 if C != N. S: ms from start (the shared delay is scheduled
//         first) until the spawn loop returns (every stage is attached); E: stages whose action had
//         run by then (the count each one adds to as its only act, read at that moment).
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

public class CoroShared {
    public static void main(String[] argv) {
        long[] a = args(argv);
        int n = (int) a[0];
        long ms = a[1];
        long start = System.nanoTime();
        ScheduledExecutorService timers = Timers.create();
        CompletableFuture<Void> shared = new CompletableFuture<>();
        timers.schedule(() -> shared.complete(null), ms, TimeUnit.MILLISECONDS);
        LongAdder completed = new LongAdder();
        CompletableFuture<?>[] tasks = new CompletableFuture<?>[n];
        for (int i = 0; i < n; i++) tasks[i] = shared.thenRun(completed::increment);
        long spawnMs = Math.round((System.nanoTime() - start) / 1e6);
        long endedAtSpawn = completed.sum();
        String rssWait = Rss.kib(); // every task exists and waits
        CompletableFuture.allOf(tasks).join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        timers.shutdown();
        check(completed.sum() == n, "completed " + completed.sum() + " of " + n);
        check(wallMs >= ms, "the run took less than one sleep");
        System.out.println("scenario=coro_shared runtime=java variant=CompletableFuture n=" + n + " sleep_ms=" + ms
                + " spawn_ms=" + spawnMs + " ended_at_spawn=" + endedAtSpawn + " rss_wait_kib=" + rssWait + " wall_ms=" + wallMs
                + " completed=" + completed.sum());
    }

    // N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
    static long[] args(String[] args) {
        try {
            long n = Integer.parseInt(args[0]);
            long ms = args.length > 1 ? Long.parseLong(args[1]) : 5000;
            if (n >= 1 && ms >= 0 && args.length <= 2) return new long[] {n, ms};
        } catch (RuntimeException e) { // missing or not a number
        }
        System.err.println("usage: java CoroShared N [SLEEP_MS=5000]  (N >= 1)");
        System.exit(2);
        return null;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("CoroShared: check failed: " + what);
            System.exit(1);
        }
    }
}
