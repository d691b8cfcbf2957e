// coro_timer, Java: per task a CompletableFuture that one ScheduledExecutorService thread completes
// after SLEEP_MS; CompletableFuture.allOf waits for all of them. (No virtual threads before JDK 21.)
// Run:    java CoroTimer N [SLEEP_MS=5000]   (BENCH_THREADS=T: T timer threads, see Timers.java)
// Prints: scenario=coro_timer runtime=java variant=CompletableFuture n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R
//         wall_ms=W completed=C; exits 1 if C != N. S: ms from start until the spawn loop returns
//         (every delay is scheduled); E: futures already done by then (isDone, counted just after,
//         newest first; one completed during the count counts too, so E can only err high).
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

public class CoroTimer {
    public static void main(String[] argv) {
        long[] a = args(argv);
        int n = (int) a[0];
        long ms = a[1];
        long start = System.nanoTime();
        ScheduledExecutorService timers = Timers.create();
        CompletableFuture<?>[] tasks = new CompletableFuture<?>[n];
        for (int i = 0; i < n; i++) {
            CompletableFuture<Void> task = new CompletableFuture<>();
            timers.schedule(() -> task.complete(null), ms, TimeUnit.MILLISECONDS);
            tasks[i] = task;
        }
        long spawnMs = Math.round((System.nanoTime() - start) / 1e6);
        // Counted just after, newest first: the timer fires them about in the order they were made, so
        // the ones that may still be firing are looked at closest to the moment. Only reads the futures.
        long endedAtSpawn = 0;
        for (int i = n - 1; i >= 0; i--) if (tasks[i].isDone()) endedAtSpawn++;
        String rssWait = Rss.kib(); // every task exists and waits
        CompletableFuture.allOf(tasks).join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        timers.shutdown();
        long completed = 0;
        for (CompletableFuture<?> t : tasks) if (t.isDone() && !t.isCompletedExceptionally()) completed++;
        check(completed == n, "completed " + completed + " of " + n);
        check(wallMs >= ms, "the run took less than one sleep");
        System.out.println("scenario=coro_timer runtime=java variant=CompletableFuture n=" + n + " sleep_ms=" + ms
                + " spawn_ms=" + spawnMs + " ended_at_spawn=" + endedAtSpawn + " rss_wait_kib=" + rssWait + " wall_ms=" + wallMs
                + " completed=" + completed);
    }

    // N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
    static long[] args(String[] args) {
        try {
            long n = Integer.parseInt(args[0]);
            long ms = args.length > 1 ? Long.parseLong(args[1]) : 5000;
            if (n >= 1 && ms >= 0 && args.length <= 2) return new long[] {n, ms};
        } catch (RuntimeException e) { // missing or not a number
        }
        System.err.println("usage: java CoroTimer N [SLEEP_MS=5000]  (N >= 1)");
        System.exit(2);
        return null;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("CoroTimer: check failed: " + what);
            System.exit(1);
        }
    }
}
