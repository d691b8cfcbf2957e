// hash_collect, Java: N Runnables on a fixed pool of platform threads (Executors.newFixedThreadPool),
// each SHA-512s the text of a fresh UUID.randomUUID() (MessageDigest "SHA-512") and hands the 64-byte
// digest to one collector: an ArrayList under a ReentrantLock (mutex), or a LinkedBlockingQueue that
// one consumer thread drains into the list, stopping after N digests (channel).
// Not gated: the pool runs T tasks at a time while the rest wait in its queue, so the N are never
// all alive at once (N platform threads could not be; VirtualHashCollect has a thread per task).
// UUID.randomUUID draws from one SecureRandom that every thread shares.
// Run:    java HashCollect N mutex|channel   (BENCH_THREADS=T: T pool threads, else one per core)
// Prints: scenario=hash_collect runtime=java n=N sync=V spawn_ms=S wall_ms=W completed=C;
// exits 1 if a digest is lost, repeated or wrong.
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

public class HashCollect {
    // What every task shares: the collector and the counts.
    static final class Collector {
        final boolean locked;
        // ReentrantLock rather than synchronized: the same lock as VirtualHashCollect's, where
        // synchronized would pin a blocked virtual thread to its carrier before JDK 24.
        final ReentrantLock lock = new ReentrantLock();
        final ArrayList<byte[]> digests;
        final LinkedBlockingQueue<byte[]> sent = new LinkedBlockingQueue<>();
        final LongAdder completed = new LongAdder();
        volatile String first; // task 0's UUID text, hashed again by the check

        Collector(boolean locked, int n) {
            this.locked = locked;
            digests = new ArrayList<>(n); // room for all N from the start, as ours reserves
        }

        // One task: task 0 (keep) also keeps its text.
        void hash(boolean keep) {
            String text = UUID.randomUUID().toString();
            if (keep) first = text;
            byte[] d = sha512(text);
            if (locked) {
                lock.lock();
                try {
                    digests.add(d);
                } finally {
                    lock.unlock();
                }
            } else {
                sent.add(d);
            }
            completed.increment();
        }

        // The consumer (channel): appends the N digests it is sent.
        void collect(int n) {
            try {
                for (int i = 0; i < n; i++) digests.add(sent.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] argv) throws InterruptedException {
        int n = count(argv);
        boolean locked = argv[1].equals("mutex");
        int threads = poolThreads();
        System.err.println("HashCollect: spawning " + n + " tasks");
        long start = System.nanoTime();
        Collector c = new Collector(locked, n);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Thread consumer = new Thread(() -> c.collect(n));
        if (!locked) consumer.start();
        Runnable task = () -> c.hash(false); // one Runnable for all but task 0
        pool.execute(() -> c.hash(true));
        for (int i = 1; i < n; i++) pool.execute(task);
        long spawnMs = (System.nanoTime() - start) / 1_000_000;
        System.err.println("HashCollect: " + n + " tasks spawned in " + spawnMs + " ms");
        pool.shutdown();
        pool.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
        if (!locked) consumer.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;

        // Every add was made under the lock (mutex) or before the consumer ended (channel): taking
        // the lock once more here, or the join, makes all of them visible to this thread.
        c.lock.lock();
        c.lock.unlock();
        long completed = c.completed.sum();
        ArrayList<byte[]> digests = c.digests;
        check(completed == n, "completed " + completed + " of " + n);
        check(digests.size() == n, "collected " + digests.size() + " digests of " + n);
        // Sorted in place, not put in a HashSet: the check then makes nothing per digest (the sort's
        // only scratch is at most N/2 references), so it adds next to nothing to the max RSS being
        // measured. Equal digests end up side by side.
        Comparator<byte[]> order = Arrays::compare;
        digests.sort(order);
        for (int i = 1; i < n; i++)
            check(!Arrays.equals(digests.get(i), digests.get(i - 1)), "two digests are equal");
        check(Collections.binarySearch(digests, sha512(c.first), order) >= 0,
                "the digest of task 0's UUID, recomputed, is not among those collected");
        System.out.println("scenario=hash_collect runtime=java n=" + n + " sync=" + argv[1] + " spawn_ms=" + spawnMs
                + " wall_ms=" + wallMs + " completed=" + completed);
    }

    // SHA-512 of the text's bytes (ASCII: a UUID's text has nothing else). A MessageDigest is
    // not thread-safe, so each call gets its own.
    static byte[] sha512(String text) {
        try {
            return MessageDigest.getInstance("SHA-512").digest(text.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) { // every JDK must have SHA-512
            throw new IllegalStateException(e);
        }
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
        System.err.println("usage: java HashCollect N mutex|channel  (N >= 1)");
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
            System.err.println("HashCollect: check failed: " + what);
            System.exit(1);
        }
    }
}
