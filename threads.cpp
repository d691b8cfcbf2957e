// threads.cpp: N OS threads, each sleeps until its deadline in poll() on one shared pipe.
// Build:  make threads, or with common.hpp beside it: g++ -std=c++20 -O2 -pthread threads.cpp -o threads
// Run:    ./threads 10000 [--sleep-ms 5000] [--stack-kib 16]
// Prints: one line of key=value pairs (see README.md); exits 1 if the OS refuses a thread or one woke early.
#include "common.hpp"

#include <poll.h>
#include <pthread.h>
#include <vector>
#if !defined(__linux__)
#include <sys/sysctl.h>
#endif

using std::chrono::milliseconds;
using std::chrono::steady_clock;

// What every thread shares. Each sleeps in poll() on the read end of one pipe, so one byte
// written to it ends every sleep at once when the OS refuses a thread, and the woken threads
// leave without queueing for a lock (with one shared mutex and condition variable, 32000
// threads took 3.6 s here to get out after notify_all).
struct room {
    milliseconds sleep;
    std::uint64_t n;
    int wake_fd;                       // read end of the pipe
    std::mutex mutex{};                // for the counts, taken once per thread
    std::condition_variable all_in{};  // main waits here: until all n have started waiting
    std::uint64_t waiting = 0, completed = 0;
};

void* sleeper(void* arg) {
    room& r = *static_cast<room*>(arg);
    const auto deadline = steady_clock::now() + r.sleep;
    {
        std::lock_guard lock(r.mutex);
        if (++r.waiting == r.n) r.all_in.notify_one();
    }
    for (auto now = steady_clock::now(); now < deadline; now = steady_clock::now()) {
        pollfd p{r.wake_fd, POLLIN, 0};
        // Round the timeout up; poll() may still return early (a signal), so loop to the deadline.
        auto left = std::chrono::ceil<milliseconds>(deadline - now).count();
        int ready = poll(&p, 1, static_cast<int>(std::min<decltype(left)>(left, 1 << 30)));
        if (ready > 0) return nullptr;  // woken: the run failed
        if (ready < 0 && errno != EINTR) return nullptr;  // cannot happen with a valid fd; never counted
    }
    std::lock_guard lock(r.mutex);
    ++r.completed;  // only a thread that slept to its deadline counts
    return nullptr;
}

std::string thread_limits();  // the limits that can refuse a thread here (below)

// The errno values pthread_create and pthread_attr_setstacksize return (POSIX), by name.
const char* errno_name(int e) {
    switch (e) {
        case EAGAIN: return "EAGAIN";
        case EINVAL: return "EINVAL";
        case ENOMEM: return "ENOMEM";
        case EPERM: return "EPERM";
        default: return "?";
    }
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: threads N [--sleep-ms MS] [--stack-kib K]\n"
                   "  N OS threads each sleep MS milliseconds (default 5000), then all are joined.\n"
                   "  --stack-kib K: each thread's stack size (default: the platform's).\n"
                   "  Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const milliseconds sleep{cli.number("--sleep-ms", 5000, 0, 86400000)};
    const auto stack_kib = cli.number("--stack-kib", 0, 1, std::uint64_t{1} << 30);  // 0: not given
    cli.finish(10240);  // resident bytes per thread, about: touched stack pages and descriptor, whatever K

    // std::thread cannot set a stack size; without --stack-kib, pthread_create gets the default.
    pthread_attr_t attr;
    pthread_attr_t* attrs = nullptr;
    if (stack_kib) {
        if (int e = pthread_attr_init(&attr)) throw std::system_error(e, std::generic_category(), "pthread_attr_init");
        if (int e = pthread_attr_setstacksize(&attr, stack_kib * 1024))
            bench::exit_with(1, "pthread_attr_setstacksize(" + std::to_string(stack_kib) + " KiB): " +
                                    std::strerror(e) + " (" + errno_name(e) + "); the minimum is PTHREAD_STACK_MIN=" +
                                    std::to_string(static_cast<long>(PTHREAD_STACK_MIN) / 1024) + " KiB");
        attrs = &attr;
    }

    bench::report report{"threads", cli, "threads"};
    int pipe_fds[2];
    if (pipe(pipe_fds) < 0) throw std::system_error(errno, std::generic_category(), "pipe");
    room r{sleep, n, pipe_fds[0]};
    std::vector<pthread_t> threads;
    report.start();
    threads.reserve(n);
    int error = 0;
    while (threads.size() < n) {
        pthread_t t;
        if ((error = pthread_create(&t, attrs, sleeper, &r))) break;
        threads.push_back(t);
    }
    report.spawned();

    auto join_all = [&] {
        for (pthread_t t : threads)
            if (int e = pthread_join(t, nullptr)) throw std::system_error(e, std::generic_category(), "pthread_join");
    };
    if (error) {
        // While these threads live the machine may have no PID left, not even for a shell: end
        // them now, then build the message (the limits are read from files, which needs memory).
        const auto failed_at = steady_clock::now();
        if (write(pipe_fds[1], "x", 1) != 1) throw std::system_error(errno, std::generic_category(), "write(pipe)");
        join_all();
        const auto released_ms = std::chrono::duration_cast<milliseconds>(steady_clock::now() - failed_at).count();
        bench::exit_with(1, "pthread_create: " + std::string(std::strerror(error)) + " (" + errno_name(error) +
                                ") after " + std::to_string(threads.size()) + " of " + std::to_string(n) +
                                " threads (all woken and joined in " + std::to_string(released_ms) +
                                " ms); limits: " + thread_limits());
    }
    {
        std::unique_lock lock(r.mutex);
        r.all_in.wait(lock, [&] { return r.waiting == n; });
    }
    report.waiting();
    join_all();
    report.finished();

    bench::check(r.completed == n, std::to_string(r.completed) + " of " + std::to_string(n) +
                                       " threads slept their full " + std::to_string(sleep.count()) + " ms");
    bench::check(report.wall_ms() >= static_cast<double>(sleep.count()), "the run took less than one sleep");
    report.result("completed", r.completed);
    report.print(-1);
}
#endif

std::string rlimit_text(int resource) {
    rlimit r;
    if (getrlimit(resource, &r) < 0) return "?";
    return r.rlim_cur == RLIM_INFINITY ? "unlimited" : std::to_string(r.rlim_cur);
}

#if defined(__linux__)
std::string first_line(const std::string& path) {
    std::string text = bench::os::read_text(path);
    text.erase(std::min(text.find_first_of("\r\n"), text.size()));
    return text.empty() ? "?" : text;
}

std::string thread_limits() {
    // The smallest pids.max of this process's cgroup and its ancestors (bench::os::cgroup_dirs).
    std::string pids_max = "none";
    double least = -1;
    for (const auto& dir : bench::os::cgroup_dirs("pids"))
        if (const double v = bench::os::whole_number(bench::os::read_text(dir + "/pids.max"));
            v >= 0 && (least < 0 || v < least)) {
            least = v;
            pids_max = std::to_string(static_cast<long long>(v)) + " (" + dir + ")";
        }
    return "kernel.pid_max=" + first_line("/proc/sys/kernel/pid_max") +
           " kernel.threads-max=" + first_line("/proc/sys/kernel/threads-max") +
           " vm.max_map_count=" + first_line("/proc/sys/vm/max_map_count") +
           " RLIMIT_NPROC=" + rlimit_text(RLIMIT_NPROC) + " RLIMIT_AS=" + rlimit_text(RLIMIT_AS) +
           " cgroup pids.max=" + pids_max;
}
#else
std::string sysctl_text(const char* name) {
    long long v = 0;
    size_t size = sizeof v;
    if (sysctlbyname(name, &v, &size, nullptr, 0) < 0) return "?";
    return std::to_string(size == sizeof(int) ? *reinterpret_cast<int*>(&v) : v);
}

std::string thread_limits() {
    return std::string("kern.maxproc=") + sysctl_text("kern.maxproc") +
           " kern.maxprocperuid=" + sysctl_text("kern.maxprocperuid") +
           " kern.num_taskthreads=" + sysctl_text("kern.num_taskthreads") +
           " RLIMIT_NPROC=" + rlimit_text(RLIMIT_NPROC) + " RLIMIT_AS=" + rlimit_text(RLIMIT_AS);
}
#endif
