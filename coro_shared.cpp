// coro_shared.cpp: N coroutines all wait on one event, which one timer coroutine sets after MS.
// Build:  make coro_shared, or with common.hpp beside it: g++ -std=c++20 -O2 -pthread coro_shared.cpp -o coro_shared
// Run:    ./coro_shared 1000000 [--sleep-ms 5000] [--threads 1]
// Prints: one line of key=value pairs (see README.md); exits 1 if a waiter is lost or woke early.
// Tests include this file with BENCH_NO_MAIN defined, to test its pieces without its main().
#include "common.hpp"

using bench::event;
using bench::helper;
using bench::job;
using std::chrono::milliseconds;

// The event every task waits on. A global, not a parameter: a reference passed to each task is
// copied into each of the N frames (the anatomy in common.hpp).
event done;

// co_await on an event or a bare duration works because job's and helper's promise turns each into
// a wait (await_transform in common.hpp).
job waiter() { co_await done; }

// A helper: spawned like a job, but not one of the scenario's N tasks, so rt.completed() leaves it out.
helper setter(milliseconds d) {
    co_await d;
    done.set();
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: coro_shared N [--sleep-ms MS] [--threads T]\n"
                   "  N coroutines wait on one shared event; a timer coroutine sets it after MS\n"
                   "  milliseconds (default 5000). Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    // At least 1: with 0 the event would be set before anyone waits.
    const milliseconds sleep{cli.number("--sleep-ms", 5000, 1, 86400000)};
    const auto threads = cli.threads();
    cli.finish(bench::frame_of([] { return waiter(); }), 1);  // resident bytes per task: one frame; one timer

    bench::runtime rt{threads};
    bench::report report{"coro_shared", cli};
    report.start();
    rt.spawn(setter(sleep));  // the first spawn goes to this thread's loop
    for (std::uint64_t i = 0; i < n; ++i) rt.spawn(waiter());
    report.spawned();
    rt.start_all();  // fires no timer here: the setter cannot run before every waiter waits
    const auto ended_at_spawn = rt.completed();  // every task exists and waits: how many had ended
    report.waiting();
    bench::check(!done.is_set(), "the event was set before every waiter was suspended");
    rt.join();
    report.finished();

    const auto completed = rt.completed();
    bench::check(completed == n, "completed " + std::to_string(completed) + " of " + std::to_string(n));
    bench::check(rt.early_wakeups() == 0, "the timer fired early");
    bench::check(report.wall_ms() >= static_cast<double>(sleep.count()), "the run took less than one sleep");
    report.result("late_max_ms", rt.late_max_ms(), 2);  // the setter's: the waiters have no timer
    report.result("late_p99_ms", rt.late_p99_ms(), 2);
    report.result("ended_at_spawn", ended_at_spawn);
    report.result("completed", completed);
    bench::check_frames_freed();
    report.print(bench::frame_bytes_per_task(n));
}
#endif
