// running_avg, Java: a platform thread per task, started at once and all joined: VirtualRunningAvg's program
// with Thread.ofPlatform() for Thread.ofVirtual(), the 2023 running-average post's "Java Threads".
// run.sh caps it at THREAD_CAP threads, like every thread-per-task program (kernel.pid_max).
// Run:    java ThreadsRunningAvg N mutex|channel [--start gated|eager]
public class ThreadsRunningAvg {
    public static void main(String[] argv) throws InterruptedException {
        VirtualRunningAvg.run(argv, Thread.ofPlatform(), "ThreadsRunningAvg", "java-threads");
    }
}
