// threads, Java: N platform threads (the JVM's default stack, -Xss), each Thread.sleep(SLEEP_MS);
// all joined. When the OS refuses a thread, says how many started, joins them and exits 1.
// Run:    java Threads N [SLEEP_MS=5000]
// Prints: scenario=threads runtime=java ... completed=C; exits 1 if C != N.
import java.util.concurrent.atomic.LongAdder;

public class Threads {
    public static void main(String[] argv) throws InterruptedException {
        long[] a = args(argv);
        int n = (int) a[0];
        long ms = a[1];
        long start = System.nanoTime();
        LongAdder completed = new LongAdder();
        Runnable sleeper = () -> {
            try {
                Thread.sleep(ms);
                completed.increment();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            threads[i] = new Thread(sleeper);
            try {
                threads[i].start();
            } catch (OutOfMemoryError e) { // "unable to create native thread"
                System.err.println("Threads: thread " + (i + 1) + " of " + n + " not started: " + e.getMessage()
                        + "; joining the others");
                for (int j = 0; j < i; j++) threads[j].join();
                System.exit(1);
            }
        }
        for (Thread t : threads) t.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        check(completed.sum() == n, "completed " + completed.sum() + " of " + n);
        check(wallMs >= ms, "the run took less than one sleep");
        System.out.println("scenario=threads runtime=java variant=platform n=" + n + " sleep_ms=" + ms
                + " wall_ms=" + wallMs + " completed=" + completed.sum());
    }

    // N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
    static long[] args(String[] args) {
        try {
            long n = Integer.parseInt(args[0]);
            long ms = args.length > 1 ? Long.parseLong(args[1]) : 5000;
            if (n >= 1 && ms >= 0 && args.length <= 2) return new long[] {n, ms};
        } catch (RuntimeException e) { // missing or not a number
        }
        System.err.println("usage: java Threads N [SLEEP_MS=5000]  (N >= 1)");
        System.exit(2);
        return null;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("Threads: check failed: " + what);
            System.exit(1);
        }
    }
}
