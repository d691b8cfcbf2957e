// atomic_counter.cpp: the scoreboard test. N coroutines loop { hits++; sleep 1 s } until a monitor,
// polling every 100 ms, sees H hits and raises a stop flag; each task sees it when it next wakes
// and ends, and the run ends when every task has.
// Build:  make atomic_counter, or with common.hpp beside it:
//         g++ -std=c++20 -O2 -pthread atomic_counter.cpp -o atomic_counter
// Run:    ./atomic_counter 1000000 [--hits H] [--mode loop|once] [--spawn-from main|task] [--burst K]
//                          [--sleep-ms 1000] [--threads 1]
// Prints: one line of key=value pairs, with hits= and hits_per_s= (see README.md)
// Tests include this file with BENCH_NO_MAIN defined, to test its pieces without its main().
#include "common.hpp"

using bench::helper;
using bench::job;
using bench::runtime;
using std::chrono::milliseconds;
using counter = std::atomic<std::uint64_t>;

struct scoreboard {
    counter hits{0};
    std::atomic<bool> stop{false};  // raised by the monitor at the target
    double reached_ms = 0;          // when the monitor saw the target, from the first spawn
};

// co_await on a bare duration sleeps because job's promise turns it into a timer (await_transform
// in common.hpp).
job looper(scoreboard& s, milliseconds d) {
    while (!s.stop.load(std::memory_order_relaxed)) {
        s.hits.fetch_add(1, std::memory_order_relaxed);
        co_await d;
    }
}

job once(scoreboard& s, milliseconds d) {
    co_await d;
    s.hits.fetch_add(1, std::memory_order_relaxed);
}

// Helpers: spawned like jobs, but not among the N tasks, so rt.completed() leaves them out.
helper monitor(scoreboard& s, std::uint64_t target, bench::clock_type::time_point start) {
    while (s.hits.load(std::memory_order_relaxed) < target) co_await milliseconds(100);
    s.reached_ms = bench::ms_since(start);
    s.stop.store(true, std::memory_order_relaxed);
}

// Spawns the n tasks from a coroutine; with burst > 0, pauses 1 s after every burst spawns.
helper spawner(runtime& rt, scoreboard& s, milliseconds d, bool loop, std::uint64_t n, std::uint64_t burst,
            counter& spawned) {
    for (std::uint64_t i = 1; i <= n; ++i) {
        rt.spawn(loop ? looper(s, d) : once(s, d));
        spawned.store(i, std::memory_order_relaxed);
        if (burst && i % burst == 0 && i < n) co_await milliseconds(1000);
    }
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: atomic_counter N [--hits H] [--mode loop|once] [--spawn-from main|task] [--burst K]\n"
                   "                        [--sleep-ms MS] [--threads T]\n"
                   "  loop mode (default): N coroutines each loop { counter++; sleep MS (default 1000) };\n"
                   "  a monitor polls the counter every 100 ms and, at H hits (default 10 x N), tells\n"
                   "  every task to end when it next wakes.\n"
                   "  once mode: each task sleeps once, increments once and ends; the run ends at N hits.\n"
                   "  --spawn-from task: a coroutine spawns the N tasks, pausing 1 s after every K (--burst).\n"
                   "  Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const bool loop_mode = cli.choice("--mode", "loop once") == "loop";
    const auto hits_target =
        loop_mode ? cli.number("--hits", n > UINT64_MAX / 10 ? UINT64_MAX : 10 * n, 1, UINT64_MAX, "hits_target") : n;
    const bool from_task = cli.choice("--spawn-from", "main task") == "task";
    const auto burst = cli.number("--burst", 0, 1, UINT64_MAX);  // 0: not given
    // At least 1: with 0 a looping task would yield forever instead of sleeping.
    const milliseconds sleep{cli.number("--sleep-ms", 1000, 1, 86400000)};
    const auto threads = cli.threads();
    scoreboard s;
    cli.finish(bench::frame_of([&] { return loop_mode ? looper(s, sleep) : once(s, sleep); }));  // one frame
    if (burst && !from_task) bench::usage_error("--burst needs --spawn-from task");

    runtime rt{threads};
    bench::report report{"atomic_counter", cli};
    counter spawned{0};
    report.start();
    const auto start = bench::clock_type::now();
    if (loop_mode) rt.spawn(monitor(s, hits_target, start));
    if (from_task) {
        rt.spawn(spawner(rt, s, sleep, loop_mode, n, burst, spawned));
        rt.run_until([&] { return spawned.load(std::memory_order_relaxed) == n; });
    } else {
        for (std::uint64_t i = 0; i < n; ++i) rt.spawn(loop_mode ? looper(s, sleep) : once(s, sleep));
    }
    report.spawned();
    rt.start_all();
    report.waiting();
    rt.join();
    report.finished();

    const auto hits = s.hits.load();
    const auto completed = rt.completed();
    const auto want = loop_mode ? hits_target : n;  // at least the target; exactly n in once mode
    bench::check(loop_mode ? hits >= want : hits == want,
                 std::to_string(hits) + " hits, expected " + (loop_mode ? "at least " : "") + std::to_string(want));
    bench::check(completed == n, "completed " + std::to_string(completed) + " tasks of " + std::to_string(n));
    bench::check(rt.early_wakeups() == 0, std::to_string(rt.early_wakeups()) + " timers fired early");
    report.result("hits", hits);
    // Per second until the target was reached (once mode: until the end), as the scoreboard counts.
    const double counted_ms = loop_mode ? s.reached_ms : report.wall_ms();
    report.result("hits_per_s", std::llround(static_cast<double>(hits) / (counted_ms / 1000)));
    report.result("late_max_ms", rt.late_max_ms(), 2);
    report.result("late_p99_ms", rt.late_p99_ms(), 2);
    report.result("completed", completed);
    bench::check_frames_freed();
    report.print(bench::frame_bytes_per_task(n));
}
#endif
