// running_avg, Java 21+ virtual threads: one virtual thread per task, each draws one
// ThreadLocalRandom value in [0, 100) and pushes it into ONE running mean and variance (Welford):
// under a ReentrantLock (mutex), or put on a LinkedBlockingQueue that one consumer virtual thread
// drains, owning the statistics and stopping after N values (channel); all joined.
// Every task first awaits one CountDownLatch, counted down after the last start, so that all N
// exist before any of them draws (ours makes every task before any runs).
// Built by run.sh --peers with a JDK of 21 or newer, which it finds in JAVA_HOME, PEERS_JDKS or PATH.
// Run:    java VirtualRunningAvg N mutex|channel
// Prints: scenario=running_avg runtime=java-virtual n=N sync=V spawn_ms=S wall_ms=W mean=M variance=V completed=C;
// exits 1 if a value is lost or the mean or variance is more than 6 standard errors off.
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

public class VirtualRunningAvg {
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
        Welford stats = new Welford();
        // ReentrantLock rather than synchronized: before JDK 24 a virtual thread blocked on a
        // monitor pins its carrier thread; one blocked on a ReentrantLock unmounts.
        ReentrantLock lock = new ReentrantLock();
        LinkedBlockingQueue<Double> values = new LinkedBlockingQueue<>();
        LongAdder completed = new LongAdder();
        CountDownLatch gate = new CountDownLatch(1);
        System.err.println("VirtualRunningAvg: spawning " + n + " tasks");
        long start = System.nanoTime();
        Thread.Builder builder = Thread.ofVirtual();
        Thread consumer = locked ? null : builder.start(() -> {
            try {
                for (int i = 0; i < n; i++) stats.push(values.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runnable task = locked ? () -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            double x = ThreadLocalRandom.current().nextDouble(100);
            lock.lock();
            try {
                stats.push(x);
            } finally {
                lock.unlock();
            }
            completed.increment();
        } : () -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            values.add(ThreadLocalRandom.current().nextDouble(100));
            completed.increment();
        };
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) threads[i] = builder.start(task);
        long spawnMs = (System.nanoTime() - start) / 1_000_000;
        System.err.println("VirtualRunningAvg: " + n + " tasks spawned in " + spawnMs + " ms");
        gate.countDown();
        for (Thread t : threads) t.join();
        if (consumer != null) consumer.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;

        // Every push is seen here: each thread was joined (the consumer too, with a channel).
        double mean = stats.mean, variance = stats.variance();
        // Uniform on [0, 100): mean 50, variance 100^2/12; the standard error of the sample
        // variance is sqrt(mu4 - sigma^4)/sqrt(N), mu4 = 100^4/80.
        check(completed.sum() == n, "completed " + completed.sum() + " of " + n);
        check(stats.n == n, "pushed " + stats.n + " values of " + n);
        check(Math.abs(mean - 50) <= 6 * Math.sqrt(833.333 / n),
                "mean " + format(mean) + " is more than 6 standard errors from 50");
        // The variance is checked only when N >= 3: at N = 2 the sample variance exceeds the band
        // whenever the two values are more than 89.4 apart, about 1.1 % of honest runs. The mean's band
        // holds for every N.
        if (n >= 3)
            check(Math.abs(variance - 833.333) <= 6 * 745.36 / Math.sqrt(n),
                    "variance " + format(variance) + " is more than 6 standard errors from 833.333");
        System.out.println("scenario=running_avg runtime=java-virtual n=" + n + " sync=" + argv[1] + " spawn_ms="
                + spawnMs + " wall_ms=" + wallMs + " mean=" + format(mean) + " variance=" + format(variance)
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
        System.err.println("usage: java VirtualRunningAvg N mutex|channel  (N >= 1)");
        System.exit(2);
        return 0;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("VirtualRunningAvg: check failed: " + what);
            System.exit(1);
        }
    }
}
