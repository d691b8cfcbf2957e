// common.hpp: everything the scenarios share, standard library and POSIX only.
// Sections, in dependency order: platform block, errors and arguments, metrics, frame pool,
// job and task<T>, timer wheel, event loop and runtime (spawn, join, stop), sleeping, event, channel<T>.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <coroutine>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// Platform block: the only place that names the OS, in two halves. The poller blocks until a
// timeout or a wake(); everything else (which deadline comes next, how long to wait) is portable
// code below. Then the clock, memory and limits. Tests may build the kqueue poller on Linux over
// a small emulation (tests/kqueue_shim.hpp, -DBENCH_KQUEUE_SHIM); products never do.

namespace bench::os {
// The huge page size that chunks of memory are aligned to (x86-64 and arm64 with 4 KiB pages).
inline constexpr std::size_t huge_page = 2 << 20;

// Inside a spin-wait: PAUSE (x86) or YIELD (Arm) lets the spinning core give way to its sibling.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

inline std::string rlimit_text(int resource) {
    rlimit r;
    if (getrlimit(resource, &r) < 0) return "?";
    return r.rlim_cur == RLIM_INFINITY ? "unlimited" : std::to_string(r.rlim_cur);
}
}  // namespace bench::os

#if defined(__linux__) && !defined(BENCH_KQUEUE_SHIM)
#include <sys/epoll.h>
#include <sys/eventfd.h>

namespace bench::os {

class poller {
public:
    poller() {
        epoll_ = epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) throw std::system_error(errno, std::generic_category(), "epoll_create1");
        wake_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (wake_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
        epoll_event ev{};
        ev.events = EPOLLIN;
        if (epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev) < 0)
            throw std::system_error(errno, std::generic_category(), "epoll_ctl");
    }
    ~poller() {
        ::close(wake_);
        ::close(epoll_);
    }
    poller(const poller&) = delete;
    poller& operator=(const poller&) = delete;

    // Blocks until wake() or until timeout_ms passes (-1: no timeout). A signal is a normal return.
    void wait(int timeout_ms) {
        epoll_event ev;
        int n = epoll_wait(epoll_, &ev, 1, timeout_ms);
        if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "epoll_wait");
        if (n > 0) {
            std::uint64_t count;
            if (::read(wake_, &count, sizeof count) < 0 && errno != EAGAIN)
                throw std::system_error(errno, std::generic_category(), "read(eventfd)");
        }
    }
    void wake() {
        std::uint64_t one = 1;
        if (::write(wake_, &one, sizeof one) < 0 && errno != EAGAIN)
            throw std::system_error(errno, std::generic_category(), "write(eventfd)");
    }

private:
    int epoll_ = -1;
    int wake_ = -1;
};

}  // namespace bench::os

#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(BENCH_KQUEUE_SHIM)
#if defined(BENCH_KQUEUE_SHIM)
#include "tests/kqueue_shim.hpp"
#else
#include <sys/event.h>
#endif

namespace bench::os {

class poller {
public:
    poller() {
        kq_ = kqueue();
        if (kq_ < 0) throw std::system_error(errno, std::generic_category(), "kqueue");
        struct kevent ev;
        EV_SET(&ev, 1, EVFILT_USER, EV_ADD | EV_CLEAR, 0, 0, nullptr);
        if (kevent(kq_, &ev, 1, nullptr, 0, nullptr) < 0)
            throw std::system_error(errno, std::generic_category(), "kevent(EV_ADD)");
    }
    ~poller() { ::close(kq_); }
    poller(const poller&) = delete;
    poller& operator=(const poller&) = delete;

    void wait(int timeout_ms) {
        struct kevent ev;
        timespec ts{timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
        if (kevent(kq_, nullptr, 0, &ev, 1, timeout_ms < 0 ? nullptr : &ts) < 0 && errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "kevent");
    }
    void wake() {
        struct kevent ev;
        EV_SET(&ev, 1, EVFILT_USER, 0, NOTE_TRIGGER, 0, nullptr);
        if (kevent(kq_, &ev, 1, nullptr, 0, nullptr) < 0)
            throw std::system_error(errno, std::generic_category(), "kevent(NOTE_TRIGGER)");
    }

private:
    int kq_ = -1;
};

}  // namespace bench::os

#else
#error "bench needs epoll (Linux) or kqueue (macOS, FreeBSD)"
#endif

#if defined(__linux__)
#include <sys/mman.h>

namespace bench::os {

inline long read_proc_kib(const char* key) {  // a "Key:   123 kB" line of /proc/self/status
    char buf[4096];
    int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "open(/proc/self/status)");
    ssize_t n = ::read(fd, buf, sizeof buf - 1);
    int saved = errno;
    ::close(fd);
    if (n < 0) throw std::system_error(saved, std::generic_category(), "read(/proc/self/status)");
    buf[n] = '\0';
    const char* line = std::strstr(buf, key);
    if (!line) throw std::runtime_error(std::string("no ") + key + " in /proc/self/status");
    return std::strtol(line + std::strlen(key), nullptr, 10);
}
inline long rss_kib() { return read_proc_kib("VmRSS:"); }
inline long peak_rss_kib() { return read_proc_kib("VmHWM:"); }

inline std::string first_line(const std::string& path) {
    std::string text;
    if (FILE* f = std::fopen(path.c_str(), "re")) {
        char buf[512];
        if (std::fgets(buf, sizeof buf, f)) text = buf;
        std::fclose(f);
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text.empty() ? "?" : text;
}

// The limits that can refuse a thread here, with their current values, for the failure message.
inline std::string thread_limits() {
    // cgroup v1 names the pids controller ("8:pids:/path"), v2 has one hierarchy ("0::/path").
    std::string pids_max = "none";
    if (FILE* f = std::fopen("/proc/self/cgroup", "re")) {
        char buf[512];
        while (std::fgets(buf, sizeof buf, f)) {
            std::string line = buf;
            line.erase(line.find_last_not_of("\n") + 1);
            std::string dir = line.find(":pids:") != std::string::npos ? "/sys/fs/cgroup/pids" + line.substr(line.find(":pids:") + 6)
                              : line.starts_with("0::")                ? "/sys/fs/cgroup" + line.substr(3)
                                                                       : "";
            if (!dir.empty() && access((dir + "/pids.max").c_str(), R_OK) == 0) pids_max = first_line(dir + "/pids.max");
        }
        std::fclose(f);
    }
    return "kernel.pid_max=" + first_line("/proc/sys/kernel/pid_max") +
           " kernel.threads-max=" + first_line("/proc/sys/kernel/threads-max") +
           " vm.max_map_count=" + first_line("/proc/sys/vm/max_map_count") +
           " RLIMIT_NPROC=" + rlimit_text(RLIMIT_NPROC) + " RLIMIT_AS=" + rlimit_text(RLIMIT_AS) +
           " cgroup pids.max=" + pids_max;
}

// `bytes` (rounded up to whole 2 MiB pages) of fresh memory aligned to 2 MiB, so that huge pages
// can back it; nullptr when the OS refuses.
inline void* map_aligned(std::size_t bytes, int extra_flags) {
    if (bytes > SIZE_MAX / 2) return nullptr;  // no such memory, and the sums below would wrap
    bytes = (bytes + huge_page - 1) & ~(huge_page - 1);
    const std::size_t len = bytes + huge_page;
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const auto aligned = (start + huge_page - 1) & ~(huge_page - 1);
    const std::size_t tail = start + len - (aligned + bytes);
    if ((aligned > start && munmap(p, aligned - start) < 0) ||
        (tail && munmap(reinterpret_cast<void*>(aligned + bytes), tail) < 0)) {
        (void)munmap(p, len);  // trimming failed: give it all back and report no memory
        return nullptr;
    }
    return reinterpret_cast<void*>(aligned);
}

// Memory for big_vector; nullptr when the OS refuses. Blocks of 2 MiB or more are aligned to
// 2 MiB and advised to use transparent huge pages: the first touch of each 4 KiB page costs a
// page fault (measured here: 100 ms for 88 MB of frames), of each 2 MiB page one.
inline void* map_chunk(std::size_t bytes) {
    if (bytes < huge_page) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? nullptr : p;
    }
    void* p = map_aligned(bytes, 0);
    // Only advice: where THP is disabled this fails and the chunk keeps 4 KiB pages.
    if (p) (void)madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}
inline void unmap_chunk(void* p, std::size_t bytes) noexcept {
    if (bytes >= huge_page) bytes = (bytes + huge_page - 1) & ~(huge_page - 1);  // as map_chunk mapped it
    (void)munmap(p, bytes);
}

// Address space for every frame, aligned to 2 MiB, reserved and not committed (MAP_NORESERVE):
// only the pages touched count, in RSS and against memory (except under vm.overcommit_memory=2,
// where Linux charges all of it: there the reservation halves until the commit limit allows it).
// nullptr when the OS refuses.
inline void* reserve_region(std::size_t bytes) { return map_aligned(bytes, MAP_NORESERVE); }
// A stretch of it (2 MiB aligned, whole 2 MiB pages) is about to be used: huge pages, if any.
inline void advise_huge(void* p, std::size_t bytes) noexcept { (void)madvise(p, bytes, MADV_HUGEPAGE); }

}  // namespace bench::os

#else
#include <sys/mman.h>
#include <sys/sysctl.h>
#if defined(__APPLE__)
#include <mach/mach.h>
#else
#include <sys/user.h>
#endif

namespace bench::os {


inline long rss_kib() {
#if defined(__APPLE__)
    mach_task_basic_info info;
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, reinterpret_cast<task_info_t>(&info), &count) != KERN_SUCCESS)
        throw std::runtime_error("task_info(MACH_TASK_BASIC_INFO) failed");
    return static_cast<long>(info.resident_size / 1024);
#else
    kinfo_proc info;
    size_t size = sizeof info;
    int mib[] = {CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()};
    if (sysctl(mib, 4, &info, &size, nullptr, 0) < 0)
        throw std::system_error(errno, std::generic_category(), "sysctl(KERN_PROC_PID)");
    return static_cast<long>(info.ki_rssize * getpagesize() / 1024);
#endif
}
inline long peak_rss_kib() {
    rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0) throw std::system_error(errno, std::generic_category(), "getrusage");
#if defined(__APPLE__)
    return ru.ru_maxrss / 1024;  // bytes on macOS
#else
    return ru.ru_maxrss;  // KiB on the BSDs
#endif
}

inline void* map_chunk(std::size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}
inline void unmap_chunk(void* p, std::size_t bytes) noexcept { (void)munmap(p, bytes); }

// The BSDs and macOS commit anonymous memory when it is touched, not when it is mapped.
inline void* reserve_region(std::size_t bytes) { return map_chunk(bytes); }
inline void advise_huge(void*, std::size_t) noexcept {}

inline std::string sysctl_text(const char* name) {
    long long v = 0;
    size_t size = sizeof v;
    if (sysctlbyname(name, &v, &size, nullptr, 0) < 0) return "?";
    return std::to_string(size == sizeof(int) ? *reinterpret_cast<int*>(&v) : v);
}

inline std::string thread_limits() {
    return std::string("kern.maxproc=") + sysctl_text("kern.maxproc") +
           " kern.maxprocperuid=" + sysctl_text("kern.maxprocperuid") +
           " kern.num_taskthreads=" + sysctl_text("kern.num_taskthreads") +
           " RLIMIT_NPROC=" + rlimit_text(RLIMIT_NPROC) + " RLIMIT_AS=" + rlimit_text(RLIMIT_AS);
}

}  // namespace bench::os
#endif

namespace bench {

// ---------------------------------------------------------------------------------------------
// Errors and arguments. Bad input: one line on stderr, exit 2, before any work starts. A failure
// at run time: an exception whose what() names the call; the terminate handler prints it, exit 1.

inline const char* program = "bench";

[[noreturn]] inline void exit_with(int code, std::string_view message) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %.*s\n", program, static_cast<int>(message.size()), message.data());
    std::fflush(stderr);
    std::_Exit(code);
}

[[noreturn]] inline void usage_error(const std::string& message) { exit_with(2, message + " (see --help)"); }

// A broken invariant (a task lost, a timer early, a wrong digest): the run must not look like a fast one.
inline void check(bool ok, const std::string& what) {
    if (!ok) exit_with(1, "self-check failed: " + what);
}

// Uncaught exceptions (a failed system call, std::bad_alloc, a throw in a spawned task) end here.
// For an out-of-memory message: N (set by the report) and how many tasks exist (set by the
// runtime). The message is built without allocating: memory is what ran out.
inline std::uint64_t tasks_planned = 0;
inline std::uint64_t (*tasks_spawned)() = nullptr;

inline void on_terminate() {
    if (auto e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::bad_alloc&) {
            char msg[160] = "out of memory (std::bad_alloc)";
            if (tasks_spawned && tasks_planned)
                std::snprintf(msg, sizeof msg, "out of memory after %llu of %llu tasks (std::bad_alloc)",
                              static_cast<unsigned long long>(tasks_spawned()), static_cast<unsigned long long>(tasks_planned));
            exit_with(1, msg);
        } catch (const std::exception& x) {
            exit_with(1, x.what());
        } catch (...) {
            exit_with(1, "unknown exception");
        }
    }
    exit_with(1, "terminated");
}

// SIGINT and SIGTERM end the run at once: the process may hold millions of frames, and freeing
// them would only delay the exit. write() and _exit() are async-signal-safe.
extern "C" inline void on_signal(int sig) {
    const char* msg = sig == SIGINT ? ": interrupted (SIGINT)\n" : ": terminated (SIGTERM)\n";
    ssize_t ignored = ::write(2, program, std::strlen(program));
    ignored = ::write(2, msg, std::strlen(msg));
    (void)ignored;
    ::_exit(128 + sig);
}

// Parses `NAME N [--option value]...`. Each option is read once by the scenario, which then calls
// finish() to reject whatever it did not read. --help anywhere prints the usage and exits 0.
class cli {
public:
    cli(int argc, char** argv, const char* usage) : argc_{argc}, argv_{argv}, usage_{usage} {
        if (argc > 0) {
            const char* slash = std::strrchr(argv[0], '/');
            program = slash ? slash + 1 : argv[0];
        }
        std::set_terminate(on_terminate);
        std::signal(SIGINT, on_signal);
        std::signal(SIGTERM, on_signal);
        for (int i = 1; i < argc; ++i)
            if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
                std::printf("%s", usage_);
                std::exit(0);
            }
        for (int i = 1; i < argc && i < max_args; ++i) used_[i] = false;
        if (argc >= max_args) usage_error("too many arguments");
    }

    // The task count: the first argument, digits only, at least 1.
    std::uint64_t count() {
        if (argc_ < 2 || std::string_view(argv_[1]).starts_with("--"))
            usage_error("missing N, the number of tasks (a whole number >= 1)");
        used_[1] = true;
        return parse("N", argv_[1], 1, UINT64_MAX);
    }

    // `--name value`, a whole number in [min, max]; `fallback` when the option is absent.
    std::uint64_t number(const char* name, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) {
        const char* value = find(name);
        return value ? parse(name, value, min, max) : fallback;
    }

    // `--name value` where value is one of `choices` (a space-separated list); the first is the default.
    std::string choice(const char* name, std::string_view choices) {
        const char* value = find(name);
        std::string_view first = choices.substr(0, choices.find(' '));
        if (!value) return std::string(first);
        std::string_view rest = choices;
        while (!rest.empty()) {
            std::string_view word = rest.substr(0, rest.find(' '));
            if (word == value) return std::string(word);
            rest.remove_prefix(std::min(rest.size(), word.size() + 1));
        }
        usage_error(std::string(name) + " must be one of: " + std::string(choices) + " (got '" + value + "')");
    }

    // Rejects anything not read, then refuses an N whose resident memory would not fit in RAM.
    void finish(std::uint64_t n, double resident_bytes_per_task) {
        for (int i = 1; i < argc_; ++i)
            if (!used_[i]) {
                std::string_view arg = argv_[i];
                usage_error(arg.starts_with("-") ? "unknown option " + std::string(arg)
                                                 : "unexpected argument '" + std::string(arg) + "'");
            }
        const double need = static_cast<double>(n) * resident_bytes_per_task;
        const double have = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
        if (need > have) {
            char msg[200];
            std::snprintf(msg, sizeof msg, "N=%llu needs about %.1f GiB resident, more than this machine's %.1f GiB",
                          static_cast<unsigned long long>(n), need / (1 << 30), have / (1 << 30));
            usage_error(msg);
        }
    }

private:
    static constexpr int max_args = 64;

    const char* find(const char* name) {
        for (int i = 2; i < argc_; ++i)
            if (std::strcmp(argv_[i], name) == 0) {
                if (used_[i]) usage_error(std::string(name) + " given twice");
                if (i + 1 >= argc_) usage_error(std::string(name) + " needs a value");
                used_[i] = used_[i + 1] = true;
                return argv_[i + 1];
            }
        return nullptr;
    }

    static std::uint64_t parse(const char* name, const char* text, std::uint64_t min, std::uint64_t max) {
        std::string_view s = text;
        std::uint64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        std::string allowed = max == UINT64_MAX ? "a whole number >= " + std::to_string(min)
                                                : "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
        if (!digits) usage_error(std::string(name) + " must be " + allowed + " (got '" + text + "')");
        if (ec == std::errc::result_out_of_range || v > max)
            usage_error(std::string(name) + " is too large: " + text + " (allowed: " + allowed + ")");
        if (v < min) usage_error(std::string(name) + " is too small: " + text + " (allowed: " + allowed + ")");
        (void)end;
        return v;
    }

    int argc_;
    char** argv_;
    const char* usage_;
    bool used_[max_args] = {};
};

// ---------------------------------------------------------------------------------------------
// Randomness: splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014; constants from Vigna's public-domain splitmix64.c). One state seeded once; per-task
// streams start from splitmix64 of (seed + index), so no task needs a system call.

inline std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

// ---------------------------------------------------------------------------------------------
// Metrics. A report starts a sampler thread (resident set every 100 ms, for rss_avg), records
// rss_base just before the first task, rss_wait once all tasks are suspended, and prints the one
// summary line: key=value pairs, starting with scenario=.

using clock_type = std::chrono::steady_clock;

inline double ms_since(clock_type::time_point t) {
    return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

class report {
public:
    report(const char* scenario, std::uint64_t n, const char* tasks = "tasks") : n_{n}, scenario_{scenario}, tasks_{tasks} {
        line_ = "scenario=" + std::string(scenario) + " n=" + std::to_string(n);
        tasks_planned = n;
        sampler_ = std::thread([this] { sample_every_100ms(); });
    }
    ~report() { stop_sampler(); }

    // Parameters go before the measurements, results after them.
    template <class T> void param(const char* key, T value) { append(line_, key, value); }
    template <class T> void result(const char* key, T value) { append(results_, key, value); }

    // The milestones of a run, each with a progress line on stderr.
    void start() {
        std::fprintf(stderr, "%s: spawning %llu %s\n", scenario_, static_cast<unsigned long long>(n_), tasks_);
        rss_base_ = os::rss_kib();
        start_ = clock_type::now();
    }
    void spawned() { spawn_ms_ = ms_since(start_); }
    void waiting() {
        rss_wait_ = os::rss_kib();
        std::fprintf(stderr, "%s: %llu %s exist, resident set %ld KiB\n", scenario_,
                     static_cast<unsigned long long>(n_), tasks_, rss_wait_);
    }
    void finished() {
        wall_ms_ = ms_since(start_);
        stop_sampler();
        std::fprintf(stderr, "%s: done in %.0f ms\n", scenario_, wall_ms_);
    }
    double wall_ms() const { return wall_ms_; }

    // frame_bytes < 0: no coroutine frames (the threads scenario).
    void print(double frame_bytes) {
        std::string out = line_;
        append(out, "spawn_ms", std::llround(spawn_ms_));
        append(out, "wall_ms", std::llround(wall_ms_));
        append(out, "rss_base_kib", rss_base_);
        append(out, "rss_wait_kib", rss_wait_);
        append(out, "rss_avg_kib", samples_ ? std::llround(static_cast<double>(rss_sum_) / samples_) : rss_wait_);
        // The kernel's high-water mark can trail an exact VmRSS reading by a few hundred KiB (it is
        // kept from per-CPU approximate counters), so the peak is at least every reading we took.
        append(out, "rss_peak_kib", std::max({os::peak_rss_kib(), rss_base_, rss_wait_, rss_max_}));
        append(out, "bytes_per_task", fixed1(static_cast<double>(rss_wait_ - rss_base_) * 1024 / n_));
        if (frame_bytes >= 0) append(out, "frame_bytes", fixed1(frame_bytes));
        std::printf("%s%s\n", out.c_str(), results_.c_str());
        std::fflush(stdout);
    }

    // "12.0" prints as 12: whole figures stay whole.
    static std::string fixed1(double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, v == std::round(v) ? "%.0f" : "%.1f", v);
        return buf;
    }

private:
    template <class T> static void append(std::string& s, const char* key, const T& value) {
        s += ' ';
        s += key;
        s += '=';
        if constexpr (std::is_arithmetic_v<T>) s += std::to_string(value);
        else s += value;
    }

    void sample_every_100ms() {
        std::unique_lock lock(mutex_);
        while (!stop_) {
            if (cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) break;
            const long rss = os::rss_kib();
            rss_sum_ += rss;
            rss_max_ = std::max(rss_max_, rss);
            ++samples_;
        }
    }
    void stop_sampler() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        cv_.notify_one();
        if (sampler_.joinable()) sampler_.join();
    }

    std::uint64_t n_;
    const char* scenario_;
    const char* tasks_;
    std::string line_, results_;
    clock_type::time_point start_ = clock_type::now();
    double spawn_ms_ = 0, wall_ms_ = 0;
    long rss_base_ = 0, rss_wait_ = 0;
    long long rss_sum_ = 0;
    long rss_max_ = 0;
    long samples_ = 0;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;
    std::thread sampler_;
};

// ---------------------------------------------------------------------------------------------
// Frame pool. Every byte of a frame is multiplied by N, and malloc would add an 8-byte header and
// round to 16 (a 40-byte frame would occupy 48). Frames come instead from per-thread free lists,
// one per 8-byte size class (powers of two above 512 bytes), carved from chunks that grow from
// 64 KiB to 32 MiB (so a small run stays small), all in one reserved region; a freed frame goes
// back on the list of the thread that frees it and is reused. Blocks are 8-byte aligned, not 16
// as operator new's usually are: a coroutine with a 16-byte-aligned local (long double, SSE
// vectors) needs 16-byte classes, which would cost the 56-byte frames here 8 bytes each. Chunks are never returned: the pool's high-water mark stays
// resident, like malloc's arena.

namespace detail {

struct frame_stats {
    std::atomic<std::int64_t> live{0};   // frames allocated and not yet freed, by this thread's count
    std::atomic<std::int64_t> bytes{0};  // bytes of every frame this thread allocated
    frame_stats* next = nullptr;
};

inline std::mutex stats_mutex;
inline frame_stats* all_stats = nullptr;

// Every frame lives in one stretch of address space, reserved at the first allocation, so that a
// queue link can be a 32-bit index into it instead of a pointer (see promise_base). Reserved is
// not used: only touched pages count, in RSS and against memory. 2^31 links of 8-byte units cover
// 16 GiB of frames; where the address space is limited (ulimit -v), the reservation halves until
// it fits, and filling it is running out of memory (std::bad_alloc).
class frame_region {
public:
    static constexpr std::size_t unit = 8;  // frames, and so promises, are 8-byte aligned
    static constexpr std::size_t max_bytes = std::size_t{1} << 34;

    // `bytes` of the region (2 MiB aligned if that large), or nullptr once it is full.
    char* take(std::size_t bytes) {
        std::call_once(once_, [this] { reserve(); });
        const std::size_t align = bytes >= os::huge_page ? os::huge_page : unit;
        std::size_t at = used_.load(std::memory_order_relaxed), start;
        do {
            start = (at + align - 1) & ~(align - 1);
            if (start > size_ || bytes > size_ - start) return nullptr;
        } while (!used_.compare_exchange_weak(at, start + bytes, std::memory_order_relaxed));
        return base_ + start;
    }
    char* base() const noexcept { return base_; }

private:
    void reserve() {
        for (std::size_t size = max_bytes; size >= (std::size_t{16} << 20); size /= 2)
            if (void* p = os::reserve_region(size)) {
                base_ = static_cast<char*>(p);
                size_ = size;
                return;
            }
    }

    std::once_flag once_;
    char* base_ = nullptr;
    std::size_t size_ = 0;
    std::atomic<std::size_t> used_{os::huge_page};  // from 2 MiB on: no frame is at index 0 (null)
};
inline constinit frame_region region;

class frame_pool {
public:
    void* allocate(std::size_t size) {
        frame_stats& s = stats();
        add(s.bytes, static_cast<std::int64_t>(size));
        add(s.live, 1);
        const std::size_t cls = class_of(size);
        if (free_block* b = free_[cls]) {
            free_[cls] = b->next;
            return b;
        }
        const std::size_t bytes = bytes_of(cls);
        if (static_cast<std::size_t>(end_ - bump_) < bytes) refill(bytes);
        void* p = bump_;
        bump_ += bytes;
        return p;
    }

    void deallocate(void* p, std::size_t size) noexcept {
        add(stats().live, -1);
        const std::size_t cls = class_of(size);
        free_[cls] = new (p) free_block{free_[cls]};
    }

    // A thread's counters live on the heap, listed for live_frames(), and outlive the thread.
    frame_stats& stats() noexcept {
        if (!stats_) [[unlikely]] {
            std::lock_guard lock(stats_mutex);
            stats_ = new (std::nothrow) frame_stats;
            if (!stats_) std::terminate();
            stats_->next = all_stats;
            all_stats = stats_;
        }
        return *stats_;
    }

private:
    struct free_block {
        free_block* next;
    };

    // 8-byte classes up to 512 bytes; above that, powers of two (a frame that large holds big
    // locals, and is rare).
    static constexpr std::size_t small = 512, classes = small / 8 + 64 - 8;
    static std::size_t class_of(std::size_t size) noexcept {
        if (size <= small) return (size + 7) / 8;
        return small / 8 + static_cast<std::size_t>(std::bit_width(size - 1)) - 9;
    }
    static std::size_t bytes_of(std::size_t cls) noexcept {
        return cls <= small / 8 ? cls * 8 : std::size_t{1} << (cls - small / 8 + 9);
    }

    // Only this thread writes its counters; others may read them. Relaxed load+store compiles
    // to a plain add, where fetch_add would be a locked instruction on every frame.
    static void add(std::atomic<std::int64_t>& c, std::int64_t d) {
        c.store(c.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
    }

    void refill(std::size_t need) {
        // A chunk's tail too small for this frame is left untouched: no RSS, only address space.
        std::size_t chunk = std::max(next_chunk_, need);
        if (chunk >= os::huge_page) chunk = (chunk + os::huge_page - 1) & ~(os::huge_page - 1);
        char* p = region.take(chunk);
        if (!p) throw std::bad_alloc();
        if (chunk >= os::huge_page) os::advise_huge(p, chunk);
        bump_ = p;
        end_ = p + chunk;
        next_chunk_ = std::min<std::size_t>(next_chunk_ * 2, 32 << 20);
    }

    free_block* free_[classes] = {};
    char* bump_ = nullptr;
    char* end_ = nullptr;
    std::size_t next_chunk_ = 64 << 10;
    frame_stats* stats_ = nullptr;
};

// Constant-initialized and trivially destructible: no guard on the hot path. A thread's free
// lists die with it (its chunks stay allocated), so pools belong to long-lived threads.
inline constinit thread_local frame_pool pool;

}  // namespace detail

// For vectors of one element per task (digests, a channel's buffer): a block of 2 MiB or more is
// mapped like a frame-pool chunk, on huge pages where the kernel offers them, so filling 64 MB
// costs 32 page faults instead of 16000; smaller blocks come from std::allocator.
template <class T> struct big_allocator {
    using value_type = T;
    static constexpr std::size_t mapped_from = 2 << 20;

    big_allocator() noexcept = default;
    template <class U> big_allocator(const big_allocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        if (n * sizeof(T) < mapped_from) return std::allocator<T>{}.allocate(n);
        void* p = os::map_chunk(n * sizeof(T));
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < mapped_from) std::allocator<T>{}.deallocate(p, n);
        else os::unmap_chunk(p, n * sizeof(T));
    }
    template <class U> bool operator==(const big_allocator<U>&) const noexcept { return true; }
};
template <class T> using big_vector = std::vector<T, big_allocator<T>>;

// Totals over every thread: live frames (0 once every task has ended and been freed) and bytes.
inline std::int64_t live_frames() {
    detail::pool.stats();
    std::lock_guard lock(detail::stats_mutex);
    std::int64_t n = 0;
    for (auto* s = detail::all_stats; s; s = s->next) n += s->live.load(std::memory_order_relaxed);
    return n;
}
inline std::int64_t frame_bytes_allocated() {
    detail::pool.stats();
    std::lock_guard lock(detail::stats_mutex);
    std::int64_t n = 0;
    for (auto* s = detail::all_stats; s; s = s->next) n += s->bytes.load(std::memory_order_relaxed);
    return n;
}

// ---------------------------------------------------------------------------------------------
// Coroutine types. Two, because what a task must remember depends on whether anyone awaits it:
//   job      spawned, never awaited: no one wants its result or its end, so it frees its own
//            frame when it ends and its promise is 4 bytes. The N tasks of a scenario are jobs.
//   task<T>  awaited (co_await t) or spawned: it also keeps the task awaiting it and the value or
//            exception to hand over.
// Both are lazy (start when spawned or awaited) and move-only, and both can co_await a duration
// (sleep), an event, a channel or a task<T>.
//
// The 4 bytes are the link of the one queue a waiting task is in (the ready queue, a timer's
// bucket, an event's waiters), paid N times: the next task's index in the frame region (8-byte
// steps, 31 bits), and in the low bit a mark for a task that another task awaits, so that a queue
// torn down at shutdown can find the frame that owns it. A deadline costs nothing per task: the
// timer wheel keeps one bucket per pending millisecond, and a sleeping task waits in its bucket.

class loop;
inline thread_local loop* current_loop = nullptr;

class event;
struct parked;
template <class T> inline constexpr bool is_duration = false;
template <class Rep, class Period> inline constexpr bool is_duration<std::chrono::duration<Rep, Period>> = true;

struct promise_base {
    promise_base() noexcept = default;
    promise_base(const promise_base&) = delete;
    promise_base& operator=(const promise_base&) = delete;

    promise_base* next() const noexcept {
        const std::uint32_t i = link_ >> 1;
        return i ? reinterpret_cast<promise_base*>(detail::region.base() + std::size_t{i} * detail::frame_region::unit) : nullptr;
    }
    void set_next(promise_base* p) noexcept {
        const auto i = p ? static_cast<std::uint32_t>((reinterpret_cast<char*>(p) - detail::region.base()) / detail::frame_region::unit) : 0;
        link_ = i << 1 | (link_ & awaited_bit);
    }
    bool awaited() const noexcept { return (link_ & awaited_bit) != 0; }
    void mark_awaited() noexcept { link_ |= awaited_bit; }

    static void* operator new(std::size_t size) { return detail::pool.allocate(size); }
    static void operator delete(void* p, std::size_t size) noexcept { detail::pool.deallocate(p, size); }

    // The two waits every scenario's N tasks do file the task where it waits right here, and then
    // it suspends holding nothing: g++ 12 keeps every awaiter and every temporary of a co_await in
    // the frame, and copies an lvalue that await_transform passes through, so an awaiter that
    // remembered its duration or its event would cost 8 to 16 bytes per task.
    //   co_await d   (a std::chrono duration) resumes after at least d: 1 ms ticks, so up to a
    //                tick late; d <= 0 yields to the tasks ready now.
    //   co_await e   (an event) resumes once e is set; not at all if it is set already.
    template <class Rep, class Period> parked await_transform(const std::chrono::duration<Rep, Period>& d);
    parked await_transform(event& e);
    // Anything else (a task, a channel's receive) is awaited as it is; an rvalue, so not copied.
    template <class A>
        requires(!std::is_lvalue_reference_v<A> && !is_duration<std::remove_cvref_t<A>>)
    A&& await_transform(A&& awaitable) noexcept {
        return std::forward<A>(awaitable);
    }

private:
    static constexpr std::uint32_t awaited_bit = 1;
    std::uint32_t link_ = 0;  // the next task's index in the frame region, shifted left by one
};

// The task is already filed where it waits (unless `ready`): suspending is all that is left.
struct parked {
    bool ready;
    bool await_ready() const noexcept { return ready; }
    void await_suspend(std::coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};

// Every promise type here derives from promise_base at offset 0, and a frame puts its promise
// right after its two function pointers, 16 bytes in, for any promise aligned to at most 16: so a
// frame can be resumed or destroyed from its promise_base alone (the queues hold promise_base*).
inline std::coroutine_handle<> handle_of(promise_base& p) noexcept {
    return std::coroutine_handle<promise_base>::from_promise(p);
}

inline void task_finished();  // defined with the loop

struct task_promise : promise_base {
    promise_base* parent_ = nullptr;  // the task awaiting this one; null once spawned
    std::exception_ptr error_;

    void unhandled_exception() noexcept {
        if (!parent_) std::terminate();  // spawned: no one to tell, on_terminate reports it
        error_ = std::current_exception();
    }
};

// At a task's end: resume the task awaiting it, if any; otherwise it was spawned, and it frees
// its own frame.
struct final_awaiter {
    bool await_ready() const noexcept { return false; }
    template <class P> std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) const noexcept {
        if constexpr (std::is_base_of_v<task_promise, P>)
            if (promise_base* parent = h.promise().parent_) return handle_of(*parent);
        h.destroy();
        task_finished();
        return std::noop_coroutine();
    }
    void await_resume() const noexcept {}
};

class [[nodiscard]] job {
public:
    struct promise_type : promise_base {
        job get_return_object() noexcept { return job{*this}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        final_awaiter final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        // No one to hand it to: on_terminate reports it and exits 1.
        void unhandled_exception() noexcept { std::terminate(); }
    };
    static_assert(sizeof(promise_type) == 4);

    job(job&& other) noexcept : p_{std::exchange(other.p_, nullptr)} {}
    job& operator=(job other) noexcept {
        std::swap(p_, other.p_);
        return *this;
    }
    ~job() {
        if (p_) handle_of(*p_).destroy();
    }

    // Gives up ownership: the frame now frees itself when the job ends (see spawn).
    promise_base& release() noexcept { return *std::exchange(p_, nullptr); }

private:
    explicit job(promise_base& p) noexcept : p_{&p} {}
    promise_base* p_;
};

template <class T> struct task_result {
    alignas(T) unsigned char storage_[sizeof(T)];
    bool has_value_ = false;
    template <class U> void return_value(U&& v) {
        new (storage_) T(std::forward<U>(v));
        has_value_ = true;
    }
    T take() { return std::move(*std::launder(reinterpret_cast<T*>(storage_))); }
    ~task_result() {
        if (has_value_) std::launder(reinterpret_cast<T*>(storage_))->~T();
    }
};
template <> struct task_result<void> {
    void return_void() noexcept {}
    void take() noexcept {}
};

template <class T = void> class [[nodiscard]] task {
public:
    struct promise_type : task_promise, task_result<T> {
        task get_return_object() noexcept { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        final_awaiter final_suspend() noexcept { return {}; }
    };
    static_assert(alignof(promise_type) <= detail::frame_region::unit, "frames are 8-byte aligned (see the frame pool)");

    task(task&& other) noexcept : h_{std::exchange(other.h_, {})} {}
    task& operator=(task other) noexcept {
        std::swap(h_, other.h_);
        return *this;
    }
    ~task() {
        if (h_) h_.destroy();
    }

    // Runs the task to its end and returns its value or rethrows its exception.
    struct awaiter {
        std::coroutine_handle<promise_type> h;
        bool await_ready() const noexcept { return false; }
        template <class P> std::coroutine_handle<> await_suspend(std::coroutine_handle<P> caller) noexcept {
            static_assert(std::is_base_of_v<promise_base, P>, "only a bench::task or job can await a task");
            h.promise().parent_ = &caller.promise();
            h.promise().mark_awaited();
            return h;
        }
        T await_resume() {
            if (h.promise().error_) std::rethrow_exception(h.promise().error_);
            return h.promise().take();
        }
    };
    awaiter operator co_await() && noexcept { return awaiter{h_}; }

    // Gives up ownership: the frame now frees itself when the task ends (see spawn).
    promise_base& release() noexcept { return std::exchange(h_, {}).promise(); }

private:
    explicit task(std::coroutine_handle<promise_type> h) noexcept : h_{h} {}
    std::coroutine_handle<promise_type> h_;
};

// ---------------------------------------------------------------------------------------------
// Intrusive FIFO of tasks, linked through promise_base's link: push and splice are O(1) and
// allocate nothing.

class task_list {
public:
    bool empty() const noexcept { return !head_; }
    void push(promise_base& p) noexcept {
        p.set_next(nullptr);
        if (tail_) tail_->set_next(&p);
        else head_ = &p;
        tail_ = &p;
    }
    promise_base* pop() noexcept {
        promise_base* p = head_;
        head_ = p->next();
        if (!head_) tail_ = nullptr;
        return p;
    }
    void splice(task_list& other) noexcept {  // appends all of other, leaving it empty
        if (other.empty()) return;
        if (tail_) tail_->set_next(other.head_);
        else head_ = other.head_;
        tail_ = other.tail_;
        other.head_ = other.tail_ = nullptr;
    }
    // Destroys every frame in the list (their tasks never resume).
    std::uint64_t destroy_all() noexcept;

private:
    promise_base* head_ = nullptr;
    promise_base* tail_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// Timer wheel: hierarchical, 8 levels of 256 slots, 1 ms ticks (Varghese and Lauck, "Hashed and
// hierarchical timing wheels", SOSP 1987), over buckets: every task due at the same tick waits in
// one bucket, which keeps the deadline for all of them. A task pays no timer memory of its own (it
// waits through its link word); the wheel pays one bucket (about 80 bytes with its hash node) per
// distinct pending millisecond: at most 1000 for all the timers of the next second, however many
// they are. Filing is O(1) (a hash lookup, or none when the tick is the last one filed); a bucket
// is moved down at most once per level it starts above, whatever its size; firing one splices its
// whole FIFO onto the ready queue; finding the next deadline scans a few bitmap words.
//
// Invariants: every deadline before cur_ has fired; a bucket with deadline t sits at the level of
// the highest 8-bit digit in which t and cur_ differ, in the slot named by t's digit there, so
// each slot covers one aligned range that starts at or after cur_. A bucket is a FIFO, so equal
// deadlines fire in the order they were set.

class timer_wheel {
public:
    static constexpr int levels = 8, bits = 8, slots = 1 << bits;

    explicit timer_wheel(std::int64_t now) : cur_{now} {}
    timer_wheel(const timer_wheel&) = delete;
    timer_wheel& operator=(const timer_wheel&) = delete;

    // Files p to become due at tick t. A tick already passed goes straight to `due`.
    void add(promise_base& p, std::int64_t t, task_list& due) {
        if (t < cur_) {
            due.push(p);
            return;
        }
        bucket* b = last_;
        if (!b || b->deadline != t) {
            auto [it, fresh] = buckets_.try_emplace(t);
            b = &it->second;
            if (fresh) {
                b->deadline = t;
                file(*b);
            }
            last_ = b;
        }
        b->tasks.push(p);
        ++b->count;
    }

    // Moves every task due at or before now to `due`, in deadline order, and returns how many of
    // them were due later than now (0 unless the wheel is broken: the loop reports it).
    std::uint64_t expire(std::int64_t now, task_list& due) {
        std::uint64_t early = 0;
        const std::int64_t target = now + 1;  // afterwards cur_ >= target: all of <= now has fired
        for (;;) {
            int level;
            std::int64_t start;
            if (!earliest(level, start) || start > target || (level == 0 && start == target)) break;
            bucket* b = std::exchange(slot_at(level, start), nullptr);
            clear_bit(level, start);
            // Cascade even when start == target, before any later timer is filed at cur_ = start.
            cur_ = level == 0 ? start + 1 : start;
            while (b) {
                bucket* next = std::exchange(b->next, nullptr);
                if (level > 0) {
                    file(*b);
                } else {
                    if (b->deadline > now) early += b->count;
                    due.splice(b->tasks);
                    if (last_ == b) last_ = nullptr;
                    buckets_.erase(b->deadline);
                }
                b = next;
            }
        }
        cur_ = std::max(cur_, target);
        return early;
    }

    // The tick at which expire() next has work, or -1 when no timer is pending.
    std::int64_t next_tick() const noexcept {
        int level;
        std::int64_t start;
        return earliest(level, start) ? start : -1;
    }

    // Tasks waiting, and ticks they wait for (buckets).
    std::uint64_t pending() const noexcept {
        std::uint64_t n = 0;
        for (auto& [t, b] : buckets_) n += b.count;
        return n;
    }
    std::size_t buckets() const noexcept { return buckets_.size(); }

    // Destroys every pending timer's frame: at shutdown they never fire.
    std::uint64_t destroy_all() noexcept {
        std::uint64_t n = 0;
        for (auto& [t, b] : buckets_) n += b.tasks.destroy_all();
        buckets_.clear();
        last_ = nullptr;
        for (auto& level : wheel_)
            for (auto& s : level) s = nullptr;
        for (auto& level : occupied_)
            for (auto& w : level) w = 0;
        return n;
    }

private:
    struct bucket {
        task_list tasks;
        bucket* next = nullptr;  // in its wheel slot
        std::int64_t deadline = 0;
        std::uint64_t count = 0;
    };

    static int level_of(std::int64_t t, std::int64_t cur) noexcept {
        auto diff = static_cast<std::uint64_t>(t ^ cur);
        return diff ? (std::bit_width(diff) - 1) / bits : 0;
    }
    static int digit(std::int64_t t, int level) noexcept {
        return static_cast<int>((static_cast<std::uint64_t>(t) >> (level * bits)) & (slots - 1));
    }
    bucket*& slot_at(int level, std::int64_t t) noexcept { return wheel_[level][digit(t, level)]; }
    void clear_bit(int level, std::int64_t t) noexcept {
        int d = digit(t, level);
        occupied_[level][d / 64] &= ~(std::uint64_t{1} << (d % 64));
    }

    // A slot is a stack: at level 0 it holds one bucket, above it the order does not matter.
    void file(bucket& b) noexcept {
        int level = level_of(b.deadline, cur_);
        int d = digit(b.deadline, level);
        b.next = std::exchange(wheel_[level][d], &b);
        occupied_[level][d / 64] |= std::uint64_t{1} << (d % 64);
    }

    // The lowest occupied slot on the lowest non-empty level is the earliest event: every slot of
    // level l lies inside cur_'s current range of level l + 1, after every slot of level l - 1.
    bool earliest(int& level, std::int64_t& start) const noexcept {
        for (int l = 0; l < levels; ++l) {
            int from = digit(cur_, l);
            for (int w = from / 64; w < slots / 64; ++w) {
                std::uint64_t word = occupied_[l][w];
                if (w == from / 64) word &= ~std::uint64_t{0} << (from % 64);
                if (!word) continue;
                int d = w * 64 + std::countr_zero(word);
                int shift = (l + 1) * bits;
                auto high = shift >= 64 ? 0 : static_cast<std::uint64_t>(cur_) >> shift << shift;
                level = l;
                start = static_cast<std::int64_t>(high | static_cast<std::uint64_t>(d) << (l * bits));
                return true;
            }
        }
        return false;
    }

    std::unordered_map<std::int64_t, bucket> buckets_;  // node-based: a bucket never moves
    bucket* last_ = nullptr;                            // the bucket filed last: the next is likely the same
    bucket* wheel_[levels][slots] = {};
    std::uint64_t occupied_[levels][slots / 64] = {};
    std::int64_t cur_;
};

// ---------------------------------------------------------------------------------------------
// Event loop: one thread's ready queue, timer wheel and poller. It resumes ready tasks, fires due
// timers, and otherwise blocks in the poller until the next deadline or a wake-up from another
// thread. A loop alone (the `loop` type, or a runtime of one thread) uses no lock and no atomic
// read-modify-write; the cross-thread parts below cost something only with several loops.

inline std::int64_t now_ns(clockid_t clock) {
    timespec ts;
    if (clock_gettime(clock, &ts) < 0) throw std::system_error(errno, std::generic_category(), "clock_gettime");
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

class runtime;

class loop {
public:
    // A stand-alone loop for the calling thread.
    loop() : loop(nullptr, 0) { previous_ = std::exchange(current_loop, this); }
    ~loop() {
        shutdown();
        if (!group_) current_loop = previous_;
    }
    loop(const loop&) = delete;
    loop& operator=(const loop&) = delete;

    // Takes ownership of t: it starts when its loop runs, and frees its own frame when it ends.
    // In a runtime the tasks a loop spawns go round-robin over every loop.
    void spawn(job j) noexcept { spawn(j.release()); }
    void spawn(task<> t) noexcept { spawn(t.release()); }

    // Runs until every spawned task has ended.
    void join();
    // Runs ready tasks and due timers until nothing is ready; never blocks.
    void run_until_idle() {
        while (step(false)) {
        }
    }

    // Spawned tasks still alive here, tasks that ran to their end here, and sleepers the wheel
    // released before their deadline (a broken timer: scenarios check that it stays 0).
    std::uint64_t live() const noexcept { return live_; }
    std::uint64_t completed() const noexcept { return completed_; }
    std::uint64_t early_wakeups() const noexcept { return early_; }

    // Ends every task waiting on a timer or ready to run: their frames are freed and they never
    // resume. The destructor does this too. (Tasks waiting on an event are ended by the event.)
    void shutdown() noexcept {
        take_mail();
        forget(timers_.destroy_all() + ready_.destroy_all());
    }

    // --- for the runtime and the awaitables below ---
    void ready(promise_base& p) noexcept { ready_.push(p); }
    void ready(task_list& l) noexcept { ready_.splice(l); }
    // The first tick at which a sleep of d that starts now may end, rounded up. The precise clock,
    // read for every sleep (about 25 ns): the kernel's coarse clock is cheaper, but it can lag by
    // more than its resolution when the machine is loaded (a vCPU not scheduled), and a deadline
    // computed from a late clock fires early. Measured here: 0.02 ms early under a parallel build.
    std::int64_t deadline_after(std::chrono::milliseconds d) const {
        std::int64_t ns = now_ns(CLOCK_MONOTONIC) + d.count() * 1000000;
        return (ns + 999999) / 1000000;
    }
    void sleep(promise_base& p, std::chrono::milliseconds d) {
        if (d.count() <= 0) ready_.push(p);
        else timers_.add(p, deadline_after(d), ready_);
    }
    void finished_one() noexcept {
        --live_;
        ++completed_;
    }
    void forget(std::uint64_t destroyed) noexcept { live_ -= destroyed; }

    // From another thread: hands over tasks (ready to run here) and wakes the loop.
    void post(task_list& tasks, std::uint64_t count) {
        {
            std::lock_guard lock(mail_mutex_);
            mail_.splice(tasks);
            mail_count_ += count;
        }
        has_mail_.store(true, std::memory_order_release);
        poller_.wake();
    }
    void wake() { poller_.wake(); }

    // From any thread: makes waiting tasks of this loop ready (posted when called from another).
    void resume(task_list& waiters) {
        if (this == current_loop) ready(waiters);
        else post(waiters, 0);
    }

private:
    friend class runtime;

    loop(runtime* group, unsigned index)
        : group_{group}, index_{index}, timers_{now_ns(CLOCK_MONOTONIC) / 1000000} {}

    void take_mail() {
        if (!has_mail_.load(std::memory_order_acquire)) return;
        has_mail_.store(false, std::memory_order_relaxed);
        std::lock_guard lock(mail_mutex_);
        ready_.splice(mail_);
        live_ += std::exchange(mail_count_, 0);
    }

    // One round: take tasks posted from other threads, resume what is ready now (not what that
    // makes ready: timers get their turn), move due timers to the ready queue, and hand what this
    // round spawned for other loops to them. With nothing ready and `block`, waits in the poller
    // for the next deadline or a wake-up. Returns whether anything ran or became ready.
    bool step(bool block);
    void send_spawned();
    void spawn(promise_base& p) noexcept;

    runtime* group_;
    unsigned index_;
    task_list ready_;
    timer_wheel timers_;
    std::uint64_t live_ = 0, completed_ = 0, early_ = 0;
    os::poller poller_;
    loop* previous_ = nullptr;

    // Several loops only: tasks posted here by others, and tasks spawned here for others (sent
    // once per round, so a spawn costs no lock and a burst of spawns one wake-up per loop).
    std::atomic<bool> has_mail_{false};
    std::mutex mail_mutex_;
    task_list mail_;
    std::uint64_t mail_count_ = 0;
    struct outbox {
        task_list tasks;
        std::uint64_t count = 0;
    };
    std::unique_ptr<outbox[]> outboxes_;
    unsigned next_target_ = 0;
    std::uint64_t idle_acked_ = 0;
    std::uint64_t spawned_ = 0;  // by this loop, for an out-of-memory message
};

// T loops on T threads: loop 0 is the thread that creates the runtime (main), the others get
// threads of their own. Tasks are spread round-robin, and each stays on its loop to its end (no
// stealing). join() returns when every task on every loop has ended; stop() ends the run early,
// and each loop destroys the tasks it still holds (pending timers never fire).
class runtime {
public:
    explicit runtime(unsigned threads) {
        if (threads < 1) throw std::invalid_argument("runtime needs at least one thread");
        loops_.reserve(threads);
        for (unsigned i = 0; i < threads; ++i) loops_.emplace_back(new loop(this, i));
        if (threads > 1)
            for (auto& l : loops_) l->outboxes_.reset(new loop::outbox[threads]);
        previous_ = std::exchange(current_loop, loops_[0].get());
        active_ = this;
        tasks_spawned = [] { return active_ ? active_->sum(&loop::spawned_) : 0; };
        for (unsigned i = 1; i < threads; ++i) {
            try {
                threads_.emplace_back([this, i] { run_loop(*loops_[i]); });
            } catch (const std::system_error& e) {
                stop();
                for (auto& t : threads_) t.join();
                throw std::system_error(e.code(), "std::thread (event loop " + std::to_string(i + 1) + " of " +
                                                      std::to_string(threads) + ")");
            }
        }
    }
    ~runtime() {
        tasks_spawned = nullptr;
        active_ = nullptr;
        stop();
        for (auto& t : threads_) t.join();
        for (auto& l : loops_) l->shutdown();  // what was still in flight when the run stopped
        current_loop = previous_;
    }
    runtime(const runtime&) = delete;
    runtime& operator=(const runtime&) = delete;

    unsigned size() const noexcept { return static_cast<unsigned>(loops_.size()); }

    // From the main thread or from a task: the next loop in turn gets it.
    void spawn(job j) noexcept { current_loop->spawn(std::move(j)); }
    void spawn(task<> t) noexcept { current_loop->spawn(std::move(t)); }

    // The main thread: runs until every task has ended, or until stop().
    void join() {
        loop& main = *loops_[0];
        if (size() == 1) {
            while (main.live_ > 0 && !stopping()) main.step(true);
            return;
        }
        main.step(false);  // sends what main spawned, and counts it
        while (outstanding_.load(std::memory_order_acquire) > 0 && !stopping()) main.step(true);
    }

    // The main thread: runs until every task that exists has started and is waiting (on a timer,
    // an event...), on every loop. For rss_wait.
    void run_until_idle() {
        loop& main = *loops_[0];
        main.run_until_idle();
        if (size() == 1) return;
        idle_acks_.store(0, std::memory_order_relaxed);
        idle_epoch_.fetch_add(1, std::memory_order_acq_rel);
        for (unsigned i = 1; i < size(); ++i) loops_[i]->wake();
        while (idle_acks_.load(std::memory_order_acquire) < size() - 1 && !stopping()) main.step(true);
        main.run_until_idle();
    }

    // The main thread: runs (blocking when idle) until done() holds or the run stops, then until
    // idle. For scenarios whose tasks are spawned by a task over time.
    template <class F> void run_until(F done) {
        while (!done() && !stopping()) loops_[0]->step(true);
        run_until_idle();
    }

    // Any thread: ends the run. Every loop destroys the tasks it holds; join() returns.
    void stop() {
        if (stop_.exchange(true)) return;
        for (auto& l : loops_) l->wake();
    }
    bool stopping() const noexcept { return stop_.load(std::memory_order_acquire); }

    // Totals over every loop; exact once join() has returned.
    std::uint64_t completed() const noexcept { return sum(&loop::completed_); }
    std::uint64_t early_wakeups() const noexcept { return sum(&loop::early_); }

private:
    friend class loop;

    void run_loop(loop& l) {
        current_loop = &l;
        while (!stopping()) l.step(true);
        l.shutdown();
    }

    // A loop about to block, with nothing ready and nothing posted to it: acknowledges a pending
    // run_until_idle() request once.
    void idle(loop& l) {
        if (l.index_ == 0) return;
        std::uint64_t epoch = idle_epoch_.load(std::memory_order_acquire);
        if (epoch == l.idle_acked_) return;
        l.idle_acked_ = epoch;
        idle_acks_.fetch_add(1, std::memory_order_acq_rel);
        loops_[0]->wake();
    }

    // Each loop adds what it spawned (before the tasks become visible elsewhere) and subtracts
    // what ended, once per round; the loop that brings the count to zero wakes main.
    void account(std::int64_t delta) {
        if (delta != 0 && outstanding_.fetch_add(delta, std::memory_order_acq_rel) + delta == 0) loops_[0]->wake();
    }

    std::uint64_t sum(std::uint64_t loop::*field) const noexcept {
        std::uint64_t n = 0;
        for (auto& l : loops_) n += (*l).*field;
        return n;
    }

    std::vector<std::unique_ptr<loop>> loops_;
    std::vector<std::thread> threads_;
    std::atomic<std::int64_t> outstanding_{0};
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> idle_epoch_{0}, idle_acks_{0};
    loop* previous_ = nullptr;
    static inline runtime* active_ = nullptr;
};

inline void loop::spawn(promise_base& p) noexcept {
    ++spawned_;
    if (!outboxes_) {
        ++live_;
        ready_.push(p);
        return;
    }
    const unsigned target = next_target_;
    next_target_ = next_target_ + 1 == group_->size() ? 0 : next_target_ + 1;
    if (target == index_) {
        ++live_;
        ready_.push(p);
        ++outboxes_[index_].count;  // counted for the runtime at the end of the round
    } else {
        outboxes_[target].tasks.push(p);
        ++outboxes_[target].count;
    }
}

inline void loop::join() {
    if (group_) {
        group_->join();
        return;
    }
    while (live_ > 0) step(true);
}

inline void loop::send_spawned() {
    // Count new tasks before anyone can run them, then hand them over.
    std::int64_t spawned = 0;
    for (unsigned i = 0; i < group_->size(); ++i) spawned += static_cast<std::int64_t>(outboxes_[i].count);
    group_->account(spawned);
    for (unsigned i = 0; i < group_->size(); ++i) {
        outbox& o = outboxes_[i];
        if (i != index_ && o.count) group_->loops_[i]->post(o.tasks, o.count);
        o.count = 0;
    }
}

inline bool loop::step(bool block) {
    take_mail();
    if (outboxes_) send_spawned();  // what main spawned before running: the other loops start now
    bool ran = !ready_.empty();
    const std::uint64_t ended_before = completed_;
    task_list batch;
    batch.splice(ready_);
    while (!batch.empty()) handle_of(*batch.pop()).resume();

    std::int64_t ns = now_ns(CLOCK_MONOTONIC);
    early_ += timers_.expire(ns / 1000000, ready_);

    if (outboxes_) {
        send_spawned();  // what this round's tasks spawned, counted before the ended are
        group_->account(-static_cast<std::int64_t>(completed_ - ended_before));
        if (group_->stopping()) return false;
    }
    if (!ready_.empty() || has_mail_.load(std::memory_order_acquire)) return true;
    const bool alone = !outboxes_;  // no other loop can hand us work
    if (!block || (alone && live_ == 0)) return ran;

    std::int64_t next = timers_.next_tick();
    if (next < 0 && alone)
        throw std::logic_error("deadlock: " + std::to_string(live_) +
                               " tasks wait, and no timer or other thread can resume them");
    if (!alone) group_->idle(*this);
    int timeout = -1;  // with other loops, one of them may wake us
    if (next >= 0) {
        // Round up: a timeout truncated to 0 ms would spin until the deadline.
        std::int64_t wait_ms = (next * 1000000 - ns + 999999) / 1000000;
        timeout = static_cast<int>(std::clamp<std::int64_t>(wait_ms, 0, 1 << 30));
    }
    poller_.wait(timeout);
    return true;
}

inline void task_finished() { current_loop->finished_one(); }

inline std::uint64_t task_list::destroy_all() noexcept {
    std::uint64_t n = 0;
    while (!empty()) {
        promise_base* p = pop();
        // A task awaited by another is owned by its parent's frame: destroy the spawned root,
        // whose frame destroys the chain below it.
        while (p->awaited()) p = static_cast<task_promise*>(p)->parent_;
        handle_of(*p).destroy();
        ++n;
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// Awaitables. A sleep runs on the current thread's loop; an event's waiters may be on any.

template <class Rep, class Period>
parked promise_base::await_transform(const std::chrono::duration<Rep, Period>& d) {
    // Up to 2^40 ms (35 years): a longer sleep would overflow the tick arithmetic, so it is cut there.
    constexpr std::chrono::milliseconds longest{std::int64_t{1} << 40};
    const bool too_long = std::chrono::duration<double, std::milli>(d).count() >= static_cast<double>(longest.count());
    current_loop->sleep(*this, too_long ? longest : std::chrono::ceil<std::chrono::milliseconds>(d));
    return {false};
}

// A std::mutex that spins briefly before it sleeps. glibc's default mutex goes to the kernel at
// the first collision (a futex wait, then a wake from the holder: microseconds each), where the
// holder needed nanoseconds; with two threads appending to one vector that was a third of the run.
// Rust's std Mutex and Go's sync.Mutex spin first too. Used wherever tasks share a lock.
class mutex {
public:
    void lock() {
        for (int i = 0; i < 100; ++i) {
            if (m_.try_lock()) return;
            os::cpu_relax();
        }
        m_.lock();
    }
    bool try_lock() { return m_.try_lock(); }
    void unlock() { m_.unlock(); }

private:
    std::mutex m_;
};

// A one-shot event: co_await suspends until set() (and not at all once it is set); set() makes
// every waiter ready, in the order they arrived on each loop, with one hand-over per loop. The
// waiting task is filed by its promise's await_transform, so co_await stores nothing in its frame.
// Waiters are kept per loop under a lock (uncontended with one loop: a few ns per waiter).
class event {
public:
    event() = default;
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    // Ends the tasks still waiting (their frames are freed). An event must outlive the loops whose
    // tasks wait on it: a task on another loop may be filing itself here at this moment.
    ~event() {
        for (auto& g : groups_) {
            std::uint64_t n = g.waiters.destroy_all();
            if (g.owner == current_loop) current_loop->forget(n);
        }
    }

    bool is_set() const noexcept { return set_.load(std::memory_order_acquire); }
    void set() {
        std::vector<group> groups;
        {
            std::lock_guard lock(mutex_);
            set_.store(true, std::memory_order_release);
            groups.swap(groups_);
        }
        for (auto& g : groups) g.owner->resume(g.waiters);
    }

private:
    friend struct promise_base;

    // Files p among the waiters (it suspends right after), or returns false if the event is set.
    bool park(promise_base& p) {
        if (is_set()) return false;
        std::lock_guard lock(mutex_);
        if (set_.load(std::memory_order_relaxed)) return false;  // set meanwhile: do not suspend
        if (groups_.empty() || groups_.back().owner != current_loop) {
            auto it = std::find_if(groups_.begin(), groups_.end(), [](const group& g) { return g.owner == current_loop; });
            if (it == groups_.end()) {
                groups_.push_back(group{current_loop, {}});
                it = groups_.end() - 1;
            }
            std::iter_swap(it, groups_.end() - 1);  // the caller's group goes last: found first next time
        }
        groups_.back().waiters.push(p);
        return true;
    }

    struct group {
        loop* owner;
        task_list waiters;
    };
    mutex mutex_;
    std::vector<group> groups_;
    std::atomic<bool> set_{false};
};

inline parked promise_base::await_transform(event& e) { return {!e.park(*this)}; }

// Many producers on any loop, one consumer task: send() never suspends (the buffer grows), and
// `co_await ch.receive(out)` waits until values arrive, then appends every value sent since to
// `out`, in one batch: one wake-up per batch, not per message. Each producer calls done() once;
// when all have, receive() returns false once the last values are taken.
template <class T> class channel {
public:
    explicit channel(std::uint64_t producers) : open_{producers} {}
    channel(const channel&) = delete;
    channel& operator=(const channel&) = delete;

    // By reference: a value passed by value would be kept in the sender's frame by clang.
    void send(const T& value) {
        std::unique_lock lock(mutex_);
        items_.push_back(value);
        wake_consumer(lock);
    }
    void send(T&& value) {
        std::unique_lock lock(mutex_);
        items_.push_back(std::move(value));
        wake_consumer(lock);
    }
    void done() {
        std::unique_lock lock(mutex_);
        if (open_ == 0) throw std::logic_error("channel::done() called more often than there are producers");
        if (--open_ == 0) wake_consumer(lock);
    }

    class receiver {
    public:
        receiver(channel& ch, big_vector<T>& out) noexcept : ch_{ch}, out_{out} {}
        bool await_ready() const noexcept { return false; }
        template <class P> bool await_suspend(std::coroutine_handle<P> h) {
            std::lock_guard lock(ch_.mutex_);
            if (!ch_.items_.empty() || ch_.open_ == 0) return false;
            if (ch_.consumer_) throw std::logic_error("channel: a second consumer");
            ch_.consumer_ = &h.promise();
            ch_.owner_ = current_loop;
            return true;
        }
        // Appends the batch to `out`; false when closed and nothing is left. The values are moved
        // under the lock (senders wait meanwhile) and the buffer is then given back to the OS, so
        // there is never a second one: a batch kept in its own vector while the next one grows,
        // or an emptied buffer kept for reuse, each held up to 64 MB more in hash_collect.
        bool await_resume() {
            big_vector<T> spent;  // freed after the lock is released
            std::lock_guard lock(ch_.mutex_);
            if (ch_.items_.empty()) return false;
            out_.insert(out_.end(), std::make_move_iterator(ch_.items_.begin()), std::make_move_iterator(ch_.items_.end()));
            spent.swap(ch_.items_);
            return true;
        }

    private:
        channel& ch_;
        big_vector<T>& out_;
    };
    receiver receive(big_vector<T>& out) noexcept { return receiver{*this, out}; }

private:
    void wake_consumer(std::unique_lock<mutex>& lock) {
        if (!consumer_) return;
        task_list ready;
        ready.push(*std::exchange(consumer_, nullptr));
        loop* owner = owner_;
        lock.unlock();
        owner->resume(ready);
    }

    mutex mutex_;
    big_vector<T> items_;
    std::uint64_t open_;
    promise_base* consumer_ = nullptr;
    loop* owner_ = nullptr;
};

}  // namespace bench
