// The resident set in KiB, for rss_wait_kib= once every task exists and waits (coro_timer and
// coro_shared, the virtual-thread programs in jdk21/ too): VmRSS from /proc/self/status on Linux,
// "-" elsewhere (the JDK has no call for it).
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

final class Rss {
    static String kib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status")))
                if (line.startsWith("VmRSS:")) return line.split("\\s+")[1];
        } catch (IOException e) { // no /proc: not Linux
        }
        return "-";
    }
}
