// coro_shared, the floor: no coroutine, no runtime. Each task is what a compiler makes of
// `co_await done; ++completed;` once it has split the body at its wait: a state (where to go on)
// and a link in the event's list of waiters. 8 bytes a task; the difference to a coroutine's frame
// is the price of the C++20 coroutine itself. One timer sets the event after SLEEP_MS.
// Run:    coro_shared N [SLEEP_MS=5000]      Build: g++ -O2 -std=c++20 coro_shared.cpp
// Prints: scenario=coro_shared runtime=floor n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R
//         wall_ms=W completed=C; exits 1 if C != N or the event was set early.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <thread>
#include <vector>

using clock_type = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct task {
    std::uint32_t next;   // the next waiter of the event (index + 1; 0: none)
    std::uint32_t state;  // 0: not started, 1: waiting, 2: ended
};
std::vector<task> tasks;  // reserved for N: a task's record is written when it is spawned

// The one event: its waiters, in the order they arrived.
struct event {
    std::uint32_t head = 0, tail = 0;
    bool set = false;
} done;
long completed = 0;

// The task's body, resumed at its state: runs to its next wait, or to its end.
void resume(std::uint32_t i) {
    task& t = tasks[i];
    switch (t.state) {
    case 0:  // co_await done: joins the waiters, unless the event is set already
        t.state = 1;
        if (!done.set) {
            t.next = 0;
            (done.tail ? tasks[done.tail - 1].next : done.head) = i + 1;
            done.tail = i + 1;
            return;
        }
        [[fallthrough]];
    case 1:  // woken: ++completed, and the task ends
        t.state = 2;
        ++completed;
        return;
    }
}

// N (1 to 2^32 - 2: indexes + 1 fit 32 bits) and SLEEP_MS (at most a day) from the command line;
// anything else is a usage error, exit 2.
static void args(int argc, char** argv, long& n, long& ms) {
    char* end = nullptr;
    n = argc > 1 ? std::strtol(argv[1], &end, 10) : 0;
    bool ok = argc >= 2 && argc <= 3 && *argv[1] && !*end && n >= 1 && n < (1L << 32) - 1;
    if (ok && argc == 3) ms = std::strtol(argv[2], &end, 10), ok = *argv[2] && !*end && ms >= 0 && ms <= 86400000;
    if (!ok) std::fprintf(stderr, "usage: coro_shared N [SLEEP_MS=5000]  (1 <= N < 2^32 - 1, SLEEP_MS <= 86400000)\n"), std::exit(2);
}

// The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status (Linux), "-" elsewhere.
static std::string rss_kib() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::to_string(std::strtol(line.c_str() + 6, nullptr, 10));
    return "-";
}

static void check(bool ok, const std::string& what) {
    if (!ok) std::fprintf(stderr, "coro_shared: check failed: %s\n", what.c_str()), std::exit(1);
}

int main(int argc, char** argv) {
    long n = 0, ms = 5000;
    args(argc, argv, n, ms);
    const auto start = clock_type::now();
    try {
        tasks.reserve(static_cast<std::size_t>(n));
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: out of memory: %ld tasks of 8 bytes (std::bad_alloc)\n", "coro_shared", n), std::exit(1);
    }
    for (long i = 0; i < n; ++i) {  // spawn each task and run it to its first wait
        tasks.push_back({0, 0});
        resume(static_cast<std::uint32_t>(i));
    }
    const auto spawn = std::chrono::round<milliseconds>(clock_type::now() - start).count();
    const long ended_at_spawn = completed;
    const std::string rss_wait = rss_kib();
    const auto due = clock_type::now() + milliseconds(ms);  // the timer, filed once all wait (as ours)
    std::this_thread::sleep_until(due);  // the loop, with one timer: set the event, resume every waiter
    check(clock_type::now() >= due, "the timer fired early");
    done.set = true;
    for (std::uint32_t i = done.head; i; i = tasks[i - 1].next) resume(i - 1);
    const auto wall = std::chrono::duration_cast<milliseconds>(clock_type::now() - start).count();
    check(completed == n, "completed " + std::to_string(completed) + " of " + std::to_string(n));
    check(wall >= ms, "the run took less than one sleep");
    std::printf("scenario=coro_shared runtime=floor n=%ld sleep_ms=%ld spawn_ms=%lld ended_at_spawn=%ld "
                "rss_wait_kib=%s wall_ms=%lld completed=%ld\n",
                n, ms, static_cast<long long>(spawn), ended_at_spawn, rss_wait.c_str(), static_cast<long long>(wall), completed);
}
