// coro_shared, Boost.Asio C++20 coroutines: N co_spawned coroutines on one io_context all
// co_await async_wait on ONE steady_timer (armed before them); run returns when all have finished.
// Run:    coro_shared N [SLEEP_MS=5000]      Build: g++ -O2 -std=c++20 -pthread coro_shared.cpp
// Prints: scenario=coro_shared runtime=asio ... sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R ... completed=C;
// exits 1 if C != N. The coroutines only start inside run(), so S is ms from start until a handler
// posted after the co_spawn loop runs, after every coroutine has run to its first co_await; E is
// the completed count (each coroutine's last act) read in that handler. E is 0 by construction
// (the shared timer's expiry is only dispatched by the reactor, queued behind that handler), but
// is measured.
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange without including it
#if defined(__clang__) && !defined(BOOST_ASIO_HAS_CO_AWAIT)
#define BOOST_ASIO_HAS_CO_AWAIT 1  // Boost 1.74 finds C++20 coroutines under g++ only; clang has them too
#define BOOST_ASIO_HAS_STD_COROUTINE 1
#endif
#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using boost::asio::awaitable;
using boost::asio::steady_timer;
using boost::asio::use_awaitable;
using std::chrono::milliseconds;

awaitable<void> waiter(steady_timer& shared, long& completed) {
    co_await shared.async_wait(use_awaitable);  // a timer may have any number of waiters
    ++completed;
}

// N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
static void args(int argc, char** argv, long& n, long& ms) {
    char* end = nullptr;
    n = argc > 1 ? std::strtol(argv[1], &end, 10) : 0;
    bool ok = argc >= 2 && argc <= 3 && *argv[1] && !*end && n >= 1;
    if (ok && argc == 3) ms = std::strtol(argv[2], &end, 10), ok = *argv[2] && !*end && ms >= 0;
    if (!ok) std::fprintf(stderr, "usage: coro_shared N [SLEEP_MS=5000]  (N >= 1)\n"), std::exit(2);
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
    long n = 0, ms = 5000, completed = 0;
    args(argc, argv, n, ms);
    const auto start = std::chrono::steady_clock::now();
    boost::asio::io_context ctx(1);  // concurrency hint 1: one thread runs it, no locking
    steady_timer shared(ctx, milliseconds(ms));
    for (long i = 0; i < n; ++i) boost::asio::co_spawn(ctx, waiter(shared, completed), boost::asio::detached);
    std::chrono::steady_clock::time_point spawned;
    long ended_at_spawn = -1;
    std::string rss_wait = "-";
    boost::asio::post(ctx, [&] { spawned = std::chrono::steady_clock::now(), ended_at_spawn = completed, rss_wait = rss_kib(); });
    ctx.run();
    const auto spawn = std::chrono::round<milliseconds>(spawned - start).count();
    const auto wall = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start).count();
    check(completed == n, "completed " + std::to_string(completed) + " of " + std::to_string(n));
    check(wall >= ms, "the run took less than one sleep");
    std::printf("scenario=coro_shared runtime=asio n=%ld sleep_ms=%ld spawn_ms=%lld ended_at_spawn=%ld "
                "rss_wait_kib=%s wall_ms=%lld completed=%ld\n",
                n, ms, static_cast<long long>(spawn), ended_at_spawn, rss_wait.c_str(), static_cast<long long>(wall), completed);
}
