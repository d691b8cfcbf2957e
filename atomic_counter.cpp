// atomic_counter.cpp: the scoreboard test. N coroutines loop { hits++; sleep 1 s } until a monitor,
// polling every 100 ms, sees H hits; then the run stops and every task is destroyed and freed.
// Run:    ./atomic_counter 1000000 [--hits H] [--mode loop|once] [--spawn-from main|task] [--burst K] [--threads T]
// Prints: one line of key=value pairs, with hits= and hits_per_s= (see README.md)
#include "common.hpp"

using bench::job;
using bench::runtime;
using std::chrono::milliseconds;
using counter = std::atomic<std::uint64_t>;

job looper(counter& hits, milliseconds d) {
    for (;;) {
        hits.fetch_add(1, std::memory_order_relaxed);
        co_await d;
    }
}

job once(counter& hits, milliseconds d) {
    co_await d;
    hits.fetch_add(1, std::memory_order_relaxed);
}

job monitor(runtime& rt, const counter& hits, std::uint64_t target) {
    while (hits.load(std::memory_order_relaxed) < target) co_await milliseconds(100);
    rt.stop();
}

// Spawns the n tasks from a coroutine; with burst > 0, pauses 1 s after every burst spawns.
job spawner(runtime& rt, counter& hits, milliseconds d, bool loop, std::uint64_t n, std::uint64_t burst,
             counter& spawned) {
    for (std::uint64_t i = 1; i <= n; ++i) {
        rt.spawn(loop ? looper(hits, d) : once(hits, d));
        spawned.store(i, std::memory_order_relaxed);
        if (burst && i % burst == 0 && i < n) co_await milliseconds(1000);
    }
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::cli cli{argc, argv,
                   "usage: atomic_counter N [--hits H] [--mode loop|once] [--spawn-from main|task] [--burst K]\n"
                   "                        [--threads T] [--sleep-ms MS]\n"
                   "  loop mode (default): N coroutines each loop { counter++; sleep MS (default 1000) };\n"
                   "  a monitor polls the counter every 100 ms and stops the run at H hits (default 10 x N).\n"
                   "  once mode: each task sleeps once, increments once and ends; the run ends at N hits.\n"
                   "  --spawn-from task: a coroutine spawns the N tasks, pausing 1 s after every K (--burst).\n"
                   "  Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const bool loop_mode = cli.choice("--mode", "loop once") == "loop";
    const bool from_task = cli.choice("--spawn-from", "main task") == "task";
    const auto burst = cli.number("--burst", 0, 1, UINT64_MAX);
    const auto hits_target = loop_mode ? cli.number("--hits", n > UINT64_MAX / 10 ? UINT64_MAX : 10 * n, 1, UINT64_MAX) : n;
    const milliseconds sleep{cli.number("--sleep-ms", 1000, 1, 86400000)};  // 0: a busy loop of yields, not sleeps
    const auto threads = static_cast<unsigned>(cli.number("--threads", 1, 1, 1024));
    cli.finish(n, 56);  // resident bytes per task, about: one frame
    if (burst && !from_task) bench::usage_error("--burst needs --spawn-from task");

    bench::report report{"atomic_counter", n};
    report.param("threads", threads);
    report.param("sleep_ms", sleep.count());
    report.param("mode", loop_mode ? "loop" : "once");
    report.param("spawn_from", from_task ? "task" : "main");
    report.param("burst", burst);
    counter hits{0}, spawned{0};
    std::uint64_t completed = 0, early = 0;
    {
        runtime rt{threads};
        report.start();
        if (loop_mode) rt.spawn(monitor(rt, hits, hits_target));
        if (from_task) {
            rt.spawn(spawner(rt, hits, sleep, loop_mode, n, burst, spawned));
            rt.run_until([&] { return spawned.load(std::memory_order_relaxed) == n; });
            report.spawned();
        } else {
            for (std::uint64_t i = 0; i < n; ++i) rt.spawn(loop_mode ? looper(hits, sleep) : once(hits, sleep));
            spawned = n;
            report.spawned();
            rt.run_until_idle();
        }
        report.waiting();
        rt.join();
        report.finished();
        completed = rt.completed();
        early = rt.early_wakeups();
    }  // the runtime's end destroys every task still asleep: their timers never fire

    const auto total = hits.load();
    if (loop_mode) {
        bench::check(total >= hits_target, std::to_string(total) + " hits, fewer than the target " + std::to_string(hits_target));
    } else {
        bench::check(total == n, std::to_string(total) + " hits in once mode, expected " + std::to_string(n));
        bench::check(completed == n + from_task, "completed " + std::to_string(completed) + " tasks of " + std::to_string(n));
    }
    bench::check(spawned.load() == n || loop_mode, "spawned " + std::to_string(spawned.load()) + " of " + std::to_string(n));
    bench::check(early == 0, std::to_string(early) + " timers fired early");
    bench::check(bench::live_frames() == 0, std::to_string(bench::live_frames()) + " frames never freed");
    report.result("hits", total);
    report.result("hits_per_s", std::llround(static_cast<double>(total) / (report.wall_ms() / 1000)));
    report.result("completed", loop_mode ? spawned.load() : completed - from_task);
    report.print(static_cast<double>(bench::frame_bytes_allocated()) / n);
}
#endif
