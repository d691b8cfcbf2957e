// hash_collect, Java: a platform thread per task, started at once and all joined: VirtualHashCollect's program
// with Thread.ofPlatform() for Thread.ofVirtual(), the 2023 running-average post's "Java Threads".
// run.sh caps it at THREAD_CAP threads, like every thread-per-task program (kernel.pid_max).
// Run:    java ThreadsHashCollect N mutex|channel [--start gated|eager]
public class ThreadsHashCollect {
    public static void main(String[] argv) throws InterruptedException {
        VirtualHashCollect.run(argv, Thread.ofPlatform(), "ThreadsHashCollect", "java-threads");
    }
}
