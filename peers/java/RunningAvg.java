// running_avg, Java: N Runnables on a fixed pool of platform threads (Executors.newFixedThreadPool),
// each draws one ThreadLocalRandom value in [0, 100) and pushes it into ONE running mean and
// variance (Welford): under a ReentrantLock (mutex), or put on a LinkedBlockingQueue that one
// consumer thread drains, owning the statistics and stopping after N values (channel).
// Not gated: the pool runs T tasks at a time while the rest wait in its queue, so the N are never
// all alive at once (N platform threads could not be; VirtualRunningAvg has a thread per task).
// Run:    java RunningAvg N mutex|channel   (BENCH_THREADS=T: T pool threads, else one per core)
// Prints: scenario=running_avg runtime=java n=N sync=V spawn_ms=S wall_ms=W mean=M variance=V completed=C;
// exits 1 if a value is lost or the mean or variance is more than 6 standard errors off.
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

public class RunningAvg {
    // Welford's running mean and sample variance (Welford 1962; Knuth, TAOCP vol. 2, 4.2.2): one
    // pass, and no cancellation between two large sums.
    static final class Welford {
        long n;
        double mean, m2;

        void push(double x) {
            n++;
            double d = x - mean;
            mean += d / n;
            m2 += d * (x - mean);
        }

        // The sample variance (divided by n - 1); a single value has no spread: 0.
        double variance() {
            return n > 1 ? m2 / (n - 1) : 0;
        }
    }

    public static void main(String[] argv) throws InterruptedException {
        int n = count(argv);
        boolean locked = argv[1].equals("mutex");
        int threads = poolThreads();
        Welford stats = new Welford();
        // ReentrantLock rather than synchronized: the same lock as VirtualRunningAvg's, where
        // synchronized would pin a blocked virtual thread to its carrier before JDK 24.
        ReentrantLock lock = new ReentrantLock();
        LinkedBlockingQueue<Double> values = new LinkedBlockingQueue<>();
        LongAdder completed = new LongAdder();
        System.err.println("RunningAvg: spawning " + n + " tasks");
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Thread consumer = new Thread(() -> {
            try {
                for (int i = 0; i < n; i++) stats.push(values.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!locked) consumer.start();
        Runnable task = locked ? () -> { // one Runnable, submitted N times
            double x = ThreadLocalRandom.current().nextDouble(100);
            lock.lock();
            try {
                stats.push(x);
            } finally {
                lock.unlock();
            }
            completed.increment();
        } : () -> {
            values.add(ThreadLocalRandom.current().nextDouble(100));
            completed.increment();
        };
        for (int i = 0; i < n; i++) pool.execute(task);
        long spawnMs = (System.nanoTime() - start) / 1_000_000;
        System.err.println("RunningAvg: " + n + " tasks spawned in " + spawnMs + " ms");
        pool.shutdown();
        pool.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
        if (!locked) consumer.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;

        // Read under the lock (mutex) or after join (channel), so that every push is seen.
        double mean, variance;
        long pushed;
        lock.lock();
        try {
            mean = stats.mean;
            variance = stats.variance();
            pushed = stats.n;
        } finally {
            lock.unlock();
        }
        // Uniform on [0, 100): mean 50, variance 100^2/12; the standard error of the sample
        // variance is sqrt(mu4 - sigma^4)/sqrt(N), mu4 = 100^4/80.
        check(completed.sum() == n, "completed " + completed.sum() + " of " + n);
        check(pushed == n, "pushed " + pushed + " values of " + n);
        check(Math.abs(mean - 50) <= 6 * Math.sqrt(833.333 / n),
                "mean " + format(mean) + " is more than 6 standard errors from 50");
        // The variance is checked only when N >= 3: at N = 2 the sample variance exceeds the band
        // whenever the two values are more than 89.4 apart, about 1.1 % of honest runs. The mean's band
        // holds for every N.
        if (n >= 3)
            check(Math.abs(variance - 833.333) <= 6 * 745.36 / Math.sqrt(n),
                    "variance " + format(variance) + " is more than 6 standard errors from 833.333");
        System.out.println("scenario=running_avg runtime=java n=" + n + " sync=" + argv[1] + " spawn_ms=" + spawnMs
                + " wall_ms=" + wallMs + " mean=" + format(mean) + " variance=" + format(variance)
                + " completed=" + completed.sum());
    }

    static String format(double x) {
        return String.format(Locale.ROOT, "%.6f", x); // a dot, whatever the locale
    }

    // N (digits only, >= 1) and the variant, both required; anything else is a usage error, exit 2.
    static int count(String[] args) {
        if (args.length == 2 && args[0].matches("[0-9]+") && (args[1].equals("mutex") || args[1].equals("channel"))) {
            try {
                int n = Integer.parseInt(args[0]);
                if (n >= 1) return n;
            } catch (NumberFormatException e) { // beyond an int: refused below
            }
        }
        System.err.println("usage: java RunningAvg N mutex|channel  (N >= 1)");
        System.exit(2);
        return 0;
    }

    // The pool's size: BENCH_THREADS=T (run.sh's THREADS list), read as Timers.java reads it, else
    // one thread per core as a fixed pool usually has. A bad value is a usage error: exit 2.
    static int poolThreads() {
        String t = System.getenv("BENCH_THREADS");
        if (t == null) return Runtime.getRuntime().availableProcessors();
        try {
            int n = Integer.parseInt(t);
            if (n >= 1 && n <= 1024) return n;
        } catch (NumberFormatException e) { // not a number: refused below
        }
        System.err.println("BENCH_THREADS must be a whole number from 1 to 1024, got '" + t + "'");
        System.exit(2);
        return 0;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("RunningAvg: check failed: " + what);
            System.exit(1);
        }
    }
}
