// hash_collect, Java 21+ virtual threads: one virtual thread per task, each SHA-512s the text of a
// fresh UUID.randomUUID() (MessageDigest "SHA-512") and hands the 64-byte digest to one collector: an
// ArrayList under a ReentrantLock (mutex), or a LinkedBlockingQueue that one consumer virtual thread
// drains into the list, stopping after N digests (channel); all joined.
// Gated (the default): every task first awaits one CountDownLatch, counted down after the last
// start, so that all N exist before any of them hashes (ours makes every task before any runs).
// Eager (--start eager): the latch is open from the start, so each thread runs as soon as it is
// started, as the 2023 programs' threads do. ThreadsHashCollect runs this same program with a platform
// thread per task (Thread.ofPlatform()), that post's "Java Threads".
// UUID.randomUUID draws from one SecureRandom that every thread shares.
// Built by run.sh --peers with a JDK of 21 or newer, which it finds in JAVA_HOME, PEERS_JDKS or PATH.
// Run:    java VirtualHashCollect N mutex|channel [--start gated|eager]
// Prints: scenario=hash_collect runtime=java-virtual n=N sync=V start=G spawn_ms=S wall_ms=W completed=C;
// exits 1 if a digest is lost, repeated or wrong.
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

public class VirtualHashCollect {
    // What every task shares: the gate, the collector and the counts.
    static final class Collector {
        final boolean locked;
        final CountDownLatch gate;
        // ReentrantLock rather than synchronized: before JDK 24 a virtual thread blocked on a
        // monitor pins its carrier thread; one blocked on a ReentrantLock unmounts.
        final ReentrantLock lock = new ReentrantLock();
        final ArrayList<byte[]> digests;
        final LinkedBlockingQueue<byte[]> sent = new LinkedBlockingQueue<>();
        final LongAdder completed = new LongAdder();
        volatile String first; // task 0's UUID text, hashed again by the check

        Collector(boolean locked, boolean eager, int n) {
            this.locked = locked;
            gate = new CountDownLatch(eager ? 0 : 1); // eager: open from the start
            digests = new ArrayList<>(n); // room for all N from the start, as ours reserves
        }

        // One task: waits at the gate, then hashes; task 0 (keep) also keeps its text.
        void hash(boolean keep) {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
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
        run(argv, Thread.ofVirtual(), "VirtualHashCollect", "java-virtual");
    }

    // The program, its threads made by builder; program and runtime name it in its lines.
    static void run(String[] argv, Thread.Builder builder, String program, String runtime) throws InterruptedException {
        int n = count(argv, program);
        boolean locked = argv[1].equals("mutex");
        boolean eager = argv.length == 4 && argv[3].equals("eager");
        System.err.println(program + ": spawning " + n + " tasks");
        long start = System.nanoTime();
        Collector c = new Collector(locked, eager, n);
        Thread consumer = locked ? null : builder.start(() -> c.collect(n));
        Runnable task = () -> c.hash(false); // one Runnable for all but task 0
        Thread[] threads = new Thread[n];
        threads[0] = builder.start(() -> c.hash(true));
        for (int i = 1; i < n; i++) threads[i] = builder.start(task);
        long spawnMs = (System.nanoTime() - start) / 1_000_000;
        System.err.println(program + ": " + n + " tasks spawned in " + spawnMs + " ms");
        c.gate.countDown(); // eager: already open, nothing to do
        for (Thread t : threads) t.join();
        if (consumer != null) consumer.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;

        // Every add is seen here: each thread was joined (the consumer too, with a channel).
        long completed = c.completed.sum();
        check(completed == n, "completed " + completed + " of " + n);
        check(c.digests.size() == n, "collected " + c.digests.size() + " digests of " + n);
        // Sorted in place, not put in a HashSet: the check then makes nothing per digest (the sort's
        // only scratch is at most N/2 references), so it adds next to nothing to the max RSS being
        // measured. Equal digests end up side by side.
        Comparator<byte[]> order = Arrays::compare;
        c.digests.sort(order);
        for (int i = 1; i < n; i++)
            check(!Arrays.equals(c.digests.get(i), c.digests.get(i - 1)), "two digests are equal");
        check(Collections.binarySearch(c.digests, sha512(c.first), order) >= 0,
                "the digest of task 0's UUID, recomputed, is not among those collected");
        System.out.println("scenario=hash_collect runtime=" + runtime + " n=" + n + " sync=" + argv[1] + " start="
                + (eager ? "eager" : "gated") + " spawn_ms="
                + spawnMs + " wall_ms=" + wallMs + " completed=" + completed);
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
            System.err.println("hash_collect: check failed: " + what);
            System.exit(1);
        }
    }
}
