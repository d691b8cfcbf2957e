// atomic_counter.cpp: the scoreboard test. N coroutines loop { hits++; sleep 1 s } until a monitor,
// polling every 100 ms, sees H hits and raises a stop flag; each task sees it when it next wakes
// and ends, and the run ends when every task has. --mode once: each task sleeps once, increments
// once and ends, and the run ends when the monitor has seen N hits (the 2022 follow-up's tables).
// Build:  make atomic_counter, or with common.hpp beside it:
//         g++ -std=c++20 -O2 -pthread atomic_counter.cpp -o atomic_counter
// Run:    ./atomic_counter 1000000 [--hits H] [--mode loop|once] [--poll-ms 100] [--spawn-from main|task]
//                          [--burst K] [--burst-pause-ms 1000] [--sleep-ms 1000] [--threads 1]
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

// The one scoreboard, and how long each task sleeps (set by main() before the first spawn).
// Globals, not parameters: a parameter is copied into each of the N frames (the anatomy in
// common.hpp).
scoreboard board;
milliseconds sleep_for{1000};

// co_await on a bare duration sleeps because job's promise turns it into a timer (await_transform
// in common.hpp).
job looper() {
    while (!board.stop.load(std::memory_order_relaxed)) {
        board.hits.fetch_add(1, std::memory_order_relaxed);
        co_await sleep_for;
    }
}

job once() {
    co_await sleep_for;
    board.hits.fetch_add(1, std::memory_order_relaxed);
}

// Helpers: spawned like jobs, but not among the N tasks, so rt.completed() leaves them out.
// The monitor reads the counter every poll; at the target it raises the stop flag (loop mode) and ends.
helper monitor(std::uint64_t target, milliseconds poll, bench::clock_type::time_point start) {
    while (board.hits.load(std::memory_order_relaxed) < target) co_await poll;
    board.reached_ms = bench::ms_since(start);
    board.stop.store(true, std::memory_order_relaxed);
}

// Spawns the n tasks from a coroutine; with burst > 0, pauses after every burst spawns but the last.
helper spawner(runtime& rt, bool loop, std::uint64_t n, std::uint64_t burst, milliseconds pause, counter& spawned) {
    for (std::uint64_t i = 1; i <= n; ++i) {
        rt.spawn(loop ? looper() : once());
        spawned.store(i, std::memory_order_relaxed);
        if (burst && i % burst == 0 && i < n) co_await pause;
    }
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: atomic_counter N [--hits H] [--mode loop|once] [--poll-ms P] [--spawn-from main|task]\n"
                   "                        [--burst K] [--burst-pause-ms P] [--sleep-ms MS] [--threads T]\n"
                   "  loop mode (default): N coroutines each loop { counter++; sleep MS (default 1000) };\n"
                   "  a monitor polls the counter every P ms (default 100) and, at H hits (default 10 x N),\n"
                   "  tells every task to end when it next wakes.\n"
                   "  once mode: each task sleeps once, increments once and ends; the run ends when the\n"
                   "  monitor sees N hits (--hits does not apply).\n"
                   "  --spawn-from task: a coroutine spawns the N tasks, pausing P ms (--burst-pause-ms,\n"
                   "  default 1000) after every K (--burst). Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const bool loop_mode = cli.choice("--mode", "loop once") == "loop";
    // Read in once mode too, so that it can be refused by name there (0: not given).
    const auto hits_arg = cli.number("--hits", loop_mode ? (n > UINT64_MAX / 10 ? UINT64_MAX : 10 * n) : 0, 1,
                                     UINT64_MAX, "hits_target");
    const auto hits_target = loop_mode ? hits_arg : n;
    const milliseconds poll{cli.number("--poll-ms", 100, 1, 86400000)};
    const bool from_task = cli.choice("--spawn-from", "main task") == "task";
    const auto burst = cli.number("--burst", 0, 1, UINT64_MAX);  // 0: not given
    // Without --burst, read only to be refused (UINT64_MAX: not given).
    const auto pause_arg = cli.number("--burst-pause-ms", burst ? 1000 : UINT64_MAX, 0, 86400000);
    const milliseconds pause{burst ? pause_arg : 0};
    // At least 1: with 0 a looping task would yield forever instead of sleeping.
    sleep_for = milliseconds{cli.number("--sleep-ms", 1000, 1, 86400000)};
    const auto threads = cli.threads();
    // One frame a task; its sleeps, the monitor's polls and the pauses span at most the longest + 1 ms.
    cli.finish(bench::frame_of([&] { return loop_mode ? looper() : once(); }),
               double(std::max({sleep_for, poll, pause}).count() + 1));
    if (!loop_mode && hits_arg) bench::usage_error("--hits applies to --mode loop only (once mode ends at N hits)");
    if (burst && !from_task) bench::usage_error("--burst needs --spawn-from task");
    if (!burst && pause_arg != UINT64_MAX) bench::usage_error("--burst-pause-ms needs --burst");

    runtime rt{threads};
    bench::report report{"atomic_counter", cli};
    counter spawned{0};
    report.start();
    const auto start = bench::clock_type::now();
    rt.spawn(monitor(hits_target, poll, start));
    if (from_task) {
        rt.spawn(spawner(rt, loop_mode, n, burst, pause, spawned));
        rt.run_until([&] { return spawned.load(std::memory_order_relaxed) == n; });
    } else {
        for (std::uint64_t i = 0; i < n; ++i) rt.spawn(loop_mode ? looper() : once());
    }
    report.spawned();
    rt.start_all();
    report.waiting();
    rt.join();
    report.finished();

    const auto hits = board.hits.load();
    const auto completed = rt.completed();
    // At least the target; exactly n in once mode.
    bench::check(loop_mode ? hits >= hits_target : hits == n,
                 std::to_string(hits) + " hits, expected " + (loop_mode ? "at least " : "") + std::to_string(hits_target));
    bench::check(completed == n, "completed " + std::to_string(completed) + " tasks of " + std::to_string(n));
    bench::check(rt.early_wakeups() == 0, std::to_string(rt.early_wakeups()) + " timers fired early");
    report.result("hits", hits);
    // Per second until the monitor saw the target, as the scoreboard counts.
    report.result("reached_ms", std::llround(board.reached_ms));
    report.result("hits_per_s", std::llround(static_cast<double>(hits) / (board.reached_ms / 1000)));
    report.result("late_max_ms", rt.late_max_ms(), 2);
    report.result("late_p99_ms", rt.late_p99_ms(), 2);
    report.result("completed", completed);
    bench::check_frames_freed();
    report.print(bench::frame_bytes_per_task(n));
}
#endif
