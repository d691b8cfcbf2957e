// The timer executor of the CompletableFuture peers: one thread, as the public programs have it,
// or BENCH_THREADS=T threads (run.sh's THREADS list). A bad value is a usage error: exit 2.
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

final class Timers {
    static ScheduledExecutorService create() {
        String t = System.getenv("BENCH_THREADS");
        if (t == null) return Executors.newSingleThreadScheduledExecutor();
        try {
            int n = Integer.parseInt(t);
            if (n >= 1 && n <= 1024) return Executors.newScheduledThreadPool(n);
        } catch (NumberFormatException e) { // not a number: refused below
        }
        System.err.println("BENCH_THREADS must be a whole number from 1 to 1024, got '" + t + "'");
        System.exit(2);
        return null;
    }
}
