// coro_shared.cpp: N coroutines all wait on one event, which one timer coroutine sets after MS.
// Run:    ./coro_shared 1000000 [--sleep-ms 5000] [--threads 1]
// Prints: one line of key=value pairs (see README.md); exits 1 if a waiter is lost or woke early.
#include "common.hpp"

using bench::event;
using bench::job;
using std::chrono::milliseconds;

job waiter(event& done) { co_await done; }

job setter(event& done, milliseconds d) {
    co_await d;
    done.set();
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::cli cli{argc, argv,
                   "usage: coro_shared N [--sleep-ms MS] [--threads T]\n"
                   "  N coroutines wait on one shared event; a timer coroutine sets it after MS\n"
                   "  milliseconds (default 5000). Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const milliseconds sleep{cli.number("--sleep-ms", 5000, 1, 86400000)};  // 0 would set the event before anyone waits
    const auto threads = static_cast<unsigned>(cli.number("--threads", 1, 1, 1024));
    cli.finish(n, 48);  // resident bytes per task, about: one frame

    bench::report report{"coro_shared", n};
    report.param("threads", threads);
    report.param("sleep_ms", sleep.count());
    bench::runtime rt{threads};
    event done;
    report.start();
    rt.spawn(setter(done, sleep));
    for (std::uint64_t i = 0; i < n; ++i) rt.spawn(waiter(done));
    report.spawned();
    rt.run_until_idle();
    report.waiting();
    bench::check(!done.is_set(), "the event was set before every waiter was suspended");
    rt.join();
    report.finished();

    const auto waiters = rt.completed() - 1;  // the setter is the other one
    bench::check(waiters == n, "completed " + std::to_string(waiters) + " of " + std::to_string(n));
    bench::check(rt.early_wakeups() == 0, "the timer fired early");
    bench::check(report.wall_ms() >= static_cast<double>(sleep.count()), "the run took less than one sleep");
    bench::check(bench::live_frames() == 0, std::to_string(bench::live_frames()) + " frames never freed");
    report.result("completed", waiters);
    report.print(static_cast<double>(bench::frame_bytes_allocated()) / n);
}
#endif
