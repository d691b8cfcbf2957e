// common.hpp: everything the scenarios share, the C++ standard library and POSIX only.
//
// What a scenario calls:
//   bench::install_handlers(argv[0])            SIGINT/SIGTERM and uncaught failures end the run in one line
//   bench::job name(args) { co_await ...; }     a task of the scenario; its frame frees itself at its end
//   bench::helper name(args) { ... }            the same, not counted among the tasks (a setter, a monitor)
//     co_await milliseconds(d)                  sleeps (any std::chrono duration), never less than d
//     co_await e                                waits until the bench::event e is set
//     co_await ch.receive(out)                  takes what a bench::channel<T> holds
//   bench::runtime rt{threads};                 T event loops on T threads
//   bench::runtime rt{threads, jitter, seed};   the same; each sleep lengthened by a draw from [0, jitter]
//     rt.spawn(job), rt.start_all()             round-robin over the loops; run all to their first wait
//     rt.run_ready()                            run what is ready now (after a spawn: start it at once)
//     rt.run_until(done), rt.join()             run until done() holds; until every task has ended
//     rt.completed(), rt.early_wakeups()        jobs ended, timers early: a lower bound while loops run
//     rt.late_max_ms(), rt.late_p99_ms()        how late sleepers resumed: the latest, 99 % of them
//   bench::event e;  e.set();                   one-shot; wakes every waiter on every loop
//   bench::channel<T> ch;  ch.send(v)           many senders, one receiving task
//   bench::mutex, bench::big_vector<T>          a spinning std::mutex; a std::vector on huge pages
//   bench::frame_of([&] { return task(...); })  one task's frame bytes, measured (for cli.finish)
//   bench::cli cli{argc, argv, usage};          `NAME N [--option value]...`; bad input: exit 2
//     cli.count(), cli.threads()                N (the first argument); --threads T, T event loops
//     cli.number("--sleep-ms", 5000, 1, MAX)    a whole-number option, echoed in the summary line
//     cli.choice("--sync", "mutex channel")     one of a list; the first is the default
//     cli.finish(bytes_per_task)                rejects the rest; refuses an N that cannot fit
//   bench::report report{"coro_timer", cli};    resident-set sampler and the one summary line
//     report.start(), spawned(), waiting(), finished(), result(key, value), print(frame_bytes)
//   bench::check(ok, "what")                    a failed self-check: exit 1
//   bench::check_frames_freed()                 exit 1 unless every frame was freed
//   bench::frame_bytes_per_task(n), splitmix64  frame bytes / n; per-task random streams from one seed
// In this order: the platform block (bench::os), the runtime (an anatomy of a waiting task, the
// frame pool, job, timers, the loop and runtime, sleeping, mutex, event, channel<T>), then the
// harness (errors and handlers, cli, report). What no scenario names is in bench::detail.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <coroutine>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
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
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

// ---- The platform block: the only place that names the OS. -------------------------------------
// Each half has a poller (blocks until a timeout or a wake(); which deadline comes next is portable
// code below) and the memory readings: the resident set, its peak, what can still be made resident.
// Linux: epoll, /proc and the cgroups. macOS: kqueue and the Mach calls. A test build may define
// BENCH_MACOS_SHIM and emulate the macOS calls (tests/macos_shim.hpp), to run that half on Linux.

namespace bench::os {
// A failed system call: an exception that names it, with errno's text (exit 1, see on_terminate).
[[noreturn]] inline void fail(const char* call) { throw std::system_error(errno, std::generic_category(), call); }
// What can be made resident now (available_memory), and what bounds it, for a refusal's message.
struct memory_room {
    double bytes;
    std::string bound;  // "available now (MemAvailable)", or the cgroup limit that leaves less
};
}  // namespace bench::os

#if defined(__linux__) && !defined(BENCH_MACOS_SHIM)
#include <sys/epoll.h>
#include <sys/eventfd.h>

namespace bench::os {
class poller {
public:
    poller() {
        epoll_ = epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) fail("epoll_create1");
        wake_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (wake_ < 0) fail("eventfd");
        epoll_event ev{};
        ev.events = EPOLLIN;
        if (epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev) < 0) fail("epoll_ctl");
    }
    ~poller() { ::close(wake_); ::close(epoll_); }
    poller(const poller&) = delete;
    poller& operator=(const poller&) = delete;

    // Blocks until wake() or until timeout_ms passes (-1: no timeout). A signal is a normal return.
    void wait(int timeout_ms) {
        epoll_event ev;
        int n = epoll_wait(epoll_, &ev, 1, timeout_ms);
        if (n < 0 && errno != EINTR) fail("epoll_wait");
        std::uint64_t count;
        if (n > 0 && ::read(wake_, &count, sizeof count) < 0 && errno != EAGAIN) fail("read(eventfd)");
    }
    void wake() {
        std::uint64_t one = 1;
        if (::write(wake_, &one, sizeof one) < 0 && errno != EAGAIN) fail("write(eventfd)");
    }

private:
    int epoll_ = -1, wake_ = -1;
};

// A small file's text, or "" when it cannot be read.
inline std::string read_text(const std::string& path) {
    std::string text;
    if (int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
        char buf[4096];
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
        ::close(fd);
    }
    return text;
}
// The number after `key` in a /proc file: "VmRSS:   123 kB" gives 123; key "": the first number.
inline long proc_number(const char* path, const char* key) {
    const std::string text = read_text(path);
    const auto at = text.find(key);
    if (text.empty() || at == std::string::npos) throw std::runtime_error(std::string("no ") + key + " in " + path);
    return std::strtol(text.c_str() + at + std::strlen(key), nullptr, 10);
}
inline long rss_kib() { return proc_number("/proc/self/status", "VmRSS:"); }
inline long peak_rss_kib() { return proc_number("/proc/self/status", "VmHWM:"); }
// A whole number that is all of `text` but a trailing newline; -1 for anything else ("max", garbage).
inline double whole_number(std::string_view text) {
    if (text.ends_with('\n')) text.remove_suffix(1);
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != text.npos) return -1;
    return std::strtod(std::string(text).c_str(), nullptr);
}

// The directories of this process's cgroup that hold `controller`'s files, its own first, then
// each ancestor up to the root of the hierarchy (a parent's limit applies too). From
// /proc/self/cgroup: v2's "0::/PATH" under /sys/fs/cgroup (or /sys/fs/cgroup/unified on a hybrid
// host), v1's "ID:...,controller,...:/PATH" under /sys/fs/cgroup/controller. Only those that exist.
inline std::vector<std::string> cgroup_dirs(std::string_view controller) {
    std::vector<std::string> dirs;
    const std::string table = read_text("/proc/self/cgroup");
    for (std::size_t at = 0, end; at < table.size(); at = end + 1) {
        end = std::min(table.find('\n', at), table.size());
        const std::string_view line = std::string_view(table).substr(at, end - at);
        const auto c1 = line.find(':'), c2 = c1 == line.npos ? line.npos : line.find(':', c1 + 1);
        if (c2 == line.npos) continue;
        const std::string_view names = line.substr(c1 + 1, c2 - c1 - 1), path = line.substr(c2 + 1);
        std::vector<std::string> roots;
        if (line.substr(0, c1) == "0" && names.empty()) roots = {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"};
        else if (("," + std::string(names) + ",").find("," + std::string(controller) + ",") != std::string::npos)
            roots = {"/sys/fs/cgroup/" + std::string(controller)};
        for (const auto& root : roots)
            for (std::string p(path); !p.empty(); p.resize(p.size() > 1 ? std::max<std::size_t>(p.rfind('/'), 1) : 0)) {
                struct stat st;  // "/a/b", "/a", "/"
                const std::string dir = root + (p == "/" ? "" : p);
                if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) dirs.push_back(dir);
            }
    }
    return dirs;
}

// What can be made resident now, and what bounds it: the kernel's MemAvailable, or less where this
// process's memory cgroup (or an ancestor's) has less room: its limit less what it uses, page cache
// the kernel can drop not counted (as docker stats and the kubelet count it). A cgroup file that
// is missing or garbage means no limit there.
inline memory_room available_memory() {
    memory_room r{1024.0 * static_cast<double>(proc_number("/proc/meminfo", "MemAvailable:")),
                  "available now (MemAvailable)"};
    struct files {
        const char *limit, *usage, *inactive;
    };
    for (const files f : {files{"memory.max", "memory.current", "inactive_file "},
                          files{"memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file "}})
        for (const auto& dir : cgroup_dirs("memory")) {
            const double limit = whole_number(read_text(dir + "/" + f.limit));
            const double usage = whole_number(read_text(dir + "/" + f.usage));
            if (limit < 0 || limit >= 0x1p60 || usage < 0) continue;  // v1 writes "no limit" as about 2^63
            const std::string stat = read_text(dir + "/memory.stat");
            const auto key = ("\n" + stat).find(std::string("\n") + f.inactive);
            const double inactive =
                key == std::string::npos ? 0 : std::strtod(stat.c_str() + key + std::strlen(f.inactive), nullptr);
            const double room = std::max(0.0, limit - std::max(0.0, usage - inactive));
            if (room < r.bytes) {
                char bound[512];
                std::snprintf(bound, sizeof bound, "left under the cgroup's %s (%.1f GiB, %s/%s)", f.limit,
                              limit / (1 << 30), dir.c_str(), f.limit);
                r = {room, bound};
            }
        }
    return r;
}
// Reserved address space is not charged against the commit limit, except under
// vm.overcommit_memory=2, which charges every mapping in full: there, what is left of it; else -1.
inline constexpr int map_reserve = MAP_NORESERVE;
inline double commit_left() {
    if (proc_number("/proc/sys/vm/overcommit_memory", "") != 2) return -1;
    return 1024.0 * static_cast<double>(proc_number("/proc/meminfo", "CommitLimit:") -
                                        proc_number("/proc/meminfo", "Committed_AS:"));
}
}  // namespace bench::os

#elif defined(__APPLE__) || defined(BENCH_MACOS_SHIM)
#if !defined(BENCH_MACOS_SHIM)
#include <mach/mach.h>
#include <sys/event.h>
#endif

namespace bench::os {
class poller {
public:
    poller() {
        kq_ = kqueue();
        if (kq_ < 0) fail("kqueue");
        struct kevent ev;
        EV_SET(&ev, 1, EVFILT_USER, EV_ADD | EV_CLEAR, 0, 0, nullptr);
        if (kevent(kq_, &ev, 1, nullptr, 0, nullptr) < 0) fail("kevent(EV_ADD)");
    }
    ~poller() { ::close(kq_); }
    poller(const poller&) = delete;
    poller& operator=(const poller&) = delete;
    void wait(int timeout_ms) {
        struct kevent ev;
        timespec ts{timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
        if (kevent(kq_, nullptr, 0, &ev, 1, timeout_ms < 0 ? nullptr : &ts) < 0 && errno != EINTR) fail("kevent");
    }
    void wake() {
        struct kevent ev;
        EV_SET(&ev, 1, EVFILT_USER, 0, NOTE_TRIGGER, 0, nullptr);
        if (kevent(kq_, &ev, 1, nullptr, 0, nullptr) < 0) fail("kevent(NOTE_TRIGGER)");
    }

private:
    int kq_ = -1;
};

// The resident set (task_info), its peak (getrusage, in bytes here) and what can be made resident
// now without paging anything active out: free plus inactive pages.
inline long rss_kib() {
    mach_task_basic_info info;
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, reinterpret_cast<task_info_t>(&info), &count) != KERN_SUCCESS)
        throw std::runtime_error("task_info(MACH_TASK_BASIC_INFO) failed");
    return static_cast<long>(info.resident_size / 1024);
}
inline long peak_rss_kib() {
    rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0) fail("getrusage");
    return ru.ru_maxrss / 1024;
}
inline memory_room available_memory() {
    vm_statistics64_data_t vm;
    mach_msg_type_number_t count = HOST_VM_INFO64_COUNT;
    if (host_statistics64(mach_host_self(), HOST_VM_INFO64, reinterpret_cast<host_info64_t>(&vm), &count) != KERN_SUCCESS)
        throw std::runtime_error("host_statistics64(HOST_VM_INFO64) failed");
    return {(static_cast<double>(vm.free_count) + vm.inactive_count) * getpagesize(), "available now (free + inactive pages)"};
}
// macOS commits anonymous memory when it is touched, not when it is mapped.
inline constexpr int map_reserve = 0;
inline double commit_left() { return -1; }
}  // namespace bench::os

#else
#error "bench needs epoll (Linux) or kqueue (macOS)"
#endif

namespace bench::os {
// The huge page size that big blocks are aligned to (x86-64 and arm64 with 4 KiB pages).
inline constexpr std::size_t huge_page = 2 << 20;
constexpr std::size_t round_huge(std::size_t bytes) noexcept { return (bytes + huge_page - 1) & ~(huge_page - 1); }

// Physical memory: no process without swap can hold more resident.
inline double physical_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) fail("sysconf(_SC_PHYS_PAGES)");
    return static_cast<double>(pages) * static_cast<double>(page);
}
// The address-space limit (ulimit -v), or -1 without one.
inline double address_space_limit() {
    rlimit r;
    if (getrlimit(RLIMIT_AS, &r) < 0) fail("getrlimit(RLIMIT_AS)");
    return r.rlim_cur == RLIM_INFINITY ? -1 : static_cast<double>(r.rlim_cur);
}

// Fresh zeroed memory in whole 2 MiB pages, 2 MiB-aligned so that transparent huge pages can back
// it (advise_huge); nullptr when the OS refuses. `reserve_only`: address space that costs nothing
// until it is touched.
inline void* map(std::size_t bytes, bool reserve_only = false) {
    if (bytes > SIZE_MAX / 2) return nullptr;  // no such memory, and the sums below would wrap
    bytes = round_huge(bytes);
    const std::size_t len = bytes + huge_page;  // map more, then trim to an aligned stretch
    const int flags = MAP_PRIVATE | MAP_ANON | (reserve_only ? map_reserve : 0);
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = round_huge(start);
    const std::size_t tail = start + len - (aligned + bytes);
    if ((aligned > start && munmap(p, aligned - start) < 0) ||
        (tail && munmap(reinterpret_cast<void*>(aligned + bytes), tail) < 0)) {
        (void)munmap(p, len);  // trimming failed: give it all back and report no memory
        return nullptr;
    }
    return reinterpret_cast<void*>(aligned);
}
inline void unmap(void* p, std::size_t bytes) noexcept { (void)munmap(p, round_huge(bytes)); }
// Asks for transparent huge pages on a 2 MiB-aligned stretch: the first touch of a 4 KiB page
// costs a page fault, of a 2 MiB page one per 512. Only advice: without THP, 4 KiB pages it is.
inline void advise_huge([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
}

// Inside a spin-wait: PAUSE (x86) or YIELD (Arm) lets the spinning core give way to its sibling.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}
}  // namespace bench::os

namespace bench {
// ---- The runtime. -----------------------------------------------------------------------------
// Anatomy of one waiting coro_timer task, `job sleeper() { co_await sleep_for; }`, at -O2:
//
//   bytes                                   clang 14  g++ 12  decided by
//   resume and destroy pointers                   16      16  the ABI: every frame starts with them
//   the promise: one queue link                    4       4  promise_base::link_ (static_assert, job)
//   the compiler's own state, and padding          4      20  the compiler (g++ keeps more of it)
//   the frame, as frame_of() measures it          24      40  tests/test_scenarios.cpp checks both
//   the sleep's length                             0       0  a global the task reads, not a parameter
//   an awaiter kept across the wait                0       0  await_transform files the task first
//   a timer of its own                             0       0  its bucket keeps one deadline (timers)
//   an allocator header, or rounding               0       0  frame_pool: headerless 8-byte classes
//
// - The promise is 4 bytes because a job is spawned and never awaited: no result, no caller to
//   resume. What is left is the link of the one queue the task waits in (the ready queue, a timer
//   bucket, an event's waiters): the next task's index in one region of frames, not a pointer.
// - The compiler's state: clang 14 keeps a 1-byte resume index; g++ 12 a handle to the frame
//   itself (8 bytes), a 2-byte resume index, two flags and a byte per awaiter. A frame's size is
//   a multiple of its alignment, here 8.
// - No parameter: g++ 12 copies every parameter into the frame, used or not, and clang 14 every
//   one the body uses. `job sleeper(milliseconds d)` is 32 and 48 bytes; a reference to shared
//   state costs 8 more too. So what all tasks share (coro_timer's sleep, coro_shared's event) is a
//   global that main() sets before the first spawn, and --jitter-ms is drawn by the loop when the
//   task files its sleep (runtime's `jitter`): the deadline is kept by its bucket, not its frame.
// - `co_await d` and `co_await e` go through promise_base::await_transform, which files the task
//   where it waits and returns `parked`, an awaiter with nothing left to do: g++ 12 keeps every
//   awaiter and temporary of a co_await in the frame, so one that remembered d would cost 16 bytes.
// - A job frees its own frame at its end (final_awaiter), so nothing holds a handle to it.
// - Frames come from frame_pool (below): free lists per 8-byte size class, no header, carved from
//   huge pages. A 24- or 40-byte frame takes 24 or 40 bytes, and whose it is costs the region an
//   8-byte entry per 64 KiB of frames (0.003 bytes of a 24-byte frame).
// - A frame freed on the loop that carved it costs a push onto a free list. One freed on another
//   loop goes home: the freeing loop adds it to a batch for its owner (a push, as above), and each
//   batch costs one compare-and-swap on the owner's inbox, at 256 frames or at the end of the round.
//   The owner takes a size class's inbox whole (one exchange) when that free list runs dry, before
//   carving: the list it takes is its new free list, not walked.
// - Timers keep one bucket per distinct millisecond, holding the deadline once for all its tasks.

// Frame pool. Every byte of a frame is multiplied by N, and malloc would add an 8-byte header.
// Frames come from per-thread free lists, one per 8-byte size class (powers of two above 512
// bytes), carved from chunks that grow from 64 KiB to 32 MiB, all in one reserved region. Chunks
// are never returned, like malloc's arena. A frame's size is a multiple of its alignment, so a 24-
// or 40-byte frame holds nothing aligned to 16, and takes an 8-byte-aligned block. A frame whose
// size is a multiple of 16 may hold a 16-aligned local (g++ writes an alignas(16) local with
// movaps, which faults on an 8-aligned address), so it gets 16-byte alignment, as operator new
// promises (__STDCPP_DEFAULT_NEW_ALIGNMENT__). Neither g++ 12 nor clang 14 passes a larger
// alignment to operator new: alignas(32) or more in a coroutine is not honoured, and neither warns.
//
// A frame goes home. A task spawned on one loop may end on another, and a frame left on the free
// list of a loop that never allocates is memory that grows with the tasks spawned, not those alive.
// So each chunk belongs to the thread that carved it, and the region says whose a frame is: chunks
// are 64 KiB-aligned multiples of 64 KiB, with one owner entry per 64 KiB (8 bytes: 0.012 % of the
// frames). A frame freed by its owner goes onto the owner's free list: no atomic read-modify-write,
// fence or lock, only the load of its owner entry. A frame freed by another thread (a remote free)
// is kept by that thread in a batch for its owner and size class, and each batch goes home with a
// compare-and-swap onto the owner's inbox for that class (one, unless another sender got there
// first): when 256 frames have gathered, at the end of every loop round, and when a loop shuts down.
// A frame freed outside a round (by ~event, or a task destroyed unstarted) waits in its thread's
// batch until that thread's next round; if the thread ends first, it is never reused. When a free
// list it allocates from is empty, the owner takes that class's inbox whole with one exchange,
// before it carves fresh memory: the list it takes becomes its free list as it is, so no frame is
// touched before it is reused (a frame last written on another core costs a cache miss once, not
// twice). Its chunks stop growing once the frames in flight come back. They come back grouped by
// the loop that freed them, so with more than one loop a loop's tasks lie farther apart in memory
// with every reuse, and resuming them costs more cache misses than fresh, contiguous frames did
// (METHODOLOGY.md, "A frame goes home"). The designs this follows: mimalloc's per-page delayed free
// lists (Leijen, Zorn and de Moura, "Mimalloc: free list sharding in action", APLAS 2019,
// https://www.microsoft.com/en-us/research/publication/mimalloc-free-list-sharding-in-action/) and
// snmalloc's batched remote frees (Lietar et al., ISMM 2019, https://doi.org/10.1145/3315573.3329980).
// The inbox and the counters live on the heap (frame_home) and outlive their thread. A frame sent
// to a thread that has ended waits in its inbox for good: it is never written into freed memory,
// and never reused, like the frames on that thread's free lists, which die with it. Loops are the
// long-lived threads that pools are for; the frames a loop still holds at shutdown are destroyed
// there, and the rest by main in ~loop, sent home to the ended loops that carved them.

namespace detail {
// A counter that only its own thread writes and any thread may read: a relaxed load and store is a
// plain add, where fetch_add would be a locked instruction on every frame or task.
template <class T> void bump(std::atomic<T>& c, std::type_identity_t<T> d) noexcept {
    c.store(c.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
}

// A free frame's first word links it into a free list, on its way home as on its owner's.
struct free_block {
    free_block* next;
};

// Size classes: 8-byte steps up to 512 bytes; above that, powers of two (a frame that large is rare).
inline constexpr std::size_t class_unit = alignof(void*), class_small = 512;
inline constexpr std::size_t class_count = class_small / class_unit + 64 - 9 + 1;

// One thread's counters, which any thread may read (frames()), and its inbox, a list per size class
// where other threads send home the frames of its chunks that they freed. On the heap, listed in
// all_homes, never freed.
struct frame_home {
    std::atomic<std::int64_t> live{0};    // frames allocated and not yet freed, by this thread's count
    std::atomic<std::int64_t> bytes{0};   // bytes of every frame this thread allocated, whole classes
    std::atomic<std::int64_t> carved{0};  // bytes carved fresh from chunks (frame_of's probe's too)
    frame_home* next = nullptr;
    unsigned id = 0;  // the order in which threads first used their pools
    // Written by other threads: a cache line of its own, away from the counters its owner bumps.
    alignas(64) std::atomic<free_block*> inbox[class_count] = {};
};
inline std::mutex homes_mutex;
inline frame_home* all_homes = nullptr;

// In sanitized builds a freed frame is poisoned for AddressSanitizer, which then reports any read
// or write of it (a double free included) but the pool's own, which unpoisons a frame's link first;
// under ThreadSanitizer the freeing thread scribbles over it, so a task still using it is a race.
#if defined(__SANITIZE_ADDRESS__)
#define BENCH_POISON_FRAMES 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_POISON_FRAMES 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define BENCH_SCRIBBLE_FRAMES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BENCH_SCRIBBLE_FRAMES 1
#endif
#endif
#if defined(BENCH_POISON_FRAMES)
extern "C" void __asan_poison_memory_region(void const volatile* addr, std::size_t size);
extern "C" void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size);
#endif
// After the pool has linked a freed block: nothing but the pool may touch it now.
inline void block_freed([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(BENCH_POISON_FRAMES)
    __asan_poison_memory_region(p, bytes);
#elif defined(BENCH_SCRIBBLE_FRAMES)
    if (bytes > sizeof(free_block)) std::memset(static_cast<char*>(p) + sizeof(free_block), 0xdb, bytes - sizeof(free_block));
#endif
}
// Before the pool reads or rewrites a free block's link, or hands the block out as a frame.
inline void block_reused([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(BENCH_POISON_FRAMES)
    __asan_unpoison_memory_region(p, bytes);
#endif
}

// Every frame lives in one stretch of address space, reserved at the first allocation, so that a
// queue link can be a 32-bit index into it (2^32 steps of 8 bytes: 32 GiB, so at most 1.43 billion
// 24-byte frames and 859 million of 40; cli::finish refuses a larger N up front). Only touched pages
// count, in RSS and against memory. The reservation: physical memory, at most half of ulimit -v,
// and under vm.overcommit_memory=2 (which charges it in full) half of the commit limit left; if
// the OS refuses, halved until it fits. Filling it is running out of memory (std::bad_alloc).
// It also says which thread owns each chunk, one entry per 64 KiB (`granule`): each chunk is a
// multiple of 64 KiB and starts at a multiple of it (2 MiB for chunks that large).
class frame_region {
public:
    static constexpr std::size_t unit = alignof(void*);  // every frame starts with two pointers
    static constexpr std::size_t max_bytes = std::size_t{1} << 32 << std::countr_zero(unit);
    static constexpr std::size_t granule = 64 << 10;

    static std::size_t wanted_bytes() {
        double bytes = std::min(static_cast<double>(max_bytes), os::physical_bytes());
        if (const double limit = os::address_space_limit(); limit >= 0) bytes = std::min(bytes, limit / 2);
        if (const double left = os::commit_left(); left >= 0) bytes = std::min(bytes, left / 2);
        return static_cast<std::size_t>(std::max(bytes, 0.0)) & ~(os::huge_page - 1);
    }

    // A chunk of `bytes` (a multiple of granule) for `owner`, or nullptr once the region is full.
    char* take(std::size_t bytes, frame_home* owner) {
        std::call_once(once_, [this] {
            for (size_ = wanted_bytes(); size_ >= (std::size_t{16} << 20); size_ /= 2)
                if ((base_ = static_cast<char*>(os::map(size_, true)))) return;
            size_ = 0;
        });
        const std::size_t align = bytes >= os::huge_page ? os::huge_page : granule;
        std::size_t at = used_.load(std::memory_order_relaxed), start;
        do {
            start = (at + align - 1) & ~(align - 1);
            if (start > size_ || bytes > size_ - start) return nullptr;
        } while (!used_.compare_exchange_weak(at, start + bytes, std::memory_order_relaxed));
        // Written before any frame of the chunk exists: a thread that frees one was handed it later.
        std::fill_n(owners_ + start / granule, bytes / granule, owner);
        return base_ + start;
    }
    char* base() const noexcept { return base_; }
    frame_home* owner_of(const void* frame) const noexcept {
        return owners_[static_cast<std::size_t>(static_cast<const char*>(frame) - base_) / granule];
    }
    // What operator new promises: chunks start there, and so does every frame that may need it.
    static constexpr std::size_t aligned = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

private:
    std::once_flag once_;
    char* base_ = nullptr;
    std::size_t size_ = 0;
    std::atomic<std::size_t> used_{os::huge_page};  // from 2 MiB on: no frame is at index 0 (null)
    // Zero-initialized, so in .bss: 4 MiB of address space, a page touched per 32 MiB of frames.
    static inline frame_home* owners_[max_bytes / granule] = {};
};
inline constinit frame_region region;

class frame_pool {
public:
    void* allocate(std::size_t size) {
        const std::size_t cls = class_of(size), bytes = bytes_of(cls);
        frame_home& h = home();
        bump(h.bytes, static_cast<std::int64_t>(bytes));
        bump(h.live, 1);
        if (void* p = pop(cls, bytes)) return p;
        // The free list is empty: first the frames other threads sent home, then fresh memory.
        if (h.inbox[cls].load(std::memory_order_relaxed)) {
            free_[cls] = h.inbox[cls].exchange(nullptr, std::memory_order_acquire);
            return pop(cls, bytes);
        }
        bump(h.carved, static_cast<std::int64_t>(bytes));
        // A frame's size is a multiple of its alignment: only one whose size is a multiple of 16
        // can hold something aligned to 16, and only that one is carved at a 16-byte boundary. The
        // 8 bytes skipped, if any, stay untouched (free lists keep each class's alignment).
        if (bytes % frame_region::aligned == 0) chunk_at_ = align_up(chunk_at_);
        if (static_cast<std::size_t>(chunk_end_ - chunk_at_) < bytes) refill(bytes, h);
        void* p = chunk_at_;
        chunk_at_ += bytes;
        return p;
    }

    void deallocate(void* p, std::size_t size) noexcept {
        frame_home& h = home();
        bump(h.live, -1);
        const std::size_t cls = class_of(size);
        if (frame_home* owner = region.owner_of(p); owner != &h) [[unlikely]] {
            send_home(*owner, p, cls);
            return;
        }
        free_[cls] = new (p) free_block{free_[cls]};
        block_freed(p, bytes_of(cls));
    }
    void forget(std::int64_t bytes) noexcept { bump(home().bytes, -bytes); }  // a probe's (frame_of)

    // Sends every batch of frames this thread freed for other threads home now: each loop does at
    // the end of every round and when it shuts down.
    void send_all_home() noexcept {
        if (!holding_) return;
        for (auto& b : outbound_) send(b);
        holding_ = false;
    }

    // This thread's home, made at its first frame, listed in all_homes.
    frame_home& home() noexcept {
        if (!home_) [[unlikely]] {
            std::lock_guard lock(homes_mutex);
            home_ = new (std::nothrow) frame_home;
            if (!home_) std::terminate();
            home_->id = all_homes ? all_homes->id + 1 : 0;
            home_->next = all_homes;
            all_homes = home_;
        }
        return *home_;
    }

private:
    static constexpr std::size_t unit = class_unit, small = class_small;
    static std::size_t class_of(std::size_t size) noexcept {
        if (size <= small) return (size + unit - 1) / unit;
        return small / unit + static_cast<std::size_t>(std::bit_width(size - 1)) - 9;
    }
    static std::size_t bytes_of(std::size_t cls) noexcept {
        return cls <= small / unit ? cls * unit : std::size_t{1} << (cls - small / unit + 9);
    }

    static char* align_up(char* p) noexcept {
        const auto a = frame_region::aligned;
        return reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(p) + a - 1) & ~(a - 1));
    }

    void* pop(std::size_t cls, std::size_t bytes) noexcept {
        free_block* b = free_[cls];
        if (!b) return nullptr;
        block_reused(b, bytes);
        free_[cls] = b->next;
        return b;
    }

    // Frames freed here for other threads, kept per owner and size class until a batch is full or
    // the round ends. A few routes: a batch that meets another on its route is sent first.
    struct batch {
        frame_home* to = nullptr;
        std::size_t cls = 0;
        free_block *head = nullptr, *tail = nullptr;
        unsigned count = 0;
    };
    static constexpr unsigned routes = 8, batch_frames = 256;

    void send_home(frame_home& owner, void* p, std::size_t cls) noexcept {
        batch& b = outbound_[(owner.id * 7 + cls) % routes];
        if (b.to != &owner || b.cls != cls) {
            send(b);
            b.to = &owner;
            b.cls = cls;
        }
        b.head = new (p) free_block{b.head};
        block_freed(p, bytes_of(cls));
        if (!b.tail) b.tail = b.head;
        holding_ = true;
        if (++b.count == batch_frames) send(b);
    }
    // One compare-and-swap puts the whole batch on its owner's inbox. No ABA: the owner only ever
    // takes an inbox whole.
    static void send(batch& b) noexcept {
        if (!b.head) return;
        std::atomic<free_block*>& inbox = b.to->inbox[b.cls];
        free_block* first = inbox.load(std::memory_order_relaxed);
        do {
            block_reused(b.tail, sizeof(free_block));
            b.tail->next = first;
            block_freed(b.tail, sizeof(free_block));  // once sent, the owner may reuse it at once
        } while (!inbox.compare_exchange_weak(first, b.head, std::memory_order_release, std::memory_order_relaxed));
        b.head = b.tail = nullptr;
        b.count = 0;
    }

    void refill(std::size_t need, frame_home& h) {
        // A chunk's tail too small for this frame is left untouched: no RSS, only address space.
        std::size_t chunk = std::max(next_chunk_, need);
        chunk = chunk >= os::huge_page ? os::round_huge(chunk) : (chunk + frame_region::granule - 1) & ~(frame_region::granule - 1);
        // Near the region's end, smaller chunks: the region fills to within 64 KiB. Every chunk is a
        // multiple of 64 KiB, so its end is 16-aligned and align_up never passes it.
        const std::size_t least = (need + frame_region::granule - 1) & ~(frame_region::granule - 1);
        char* p;
        while (!(p = region.take(chunk, &h)) && chunk > least)
            chunk = std::max(least, chunk / 2 & ~(frame_region::granule - 1));
        if (!p) throw std::bad_alloc();
        if (chunk >= os::huge_page) os::advise_huge(p, chunk);
        chunk_at_ = p;
        chunk_end_ = p + chunk;
        next_chunk_ = std::min<std::size_t>(next_chunk_ * 2, 32 << 20);
    }

    free_block* free_[class_count] = {};
    char *chunk_at_ = nullptr, *chunk_end_ = nullptr;  // the unused rest of the current chunk
    std::size_t next_chunk_ = 64 << 10;
    frame_home* home_ = nullptr;
    batch outbound_[routes] = {};
    bool holding_ = false;  // some batch holds frames
};

// Constant-initialized and trivially destructible: no guard on the hot path. A thread's free
// lists die with it (its chunks stay allocated), so pools belong to long-lived threads.
inline constinit thread_local frame_pool pool;

// Totals over every thread: frames alive now (0 once every task has ended), bytes allocated, and
// of those the bytes carved fresh (the rest were frames reused).
struct frame_totals {
    std::int64_t live = 0, bytes = 0, carved = 0;
};
inline frame_totals frames() {
    pool.home();  // this thread is listed too
    std::lock_guard lock(homes_mutex);
    frame_totals t;
    for (auto* h = all_homes; h; h = h->next) {
        t.live += h->live.load(std::memory_order_relaxed);
        t.bytes += h->bytes.load(std::memory_order_relaxed);
        t.carved += h->carved.load(std::memory_order_relaxed);
    }
    return t;
}
}  // namespace detail

// For vectors of one element per task (digests, a channel's buffer): a block of 2 MiB or more is
// mapped on huge pages where the kernel offers them; smaller blocks come from std::allocator.
template <class T> struct big_allocator {
    using value_type = T;
    big_allocator() noexcept = default;
    template <class U> big_allocator(const big_allocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        if (n * sizeof(T) < os::huge_page) return std::allocator<T>{}.allocate(n);
        void* p = os::map(n * sizeof(T));
        if (!p) throw std::bad_alloc();
        os::advise_huge(p, n * sizeof(T));
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < os::huge_page) std::allocator<T>{}.deallocate(p, n);
        else os::unmap(p, n * sizeof(T));
    }
    template <class U> bool operator==(const big_allocator<U>&) const noexcept { return true; }
};
template <class T> using big_vector = std::vector<T, big_allocator<T>>;

// The task types: `job`, a task of the scenario, and `helper`, one that is not counted among them
// (coro_shared's setter, atomic_counter's monitor, a channel's consumer). Both are spawned and never
// awaited, so each frees its own frame when it ends. A fork that needs an awaited task<T> derives
// its promise from detail::promise_base (METHODOLOGY.md, "Forking: an awaited task").

class event;
class runtime;
namespace detail {
class loop;
inline thread_local loop* current_loop = nullptr;
struct parked;
template <class T> inline constexpr bool is_duration = false;
template <class Rep, class Period> inline constexpr bool is_duration<std::chrono::duration<Rep, Period>> = true;

struct promise_base {
    promise_base() noexcept = default;
    promise_base(const promise_base&) = delete;  // lives in a frame: its link is an index there
    promise_base& operator=(const promise_base&) = delete;

    promise_base* next() const noexcept {
        return link_ ? reinterpret_cast<promise_base*>(region.base() + std::size_t{link_} * unit) : nullptr;
    }
    void set_next(promise_base* p) noexcept {
        link_ = p ? static_cast<std::uint32_t>((reinterpret_cast<char*>(p) - region.base()) / unit) : 0;
    }

    static void* operator new(std::size_t size) { return pool.allocate(size); }
    static void operator delete(void* p, std::size_t size) noexcept { pool.deallocate(p, size); }

    // The two waits every scenario's N tasks do file the task where it waits right here, and then
    // it suspends holding nothing (the anatomy above; g++ 12 also copies an lvalue that
    // await_transform passes through, so an awaiter of an event would cost 8 bytes):
    //   co_await d   (a std::chrono duration) resumes after at least d: 1 ms ticks, so up to a
    //                tick late; d <= 0 yields to the tasks ready now.
    //   co_await e   (an event) resumes once e is set; not at all if it is set already.
    template <class Rep, class Period> parked await_transform(const std::chrono::duration<Rep, Period>& d);
    parked await_transform(event& e);
    // Anything else (a channel's receive) is awaited as it is; an rvalue, so not copied.
    template <class A>
        requires(!std::is_lvalue_reference_v<A> && !is_duration<std::remove_cvref_t<A>>)
    A&& await_transform(A&& awaitable) noexcept { return std::forward<A>(awaitable); }

private:
    static constexpr std::size_t unit = frame_region::unit;
    std::uint32_t link_ = 0;  // the next task's index in the frame region; 0: none
};

// The task is already filed where it waits (unless `ready`): suspending is all that is left.
struct parked {
    bool ready;
    bool await_ready() const noexcept { return ready; }
    void await_suspend(std::coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};

// The promise derives from promise_base at offset 0, and a frame puts its promise right after its
// two function pointers, 16 bytes in: so a frame can be resumed or destroyed from its promise_base
// alone (the queues hold promise_base*).
inline std::coroutine_handle<> handle_of(promise_base& p) noexcept {
    return std::coroutine_handle<promise_base>::from_promise(p);
}

inline void task_finished(bool counted);  // defined with the loop

template <bool Counted> class [[nodiscard]] task {
public:
    struct promise_type : promise_base {
        task get_return_object() noexcept { return task{*this}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        // At its end the task frees its own frame and is counted (a job) or not (a helper).
        struct final_awaiter {
            bool await_ready() const noexcept { return false; }
            void await_suspend(std::coroutine_handle<> h) const noexcept {
                h.destroy();
                task_finished(Counted);
            }
            void await_resume() const noexcept {}
        };
        final_awaiter final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        // No one to hand it to: on_terminate reports it and exits 1.
        void unhandled_exception() noexcept { std::terminate(); }
    };
    static_assert(sizeof(promise_type) == 4);

    task(task&& other) noexcept : p_{std::exchange(other.p_, nullptr)} {}
    task& operator=(task&&) = delete;
    ~task() { if (p_) handle_of(*p_).destroy(); }

    // Gives up ownership: the frame now frees itself when the task ends (see spawn).
    promise_base& release() noexcept { return *std::exchange(p_, nullptr); }

private:
    explicit task(promise_base& p) noexcept : p_{&p} {}
    promise_base* p_;
};
}  // namespace detail

using job = detail::task<true>;
using helper = detail::task<false>;

namespace detail {
inline double probed_frame_bytes = 0;  // what frame_of() measured last, for cli::finish
// Not inlined, so the job leaves it: clang puts a coroutine that is made and destroyed within one
// function on that function's stack (heap allocation elision), and nothing would be measured.
template <class F> [[gnu::noinline]] job make_on_heap(F& make) { return make(); }
}  // namespace detail
// The pool bytes of one frame of the job make() returns, as this binary's compiler lays it out (for
// cli.finish). The probe is destroyed unstarted, not counted, and the first task reuses its place.
template <class F> double frame_of(F make) {
    const std::int64_t before = detail::frames().bytes;
    { job probe = detail::make_on_heap(make); }  // destroyed unstarted
    const std::int64_t bytes = detail::frames().bytes - before;
    detail::pool.forget(bytes);
    detail::probed_frame_bytes = static_cast<double>(bytes);
    return static_cast<double>(bytes);
}

namespace detail {
// Intrusive FIFO of tasks, linked through promise_base's link: push and splice are O(1) and
// allocate nothing.
class task_list {
public:
    bool empty() const noexcept { return !head_; }
    promise_base* back() const noexcept { return tail_; }
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
    // Destroys every frame in the list: their tasks never resume.
    void destroy_all() noexcept { while (!empty()) handle_of(*pop()).destroy(); }

private:
    promise_base *head_ = nullptr, *tail_ = nullptr;
};

// Timers: the tasks due at one millisecond tick wait in one bucket, which keeps their deadline, so
// a task pays no timer memory of its own and the loop one bucket per distinct pending millisecond.
// Buckets hang in a hierarchical timer wheel, 8 levels of 256 slots (Varghese and Lauck, "Hashed
// and hierarchical timing wheels", SOSP 1987): filing is O(1) (a hash lookup, none for the tick
// filed last), a bucket moves down at most once per level whatever its size, and firing splices its
// FIFO onto the ready queue, so equal deadlines resume in the order they were set. An ordered map of
// buckets, as libcoro keeps its timed events, was measured in its place and lost: filing 1M sleeps
// spread over 1 s took 86 ms against the wheel's 48 (METHODOLOGY.md, "Timers").
// Invariants: every deadline before cur_ has fired; a bucket with deadline t sits at the level of
// the highest 8-bit digit in which t and cur_ differ, in the slot named by t's digit there, so each
// slot covers one aligned range at or after cur_.

class timers {
public:
    static constexpr int levels = 8, bits = 8, slots = 1 << bits;

    // A bucket moved to the ready queue: its last task, its deadline and its size.
    struct fired {
        promise_base* last;
        std::int64_t deadline;
        std::uint64_t count;
    };

    explicit timers(std::int64_t now) : cur_{now} {}
    timers(const timers&) = delete;  // its slots point into its own buckets
    timers& operator=(const timers&) = delete;

    // Files p to become due at tick t. A tick already passed goes straight to `due`.
    void add(promise_base& p, std::int64_t t, task_list& due) {
        if (t < cur_) {
            due.push(p);
            return;
        }
        if (!last_ || last_->deadline != t) {
            auto [it, fresh] = buckets_.try_emplace(t);
            last_ = &it->second;
            if (fresh) { last_->deadline = t; file(*last_); }
        }
        last_->tasks.push(p);
        last_->count++;
    }

    // Moves every task due at or before now to `due`, in deadline order, listing each bucket in `log`.
    void expire(std::int64_t now, task_list& due, std::vector<fired>& log) {
        const std::int64_t target = now + 1;  // afterwards cur_ >= target: all of <= now has fired
        for (;;) {
            int level;
            std::int64_t start;
            if (!earliest(level, start) || start > target || (level == 0 && start == target)) break;
            bucket* b = std::exchange(wheel_[level][digit(start, level)], nullptr);
            const int d = digit(start, level);
            occupied_[level][d / 64] &= ~(std::uint64_t{1} << (d % 64));
            // Cascade even when start == target, before any later timer is filed at cur_ = start.
            cur_ = level == 0 ? start + 1 : start;
            while (b) {
                bucket* next = std::exchange(b->next, nullptr);
                if (level > 0) {
                    file(*b);
                } else {
                    log.push_back({b->tasks.back(), b->deadline, b->count});
                    due.splice(b->tasks);
                    if (last_ == b) last_ = nullptr;
                    buckets_.erase(b->deadline);
                }
                b = next;
            }
        }
        cur_ = std::max(cur_, target);
    }

    // The tick at which expire() next has work, or -1 when no timer is pending.
    std::int64_t next_tick() const noexcept {
        int level;
        std::int64_t start;
        return earliest(level, start) ? start : -1;
    }

    // Destroys every pending timer's frame: at shutdown they never fire.
    void destroy_all() noexcept {
        for (auto& [t, b] : buckets_) b.tasks.destroy_all();
        buckets_.clear();
        last_ = nullptr;
        for (auto& level : wheel_) std::fill(std::begin(level), std::end(level), nullptr);
        for (auto& level : occupied_) std::fill(std::begin(level), std::end(level), 0);
    }

private:
    struct bucket {
        task_list tasks;
        bucket* next = nullptr;  // in its wheel slot
        std::int64_t deadline = 0;
        std::uint64_t count = 0;
    };

    static int digit(std::int64_t t, int level) noexcept {
        return static_cast<int>((static_cast<std::uint64_t>(t) >> (level * bits)) & (slots - 1));
    }

    // A slot is a stack: at level 0 it holds one bucket, above it the order does not matter.
    void file(bucket& b) noexcept {
        const auto diff = static_cast<std::uint64_t>(b.deadline ^ cur_);
        const int level = diff ? (std::bit_width(diff) - 1) / bits : 0;
        const int d = digit(b.deadline, level);
        b.next = std::exchange(wheel_[level][d], &b);
        occupied_[level][d / 64] |= std::uint64_t{1} << (d % 64);
    }

    // The lowest occupied slot on the lowest non-empty level is the earliest event: every slot of
    // level l lies inside cur_'s current range of level l + 1, after every slot of level l - 1.
    bool earliest(int& level, std::int64_t& start) const noexcept {
        for (int l = 0; l < levels; ++l) {
            const int from = digit(cur_, l);
            for (int w = from / 64; w < slots / 64; ++w) {
                std::uint64_t word = occupied_[l][w];
                if (w == from / 64) word &= ~std::uint64_t{0} << (from % 64);
                if (!word) continue;
                const int d = w * 64 + std::countr_zero(word);
                const int shift = (l + 1) * bits;
                const auto high = shift >= 64 ? 0 : static_cast<std::uint64_t>(cur_) >> shift << shift;
                level = l;
                start = static_cast<std::int64_t>(high | static_cast<std::uint64_t>(d) << (l * bits));
                return true;
            }
        }
        return false;
    }

    std::unordered_map<std::int64_t, bucket> buckets_;  // node-based: a bucket never moves
    bucket* last_ = nullptr;                            // filed last: the next is likely the same
    bucket* wheel_[levels][slots] = {};
    std::uint64_t occupied_[levels][slots / 64] = {};
    std::int64_t cur_;
};

// How late sleepers resumed, in a fixed logarithmic histogram: no memory per task, one clock read per
// bucket. Every task of a bucket is counted at the lateness of its last task, read once that task
// has resumed: a bound for the others, which ran before it. Lateness is measured from the tick the
// bucket was due (the sleep rounded up to whole milliseconds). Bins: 8 per doubling from 1 us, so
// each is under 9 % wide; a quantile is its bin's upper edge, never below the true figure.
class lateness {
public:
    void add(std::int64_t ns, std::uint64_t tasks) noexcept {
        ns = std::max<std::int64_t>(ns, 0);  // early: the loop counts those as such
        max_ns_ = std::max(max_ns_, ns);
        count_[ns < 1000 ? 0 : std::min(bins - 1, 1 + static_cast<int>(std::log2(ns / 1000.0) * per_doubling))] +=
            tasks;
    }
    void add(const lateness& other) noexcept {
        max_ns_ = std::max(max_ns_, other.max_ns_);
        for (int i = 0; i < bins; ++i) count_[i] += other.count_[i];
    }
    double max_ms() const noexcept { return static_cast<double>(max_ns_) / 1e6; }
    // The bound under which a share q (< 1) of the tasks resumed.
    double quantile_ms(double q) const noexcept {
        std::uint64_t total = 0, seen = 0;
        for (auto c : count_) total += c;
        for (int i = 0; i < bins; ++i) {
            seen += count_[i];
            if (count_[i] && static_cast<double>(seen) >= q * static_cast<double>(total)) {
                const double edge_ns = 1000 * std::exp2(static_cast<double>(i) / per_doubling);
                return std::min(edge_ns, static_cast<double>(max_ns_)) / 1e6;
            }
        }
        return 0;
    }

private:
    static constexpr int per_doubling = 8, bins = 48 * per_doubling;  // up to 2^48 us: 9 years
    std::uint64_t count_[bins] = {};
    std::int64_t max_ns_ = 0;
};

}  // namespace detail

// Randomness: splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014; constants from Vigna's public-domain splitmix64.c). One state seeded once; per-task
// streams start from splitmix64 of (seed + index), so no task needs a system call, and each
// loop draws its sleeps' jitter from a stream of its own.

inline std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

namespace detail {
// The one clock, for deadlines and for every figure the harness prints. libstdc++ reads
// CLOCK_MONOTONIC, the precise clock: the kernel's coarse one can lag by more than its resolution on
// a loaded machine, and a deadline taken from a late clock fires early.
using clock_type = std::chrono::steady_clock;
inline std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now().time_since_epoch()).count();
}

// Event loop: one thread's ready queue, timers and poller. It resumes ready tasks, fires due
// timers, and otherwise blocks in the poller until the next deadline or a wake-up from another
// loop. Tasks stay on their loop (no stealing). Loops hand each other tasks through a locked inbox
// once per round: a spawn costs no lock, a burst of spawns one wake-up.
class loop {
public:
    ~loop() { shutdown(); }

    // For the awaitables below. sleep() files a task to wake at the first tick at which a sleep
    // of d that starts now may end: rounded up, so it never ends early.
    // With jitter, d is lengthened by a draw from [0, jitter] here: the deadline is chosen when
    // the task files its sleep, and kept by its bucket, so no frame holds it.
    void sleep(promise_base& p, std::chrono::milliseconds d) {
        if (jitter_ms_) d += std::chrono::milliseconds(splitmix64(jitter_state_) % (jitter_ms_ + 1));
        if (d.count() <= 0) ready_.push(p);
        else timers_.add(p, (now_ns() + d.count() * 1000000 + 999999) / 1000000, ready_);
    }
    // From any thread: makes waiting tasks of this loop ready (handed over when called from another).
    void resume(task_list& waiters) {
        if (this == current_loop) ready_.splice(waiters);
        else post(waiters);
    }
    void finished_one(bool counted) noexcept { bump(counted ? completed_ : helpers_ended_, 1); }

private:
    friend class bench::runtime;

    loop(runtime& group, unsigned index, unsigned loops, std::uint64_t jitter_ms, std::uint64_t seed)
        : group_{group}, index_{index}, timers_{now_ns() / 1000000}, jitter_ms_{jitter_ms},
          jitter_state_{seed + index}, outboxes_{new task_list[loops]} {}

    // Ends every task waiting on a timer or ready to run: their frames are freed, they never resume.
    void shutdown() noexcept {
        take_mail();
        timers_.destroy_all();
        ready_.destroy_all();
        pool.send_all_home();
    }

    // From another thread: hands over tasks, ready to run here, and wakes the loop.
    void post(task_list& tasks) {
        {
            std::lock_guard lock(mail_mutex_);
            mail_.splice(tasks);
        }
        // Mail already pending means a wake-up is already on its way.
        if (!has_mail_.exchange(true, std::memory_order_acq_rel)) poller_.wake();
    }
    void take_mail() {
        if (!has_mail_.load(std::memory_order_acquire)) return;
        has_mail_.store(false, std::memory_order_relaxed);
        std::lock_guard lock(mail_mutex_);
        ready_.splice(mail_);
    }

    void spawn(promise_base& p) noexcept;
    void send_spawned();
    // One round: take tasks posted from other loops, resume what is ready now (not what that makes
    // ready: timers get their turn), then, with `fire`, move due timers to the ready queue. With
    // nothing ready, nothing run and `block`, waits in the poller for the next deadline (none
    // without `fire`) or a wake-up. Returns whether anything ran or is ready.
    bool step(bool block, bool fire);

    runtime& group_;
    unsigned index_;
    task_list ready_;
    timers timers_;
    std::vector<timers::fired> fired_;  // last round's buckets, in the order their tasks run
    std::uint64_t jitter_ms_, jitter_state_;
    lateness late_;
    // Bumped by this loop's thread only: jobs ended, helpers ended, sleepers resumed early.
    std::atomic<std::uint64_t> completed_{0}, helpers_ended_{0}, early_{0};
    os::poller poller_;

    // Tasks posted here by other loops, and tasks spawned here for each loop (sent once a round).
    std::atomic<bool> has_mail_{false};
    std::mutex mail_mutex_;
    task_list mail_;
    std::unique_ptr<task_list[]> outboxes_;
    std::uint64_t spawned_ = 0;  // this round
    unsigned next_target_ = 0;
    std::uint64_t started_acked_ = 0;
};
}  // namespace detail

// T loops on T threads: loop 0 is the thread that creates the runtime (main), the others get
// threads of their own. Tasks are spread round-robin, and each stays on its loop to its end. With
// `jitter`, every sleep lasts a uniform draw from [d, d + jitter], helpers' and d <= 0 included
// (each loop draws from its own stream, splitmix64 from seed + its index: with one loop, the same
// sleeps in every run).
class runtime {
public:
    explicit runtime(unsigned threads, std::chrono::milliseconds jitter = {}, std::uint64_t seed = 0) {
        if (threads < 1) throw std::invalid_argument("runtime needs at least one thread");
        if (jitter.count() < 0 || jitter.count() > std::int64_t{1} << 40)
            throw std::invalid_argument("runtime: jitter must be from 0 to 2^40 ms");
        loops_.reserve(threads);
        for (unsigned i = 0; i < threads; ++i)
            loops_.emplace_back(new detail::loop(*this, i, threads, static_cast<std::uint64_t>(jitter.count()), seed));
        previous_ = std::exchange(detail::current_loop, loops_[0].get());
        for (unsigned i = 1; i < threads; ++i) {
            try {
                threads_.emplace_back([this, i] { run_loop(*loops_[i]); });
            } catch (const std::system_error& e) {
                end_threads();
                throw std::system_error(e.code(), "std::thread (event loop " + std::to_string(i + 1) + " of " +
                                                      std::to_string(threads) + ")");
            }
        }
    }
    ~runtime() { end_threads(); detail::current_loop = previous_; }

    // From the main thread or from a task: the next loop in turn gets it. It starts when that loop
    // runs, and frees its own frame when it ends.
    template <bool Counted> void spawn(detail::task<Counted> t) noexcept { detail::current_loop->spawn(t.release()); }

    // The main thread: runs every task spawned so far to its first wait, on every loop, and fires
    // no timer on this one: every task has then started and is suspended (for rss_wait), and a
    // timer spawned first, however short, has not fired while the rest were still starting.
    void start_all() {
        detail::loop& main = *loops_[0];
        while (main.step(false, false)) {
        }
        if (size() == 1) return;
        // Each other loop acknowledges once it has run what was posted to it before the request.
        const std::uint64_t epoch = start_epoch_.fetch_add(1, std::memory_order_acq_rel) + 1;
        for (unsigned i = 1; i < size(); ++i) loops_[i]->poller_.wake();
        while (started_acks_.load(std::memory_order_acquire) < (size() - 1) * epoch) main.step(true, false);
        while (main.step(false, false)) {
        }
    }

    // The main thread: runs the tasks ready on its loop up to their next wait, and hands the other
    // loops the tasks spawned for them; fires no timer, never blocks. Called after each spawn, it
    // starts every task as it is spawned (--start eager): one that ends frees its frame for the next.
    void run_ready() { loops_[0]->step(false, false); }

    // The main thread: runs, timers included, until done() holds. For tasks spawned over time.
    template <class F> void run_until(F done) {
        while (!done()) loops_[0]->step(true, true);
    }

    // The main thread: runs until every task has ended, then ends the other loops' threads, so
    // that the totals below are exact.
    void join() {
        detail::loop& main = *loops_[0];
        main.step(false, true);  // sends what main spawned, and counts it
        while (outstanding_.load(std::memory_order_acquire) > 0) main.step(true, true);
        end_threads();
    }

    // Totals over every loop: jobs that ran to their end (helpers are not counted), and sleepers
    // that resumed before their deadline by the clock (a broken timer: scenarios check that it stays
    // 0). Exact after join(); read while the loops run, what had ended by then.
    std::uint64_t completed() const noexcept { return sum(&detail::loop::completed_); }
    std::uint64_t early_wakeups() const noexcept { return sum(&detail::loop::early_); }
    // How late sleepers resumed, in ms: the latest, and a bound for 99 % of them.
    double late_max_ms() const noexcept { return lateness().max_ms(); }
    double late_p99_ms() const noexcept { return lateness().quantile_ms(0.99); }

private:
    friend class detail::loop;

    unsigned size() const noexcept { return static_cast<unsigned>(loops_.size()); }
    void run_loop(detail::loop& l) {
        detail::current_loop = &l;
        while (!stop_.load(std::memory_order_acquire)) l.step(true, true);
        l.shutdown();
    }
    // Stops and joins the other loops' threads; each destroys the tasks it still holds.
    void end_threads() {
        stop_.store(true, std::memory_order_release);
        for (unsigned i = 1; i < size(); ++i) loops_[i]->poller_.wake();
        for (auto& t : threads_) t.join();
        threads_.clear();
    }

    // Each loop adds what it spawned (before the tasks become visible elsewhere) and subtracts
    // what ended, once per round; another loop that brings the count to zero wakes main (main
    // itself is awake: with --start eager, that is once per task).
    void account(std::int64_t delta, const detail::loop& by) {
        if (delta != 0 && outstanding_.fetch_add(delta, std::memory_order_acq_rel) + delta == 0 && &by != loops_[0].get())
            loops_[0]->poller_.wake();
    }

    detail::lateness lateness() const noexcept {
        detail::lateness all;
        for (auto& l : loops_) all.add(l->late_);
        return all;
    }
    std::uint64_t sum(std::atomic<std::uint64_t> detail::loop::*field) const noexcept {
        std::uint64_t n = 0;
        for (auto& l : loops_) n += ((*l).*field).load(std::memory_order_relaxed);
        return n;
    }

    std::vector<std::unique_ptr<detail::loop>> loops_;
    std::vector<std::thread> threads_;
    std::atomic<std::int64_t> outstanding_{0};
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> start_epoch_{0}, started_acks_{0};
    detail::loop* previous_ = nullptr;
};

namespace detail {
inline void loop::spawn(promise_base& p) noexcept {
    const unsigned target = next_target_;
    next_target_ = next_target_ + 1 == group_.size() ? 0 : next_target_ + 1;
    (target == index_ ? ready_ : outboxes_[target]).push(p);
    ++spawned_;  // counted for the runtime at the end of the round
}

inline void loop::send_spawned() {
    // Count new tasks before anyone can run them, then hand them over.
    group_.account(static_cast<std::int64_t>(std::exchange(spawned_, 0)), *this);
    for (unsigned i = 0; i < group_.size(); ++i)
        if (!outboxes_[i].empty()) group_.loops_[i]->post(outboxes_[i]);
}

inline bool loop::step(bool block, bool fire) {
    // A start_all() request seen before the mail is taken covers every task posted before it.
    const std::uint64_t epoch = group_.start_epoch_.load(std::memory_order_acquire);
    take_mail();
    send_spawned();  // what main spawned before running: the other loops start now
    const bool ran = !ready_.empty();
    const auto ended = [this] { return completed_.load(std::memory_order_relaxed) + helpers_ended_.load(std::memory_order_relaxed); };
    const std::uint64_t ended_before = ended();
    task_list batch;
    batch.splice(ready_);
    // A fired bucket's tasks run in a row: once its last has resumed, one clock read says how late
    // they all were (a bound for those before it), and whether the bucket fired before its time.
    std::size_t next_fired = 0;
    while (!batch.empty()) {
        promise_base* p = batch.pop();
        const bool last_of_bucket = next_fired < fired_.size() && p == fired_[next_fired].last;
        handle_of(*p).resume();  // p may be freed now: only its address was compared
        if (last_of_bucket) {
            const auto& b = fired_[next_fired++];
            const std::int64_t late = now_ns() - b.deadline * 1000000;
            late_.add(late, b.count);
            if (late < 0) bump(early_, b.count);
        }
    }
    fired_.clear();
    pool.send_all_home();  // frames this round freed for other loops
    if (index_ > 0 && epoch != started_acked_) {
        started_acked_ = epoch;
        group_.started_acks_.fetch_add(1, std::memory_order_acq_rel);
        group_.loops_[0]->poller_.wake();
    }

    if (fire) timers_.expire(now_ns() / 1000000, ready_, fired_);
    send_spawned();  // what this round's tasks spawned, counted before the ended are
    group_.account(-static_cast<std::int64_t>(ended() - ended_before), *this);
    if (!ready_.empty() || has_mail_.load(std::memory_order_acquire)) return true;
    // Block only in a round that ran nothing: the caller may be waiting for what just ran.
    if (!block || ran || (index_ > 0 && group_.stop_.load(std::memory_order_acquire))) return ran;

    const std::int64_t next = fire ? timers_.next_tick() : -1;
    if (next < 0 && group_.size() == 1 && group_.outstanding_.load(std::memory_order_relaxed) > 0)
        throw std::logic_error("deadlock: " + std::to_string(group_.outstanding_.load()) +
                               " tasks wait, and no timer or other thread can resume them");
    int timeout = -1;  // with other loops, one of them may wake us
    if (next >= 0) {
        const std::int64_t ns = now_ns();
        // Round up: a timeout truncated to 0 ms would spin until the deadline.
        const std::int64_t wait_ms = (next * 1000000 - ns + 999999) / 1000000;
        timeout = static_cast<int>(std::clamp<std::int64_t>(wait_ms, 0, 1 << 30));
    }
    poller_.wait(timeout);
    return true;
}

inline void task_finished(bool counted) { current_loop->finished_one(counted); }

// Sleeping: `co_await d` on a bare duration works in a job because its promise turns it into a
// sleep here; it runs on the current thread's loop. An event's waiters may be on any loop.

template <class Rep, class Period>
parked promise_base::await_transform(const std::chrono::duration<Rep, Period>& d) {
    // Up to 2^40 ms (35 years): a longer sleep would overflow the tick arithmetic, so it is cut there.
    constexpr std::chrono::milliseconds longest{std::int64_t{1} << 40};
    const bool too_long = std::chrono::duration<double, std::milli>(d).count() >= static_cast<double>(longest.count());
    current_loop->sleep(*this, too_long ? longest : std::chrono::ceil<std::chrono::milliseconds>(d));
    return {false};
}
}  // namespace detail

// A std::mutex that spins briefly before it sleeps. glibc's mutex goes to the kernel at the first
// collision (a futex wait, then a wake from the holder: microseconds each), where the holder
// needed nanoseconds. Rust's std Mutex and Go's sync.Mutex spin first too.
class mutex {
public:
    void lock() {
        for (int i = 0; i < 100; ++i) {
            if (m_.try_lock()) return;
            os::cpu_relax();
        }
        m_.lock();
    }
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
    // Frees the frames of tasks still waiting: they never resume.
    ~event() { for (auto& g : groups_) g.waiters.destroy_all(); }

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
    friend struct detail::promise_base;

    // Files p among the waiters (it suspends right after), or returns false if the event is set.
    bool park(detail::promise_base& p) {
        if (is_set()) return false;
        std::lock_guard lock(mutex_);
        if (set_.load(std::memory_order_relaxed)) return false;  // set meanwhile: do not suspend
        detail::loop* here = detail::current_loop;
        if (groups_.empty() || groups_.back().owner != here) {
            auto it = std::find_if(groups_.begin(), groups_.end(), [here](const group& g) { return g.owner == here; });
            if (it == groups_.end()) it = groups_.insert(groups_.end(), group{here, {}});
            std::iter_swap(it, groups_.end() - 1);  // the caller's group goes last: found first next time
        }
        groups_.back().waiters.push(p);
        return true;
    }

    struct group {
        detail::loop* owner;
        detail::task_list waiters;
    };
    mutex mutex_;
    std::vector<group> groups_;
    std::atomic<bool> set_{false};
};

inline detail::parked detail::promise_base::await_transform(event& e) { return {!e.park(*this)}; }

// Many producers on any loop, one consumer task: send() never suspends (the buffer grows), and
// `co_await ch.receive(out)` waits until values arrive, then appends every value sent since to
// `out`, in one batch: one wake-up per batch, not per message. There is no close: the consumer
// knows how many values to expect (one per task), and closing would cost each producer a second lock.
template <class T> class channel {
public:
    // By reference: a value passed by value would be kept in the sender's frame by clang.
    template <class U> void send(U&& value) {
        std::unique_lock lock(mutex_);
        items_.push_back(std::forward<U>(value));
        if (!consumer_) return;
        detail::task_list ready;
        ready.push(*std::exchange(consumer_, nullptr));
        detail::loop* owner = owner_;
        lock.unlock();
        owner->resume(ready);
    }

    class receiver {
    public:
        receiver(channel& ch, big_vector<T>& out) noexcept : ch_{ch}, out_{out} {}
        bool await_ready() const noexcept { return false; }
        template <class P> bool await_suspend(std::coroutine_handle<P> h) {
            std::lock_guard lock(ch_.mutex_);
            if (!ch_.items_.empty()) return false;
            if (ch_.consumer_) throw std::logic_error("channel: a second consumer");
            ch_.consumer_ = &h.promise();
            ch_.owner_ = detail::current_loop;
            return true;
        }
        // Moves the batch to `out` under the lock (senders wait meanwhile), then gives the buffer
        // back to the OS, so that there is never a second one held beside it.
        void await_resume() {
            big_vector<T> spent;  // freed after the lock is released
            std::lock_guard lock(ch_.mutex_);
            out_.insert(out_.end(), std::make_move_iterator(ch_.items_.begin()),
                        std::make_move_iterator(ch_.items_.end()));
            spent.swap(ch_.items_);
        }

    private:
        channel& ch_;
        big_vector<T>& out_;
    };
    receiver receive(big_vector<T>& out) noexcept { return receiver{*this, out}; }

private:
    mutex mutex_;
    big_vector<T> items_;
    detail::promise_base* consumer_ = nullptr;
    detail::loop* owner_ = nullptr;
};
}  // namespace bench

// ---- The harness: errors and handlers, arguments, the report. ------------------------------------
namespace bench {
// Bad input: one line on stderr, exit 2, before any work starts. A failure at run time: an
// exception whose what() names the call; the terminate handler prints it, exit 1.
namespace detail {
inline const char* program = "bench";
inline std::uint64_t tasks_planned = 0;  // N, for the out-of-memory message
}  // namespace detail

[[noreturn]] inline void exit_with(int code, std::string_view message) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %.*s\n", detail::program, static_cast<int>(message.size()), message.data());
    std::fflush(stderr);
    std::_Exit(code);
}

[[noreturn]] inline void usage_error(const std::string& message) { exit_with(2, message + " (see --help)"); }

// A broken invariant (a task lost, a timer early, a wrong digest): the run must not look like a fast one.
inline void check(bool ok, const std::string& what) { if (!ok) exit_with(1, "self-check failed: " + what); }

namespace detail {
// Uncaught exceptions (a failed system call, std::bad_alloc, a throw in a spawned task) end here.
inline void on_terminate() {
    try {
        if (auto e = std::current_exception()) std::rethrow_exception(e);
        exit_with(1, "terminated");
    } catch (const std::bad_alloc&) {
        // Built without allocating: memory is what ran out. While spawning, frames = tasks made.
        char msg[160] = "out of memory (std::bad_alloc)";
        if (tasks_planned)
            std::snprintf(msg, sizeof msg, "out of memory after %lld of %llu tasks (std::bad_alloc)",
                          static_cast<long long>(frames().live), static_cast<unsigned long long>(tasks_planned));
        exit_with(1, msg);
    } catch (const std::exception& x) {
        exit_with(1, x.what());
    } catch (...) {
        exit_with(1, "unknown exception");
    }
}

// SIGINT's and SIGTERM's default action already ends the process without freeing anything; this
// handler adds the one line that names the signal. write() and _exit() are async-signal-safe.
extern "C" inline void on_signal(int sig) {
    const char* msg = sig == SIGINT ? ": interrupted (SIGINT)\n" : ": terminated (SIGTERM)\n";
    ssize_t ignored = ::write(2, program, std::strlen(program));
    ignored = ::write(2, msg, std::strlen(msg));
    (void)ignored;
    ::_exit(128 + sig);
}
}  // namespace detail

// Names the program in every message, and installs the handlers: SIGINT and SIGTERM end the run at
// once with one line (exit 130, 143), an uncaught exception prints what failed (exit 1).
inline void install_handlers(const char* argv0) {
    if (argv0) {
        const char* slash = std::strrchr(argv0, '/');
        detail::program = slash ? slash + 1 : argv0;
    }
    std::set_terminate(detail::on_terminate);
    std::signal(SIGINT, detail::on_signal);
    std::signal(SIGTERM, detail::on_signal);
}

// The memory guard's reckoning: what N tasks need resident, all alive at once. Each task's own
// bytes (its frame, measured by frame_of, and what the scenario keeps per task), then what does not
// grow with a task, each measured here (g++ 12 and clang 14 on a 2-vCPU VM; METHODOLOGY.md, "The
// binaries' guard, at the edge"): an overhead not counted is a run killed halfway, without swap.
namespace guard {
// The process with one task: 3.2 to 3.5 MiB of max RSS (coro_timer 1, either compiler).
inline constexpr double baseline = 4 << 20;
// Each event loop: its thread (stack, poller) and its timer wheel's arrays, 26 KiB measured from 1
// to 32 loops; and, once it has a task, its current chunk of frames rounded up to the 2 MiB huge page
// a touch makes resident (in need below).
inline constexpr double thread = 32 << 10;
// A timer bucket: one per distinct pending millisecond of a loop, a 64-byte hash node and its 8-byte
// slot (measured), with the table's growth room. A loop files its tasks' deadlines as it starts them
// and fires none meanwhile (a billion took 31 s, 32,000 a millisecond), so they span at most sleep +
// jitter + 1 ms and the filing's milliseconds, reckoned here at 10,000 tasks a millisecond.
inline constexpr double timer_bucket = 96, filed_per_ms = 10000;
// Per byte of frames: the owner table touches a 4 KiB page per 32 MiB of them, and were the kernel
// to give no huge page, their page tables would take 8 bytes per 4 KiB page, which RSS does not show
// (a refusal says "0.21 % more for page tables and the owner table").
inline constexpr double per_frame_byte = 1 + 1.0 / 8192 + 1.0 / 512;

// Bytes for N tasks of `per_task` bytes each on `loops` loops whose timers span `timer_ms`
// milliseconds (0: no timer). A loop with no task carves no chunk.
inline double need(double n, double per_task, unsigned loops, double timer_ms) {
    const double buckets = timer_ms > 0 ? std::min(n, timer_ms + std::ceil(n / filed_per_ms)) : 0;
    return n * per_task * per_frame_byte + baseline + loops * (thread + buckets * timer_bucket) +
           std::min(double(loops), n) * os::huge_page;
}
// The largest N whose need fits in `room` bytes, 0 when none does: need grows with N, so halve.
inline std::uint64_t most(double room, double per_task, unsigned loops, double timer_ms) {
    if (per_task <= 0) return 0;  // not a task's bytes: nothing to divide the room by
    double lo = 0, hi = std::floor(std::max(0.0, room) / (per_task * per_frame_byte));  // need(hi + 1) > room
    while (lo < hi) {
        const double mid = std::ceil((lo + hi) / 2);
        if (need(mid, per_task, loops, timer_ms) <= room) lo = mid;
        else hi = mid - 1;
    }
    return static_cast<std::uint64_t>(lo);
}
}  // namespace guard

// Parses `NAME N [--option value]...`: the scenario reads each option once, then finish() rejects
// the rest; --help anywhere prints the usage, exit 0. Every option read is echoed as key=value
// (--sleep-ms 50: sleep_ms=50), defaults included, so that the summary line says what ran.
class cli {
public:
    cli(int argc, char** argv, const char* usage) : argc_{argc}, argv_{argv} {
        for (int i = 1; i < argc; ++i)
            if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
                std::printf("%s", usage);
                std::exit(0);
            }
        if (argc >= max_args) usage_error("too many arguments");
    }

    // The task count: the first argument, digits only, at least 1.
    std::uint64_t count() {
        if (argc_ < 2 || std::string_view(argv_[1]).starts_with("--"))
            usage_error("missing N, the number of tasks (a whole number >= 1)");
        used_[1] = true;
        return n_ = detail::tasks_planned = parse("N", argv_[1], 1, UINT64_MAX);
    }

    // `--name value`, a whole number in [min, max]; `fallback` when the option is absent (a
    // fallback outside [min, max] means "not given", and is echoed as "default"). `key` names it
    // in the summary line when the option's own name is taken by a result.
    std::uint64_t number(const char* name, std::uint64_t fallback, std::uint64_t min, std::uint64_t max,
                         const char* key = nullptr) {
        const char* value = find(name);
        const std::uint64_t v = value ? parse(name, value, min, max) : fallback;
        echo(key ? key : name + 2, value || (v >= min && v <= max) ? std::to_string(v) : "default");
        return v;
    }

    // `--name value` where value is one of `choices` (a space-separated list); the first is the default.
    std::string choice(const char* name, std::string_view choices) {
        const char* value = find(name);
        std::string_view pick = choices.substr(0, choices.find(' ')), rest = choices;
        while (value && !rest.empty() && (pick = rest.substr(0, rest.find(' '))) != value)
            rest.remove_prefix(std::min(rest.size(), pick.size() + 1));
        if (value && rest.empty())
            usage_error(std::string(name) + " must be one of: " + std::string(choices) + " (got '" + value + "')");
        echo(name + 2, std::string(pick));
        return std::string(pick);
    }

    // --threads T: event loops, one per thread. More loops than tasks is allowed (some stay idle).
    unsigned threads() { return threads_ = static_cast<unsigned>(number("--threads", 1, 1, 1024)); }

    // Rejects anything not read, then refuses an N whose resident memory, every task alive at once
    // (guard::need), would not fit in what is available now: a run killed for memory halfway is no
    // measurement. `timer_ms`: how many milliseconds a loop's pending timers can span (sleep + jitter
    // + 1), 0 for none.
    void finish(double resident_bytes_per_task, double timer_ms = 0) {
        for (int i = 1; i < argc_; ++i)
            if (!used_[i]) {
                std::string_view arg = argv_[i];
                usage_error(arg.starts_with("-") ? "unknown option " + std::string(arg)
                                                 : "unexpected argument '" + std::string(arg) + "'");
            }
        // A region's 32-bit links span 32 GiB of frames, whatever the host: refused before memory is.
        // The bound allows for what frames cannot use: the region's first 2 MiB, the 64 KiB skipped
        // where the first 2 MiB chunk is aligned after the smaller ones, a chunk's tail too small for
        // a frame (a frame per chunk), and each other loop's last chunk (up to 32 MiB).
        const double frames = static_cast<double>(n_) * detail::probed_frame_bytes;
        const double region = static_cast<double>(detail::frame_region::max_bytes) - os::huge_page -
                              double(detail::frame_region::granule) -
                              (threads_ - 1) * double(32 << 20) -
                              (detail::frame_region::max_bytes / (32 << 20) + 16) * detail::probed_frame_bytes;
        if (frames > region) {
            char msg[300];
            std::snprintf(msg, sizeof msg,
                          "N=%llu needs %.1f GiB of frames (%.0f bytes each), more than the 32 GiB their region spans "
                          "(32-bit links in 8-byte steps): at most %.0f",
                          static_cast<unsigned long long>(n_), frames / (1 << 30), detail::probed_frame_bytes,
                          std::floor(region / detail::probed_frame_bytes));
            usage_error(msg);
        }
        const double need = guard::need(double(n_), resident_bytes_per_task, threads_, timer_ms);
        if (const os::memory_room have = os::available_memory(); need > have.bytes) {
            char msg[900];
            std::snprintf(msg, sizeof msg,
                          "N=%llu needs about %.2f GiB resident with all N alive at once (%.0f bytes a task, %.2f %% "
                          "more for page tables and the owner table, and %.1f MiB besides), more than the %.2f GiB %s: "
                          "at most %llu fit",
                          static_cast<unsigned long long>(n_), need / (1 << 30), resident_bytes_per_task,
                          (guard::per_frame_byte - 1) * 100,
                          (need - double(n_) * resident_bytes_per_task * guard::per_frame_byte) / (1 << 20),
                          have.bytes / (1 << 30),
                          have.bound.c_str(),
                          static_cast<unsigned long long>(guard::most(have.bytes, resident_bytes_per_task, threads_,
                                                                      timer_ms)));
            usage_error(msg);
        }
    }

private:
    friend class report;  // reads N and the options' echo
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

    void echo(std::string key, const std::string& value) {  // the name without its leading --
        std::replace(key.begin(), key.end(), '-', '_');
        params_ += ' ' + key + '=' + value;
    }

    static std::uint64_t parse(const std::string& name, const std::string& text, std::uint64_t min, std::uint64_t max) {
        const std::string allowed = "a whole number " + (max == UINT64_MAX ? ">= " + std::to_string(min)
                                                                           : "from " + std::to_string(min) + " to " + std::to_string(max));
        if (text.empty() || text.find_first_not_of("0123456789") != text.npos)
            usage_error(name + " must be " + allowed + " (got '" + text + "')");
        std::uint64_t v = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), v).ec == std::errc::result_out_of_range || v > max)
            usage_error(name + " is too large: " + text + " (allowed: " + allowed + ")");
        if (v < min) usage_error(name + " is too small: " + text + " (allowed: " + allowed + ")");
        return v;
    }

    int argc_;
    char** argv_;
    bool used_[max_args] = {};
    std::uint64_t n_ = 0;
    unsigned threads_ = 1;
    std::string params_;
};

// Metrics. A report starts a sampler thread (resident set every 100 ms, for rss_avg), records
// rss_base just before the first task, rss_wait once all tasks are suspended, and prints the one
// summary line: key=value pairs, starting with scenario=, then N and the options the cli read.

using detail::clock_type;

inline double ms_since(clock_type::time_point t) {
    return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

class report {
public:
    report(const char* scenario, const cli& args, const char* tasks = "tasks")
        : n_{args.n_}, scenario_{scenario}, tasks_{tasks} {
        line_ = "scenario=" + std::string(scenario) + " n=" + std::to_string(n_) + args.params_;
        sampler_ = std::thread([this] { sample_every_100ms(); });
    }
    ~report() { stop_sampler(); }

    // A scenario's own result, printed after the measurements.
    template <class T> void result(const char* key, const T& value) {
        if constexpr (std::is_arithmetic_v<T>) add(results_, key, std::to_string(value));
        else add(results_, key, value);
    }
    void result(const char* key, double value, int decimals) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
        add(results_, key, buf);
    }

    // The milestones of a run, each with a progress line on stderr.
    void start() {
        std::fprintf(stderr, "%s: spawning %llu %s\n", scenario_, static_cast<unsigned long long>(n_), tasks_);
        rss_base_ = os::rss_kib();
        start_ = clock_type::now();
    }
    void spawned() { spawn_ms_ = ms_since(start_); }
    void waiting() {
        waiting_ms_ = ms_since(start_);
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
        for (auto [key, v] : {std::pair{"spawn_ms", spawn_ms_}, {"waiting_ms", waiting_ms_}, {"wall_ms", wall_ms_}})
            add(out, key, std::to_string(std::llround(v)));
        add(out, "rss_base_kib", std::to_string(rss_base_));
        add(out, "rss_wait_kib", std::to_string(rss_wait_));
        add(out, "rss_avg_kib", std::to_string(samples_ ? std::llround(static_cast<double>(rss_sum_) / samples_) : rss_wait_));
        // The kernel's high-water mark can trail an exact VmRSS reading by a few hundred KiB (it is
        // kept from per-CPU approximate counters), so the peak is at least every reading we took.
        add(out, "rss_peak_kib", std::to_string(std::max({os::peak_rss_kib(), rss_base_, rss_wait_, rss_max_})));
        add(out, "bytes_per_task", fixed1(static_cast<double>(rss_wait_ - rss_base_) * 1024 / static_cast<double>(n_)));
        if (frame_bytes >= 0) add(out, "frame_bytes", fixed1(frame_bytes));
        std::printf("%s%s\n", out.c_str(), results_.c_str());
        std::fflush(stdout);
    }

private:
    static void add(std::string& line, const char* key, const std::string& value) {
        line += ' ' + std::string(key) + '=' + value;
    }
    static std::string fixed1(double v) {  // "12.0" prints as 12: whole figures stay whole
        char buf[32];
        std::snprintf(buf, sizeof buf, v == std::round(v) ? "%.0f" : "%.1f", v);
        return buf;
    }

    void sample_every_100ms() {
        std::unique_lock lock(mutex_);
        while (!cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
            const long rss = os::rss_kib();
            rss_sum_ += rss;
            rss_max_ = std::max(rss_max_, rss);
            ++samples_;
        }
    }
    void stop_sampler() {
        std::unique_lock lock(mutex_);
        stop_ = true;
        lock.unlock();
        cv_.notify_one();
        if (sampler_.joinable()) sampler_.join();
    }

    std::uint64_t n_;
    const char *scenario_, *tasks_;
    std::string line_, results_;
    clock_type::time_point start_ = clock_type::now();
    double spawn_ms_ = 0, waiting_ms_ = 0, wall_ms_ = 0;
    long rss_base_ = 0, rss_wait_ = 0, rss_max_ = 0, samples_ = 0;
    long long rss_sum_ = 0;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;
    std::thread sampler_;
};

// After the run: exit 1 unless every frame was freed (a task lost, or a frame leaked).
inline void check_frames_freed() {
    const std::int64_t live = detail::frames().live;
    check(live == 0, std::to_string(live) + " frames never freed");
}
// Frame bytes per task: every frame the run allocated, whole size classes, over n.
inline double frame_bytes_per_task(std::uint64_t n) {
    return static_cast<double>(detail::frames().bytes) / static_cast<double>(n);
}
}  // namespace bench
