// coro_timer.cpp: N coroutines, each sleeps on its own timer, on one epoll/kqueue event loop.
// Build:  make coro_timer, or with common.hpp beside it: g++ -std=c++20 -O2 -pthread coro_timer.cpp -o coro_timer
// Run:    ./coro_timer 1000000 [--sleep-ms 5000] [--jitter-ms 0] [--threads 1]
// Prints: one line of key=value pairs (see README.md); exits 1 if a task is lost or woke early.
// Tests include this file with BENCH_NO_MAIN defined, to test its pieces without its main().
#include "common.hpp"

using bench::job;
using std::chrono::milliseconds;

// How long every task sleeps, set by main() before the first spawn. A global, not a parameter: a
// parameter is copied into each of the N frames (the anatomy in common.hpp).
milliseconds sleep_for{5000};

// co_await on a bare duration sleeps because job's promise turns it into a timer (await_transform in
// common.hpp); pasted into another runtime, write that runtime's sleep instead.
job sleeper() { co_await sleep_for; }

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: coro_timer N [--sleep-ms MS] [--jitter-ms J] [--threads T]\n"
                   "  N coroutines each sleep MS milliseconds (default 5000) on their own timer;\n"
                   "  with --jitter-ms J, each sleep is drawn uniformly from [MS, MS + J].\n"
                   "  Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    sleep_for = milliseconds{cli.number("--sleep-ms", 5000, 0, 86400000)};
    const milliseconds jitter{cli.number("--jitter-ms", 0, 0, 86400000)};
    const auto threads = cli.threads();
    // Resident bytes per task: one frame; a loop's pending deadlines span at most MS + J + 1 ms.
    cli.finish(bench::frame_of([] { return sleeper(); }), double(sleep_for.count() + jitter.count() + 1));

    // Each sleep drawn from [MS, MS + J] when its task files it, from a fixed seed: no frame holds it.
    bench::runtime rt{threads, jitter, 20261130};
    bench::report report{"coro_timer", cli};
    report.start();
    for (std::uint64_t i = 0; i < n; ++i) rt.spawn(sleeper());
    report.spawned();
    rt.start_all();
    const auto ended_at_spawn = rt.completed();  // every task exists and waits: how many had ended
    report.waiting();
    rt.join();
    report.finished();

    bench::check(rt.completed() == n, "completed " + std::to_string(rt.completed()) + " of " + std::to_string(n));
    bench::check(rt.early_wakeups() == 0, std::to_string(rt.early_wakeups()) + " timers fired early");
    bench::check(report.wall_ms() >= static_cast<double>(sleep_for.count()), "the run took less than one sleep");
    report.result("late_max_ms", rt.late_max_ms(), 2);
    report.result("late_p99_ms", rt.late_p99_ms(), 2);
    report.result("ended_at_spawn", ended_at_spawn);
    report.result("completed", rt.completed());
    bench::check_frames_freed();
    report.print(bench::frame_bytes_per_task(n));
}
#endif
