// running_avg, Java 21+ virtual threads: one virtual thread per task, each draws one
// ThreadLocalRandom value in [0, 100) and pushes it into ONE running mean and variance (Welford):
// under a ReentrantLock (mutex), or put on a LinkedBlockingQueue that one consumer virtual thread
// drains, owning the statistics and stopping after N values (channel); all joined.
// Gated (the default): every task first awaits one CountDownLatch, counted down after the last
// start, so that all N exist before any of them draws (ours makes every task before any runs).
// Eager (--start eager): the latch is open from the start, so each thread runs as soon as it is
// started, as the 2023 programs' threads do. ThreadsRunningAvg runs this same program with a platform
// thread per task (Thread.ofPlatform()), that post's "Java Threads".
// Built by run.sh --peers with a JDK of 21 or newer, which it finds in JAVA_HOME, PEERS_JDKS or PATH.
// Run:    java VirtualRunningAvg N mutex|channel [--start gated|eager]
// Prints: scenario=running_avg runtime=java-virtual n=N sync=V start=G spawn_ms=S wall_ms=W mean=M variance=V completed=C;
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
        run(argv, Thread.ofVirtual(), "VirtualRunningAvg", "java-virtual");
    }

    // The program, its threads made by builder; program and runtime name it in its lines.
    static void run(String[] argv, Thread.Builder builder, String program, String runtime) throws InterruptedException {
        int n = count(argv, program);
        boolean locked = argv[1].equals("mutex");
        boolean eager = argv.length == 4 && argv[3].equals("eager");
        Welford stats = new Welford();
        // ReentrantLock rather than synchronized: before JDK 24 a virtual thread blocked on a
        // monitor pins its carrier thread; one blocked on a ReentrantLock unmounts.
        ReentrantLock lock = new ReentrantLock();
        LinkedBlockingQueue<Double> values = new LinkedBlockingQueue<>();
        LongAdder completed = new LongAdder();
        CountDownLatch gate = new CountDownLatch(eager ? 0 : 1); // eager: open from the start
        System.err.println(program + ": spawning " + n + " tasks");
        long start = System.nanoTime();
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
        System.err.println(program + ": " + n + " tasks spawned in " + spawnMs + " ms");
        gate.countDown(); // eager: already open, nothing to do
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
        System.out.println("scenario=running_avg runtime=" + runtime + " n=" + n + " sync=" + argv[1] + " start="
                + (eager ? "eager" : "gated") + " spawn_ms="
                + spawnMs + " wall_ms=" + wallMs + " mean=" + format(mean) + " variance=" + format(variance)
                + " completed=" + completed.sum());
    }

    static String format(double x) {
        return String.format(Locale.ROOT, "%.6f", x); // a dot, whatever the locale
    }

    // N (digits only, >= 1) and the variant, both required, then --start gated|eager (default
    // gated); anything else is a usage error, exit 2.
    static int count(String[] args, String program) {
        boolean start = args.length == 2 || (args.length == 4 && args[2].equals("--start")
                && (args[3].equals("gated") || args[3].equals("eager")));
        if (start && args[0].matches("[0-9]+") && (args[1].equals("mutex") || args[1].equals("channel"))) {
            try {
                int n = Integer.parseInt(args[0]);
                if (n >= 1) return n;
            } catch (NumberFormatException e) { // beyond an int: refused below
            }
        }
        System.err.println("usage: java " + program + " N mutex|channel [--start gated|eager]  (N >= 1)");
        System.exit(2);
        return 0;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("running_avg: check failed: " + what);
            System.exit(1);
        }
    }
}
