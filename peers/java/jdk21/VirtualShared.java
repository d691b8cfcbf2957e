// coro_shared, Java 21+ virtual threads: N virtual threads all await ONE CountDownLatch, which a
// single virtual thread, started first, counts down after sleeping SLEEP_MS; all joined.
// Built by run.sh --peers with a JDK of 21 or newer, which it finds in JAVA_HOME, PEERS_JDKS or PATH.
// Run:    java VirtualShared N [SLEEP_MS=5000]
// Prints: scenario=coro_shared runtime=java variant=virtual n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R
//         wall_ms=W completed=C; exits 1 if C != N. S: ms from start (the timer thread is started
//         first) until the spawn loop returns (every waiter is started); E: waiters past the latch by
//         then, the timer not counted (the count each one adds to as its last act, read at that moment).
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

public class VirtualShared {
    public static void main(String[] argv) throws InterruptedException {
        long[] a = args(argv);
        int n = (int) a[0];
        long ms = a[1];
        long start = System.nanoTime();
        CountDownLatch done = new CountDownLatch(1);
        Thread timer = Thread.startVirtualThread(() -> {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.countDown();
        });
        LongAdder completed = new LongAdder();
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            threads[i] = Thread.startVirtualThread(() -> {
                try {
                    done.await();
                    completed.increment();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        long spawnMs = Math.round((System.nanoTime() - start) / 1e6);
        long endedAtSpawn = completed.sum();
        String rssWait = Rss.kib(); // every task exists and waits
        timer.join();
        for (Thread t : threads) t.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        check(completed.sum() == n, "completed " + completed.sum() + " of " + n);
        check(wallMs >= ms, "the run took less than one sleep");
        System.out.println("scenario=coro_shared runtime=java variant=virtual n=" + n + " sleep_ms=" + ms
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
        System.err.println("usage: java VirtualShared N [SLEEP_MS=5000]  (N >= 1)");
        System.exit(2);
        return null;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("VirtualShared: check failed: " + what);
            System.exit(1);
        }
    }
}
