// running_avg.cpp: N coroutines each push one seeded uniform value into one running mean/variance.
// Build:  make running_avg, or with common.hpp beside it: g++ -std=c++20 -O2 -pthread running_avg.cpp -o running_avg
// Run:    ./running_avg 1000000 [--sync mutex|channel] [--start gated|eager] [--threads 1] [--seed 1]
// Prints: one line of key=value pairs with mean= and variance=; exits 1 if they differ from a two-pass.
// Tests include this file with BENCH_NO_MAIN defined, to test its pieces without its main().
#include "common.hpp"

using bench::channel;
using bench::helper;
using bench::job;

double uniform_100(std::uint64_t seed, std::uint64_t i) noexcept;  // task i's one draw, in [0, 100)

struct welford {  // a running mean and sample variance, one value at a time (below)
    std::uint64_t n = 0;
    double mean = 0, m2 = 0;
    void push(double x) noexcept;
    double variance() const noexcept;
};

// Every task's frame holds one reference to this and its index, nothing more.
struct averager {
    std::uint64_t seed, n;
    bench::mutex mutex{};
    welford stats{};
    channel<double> values{};  // the aggregator stops after n values
    void push_locked(double x) {
        std::lock_guard lock(mutex);
        stats.push(x);
    }
};

// --sync mutex: each task takes the lock for its one push.
job draw_locked(averager& a, std::uint64_t i) {
    a.push_locked(uniform_100(a.seed, i));
    co_return;
}

// --sync channel: each task sends its value to the one aggregator, which owns the statistics and
// counts to n: the channel has no close, which would cost each task a second lock.
job draw_sent(averager& a, std::uint64_t i) {
    a.values.send(uniform_100(a.seed, i));
    co_return;
}
// A helper: spawned like a job, but not among the N tasks, so rt.completed() leaves it out.
helper aggregate(averager& a) {
    bench::big_vector<double> batch;
    while (a.stats.n < a.n) {
        co_await a.values.receive(batch);  // appends each batch
        for (double x : batch) a.stats.push(x);
        batch.clear();  // receive appends
    }
}

// Welford's running mean and variance (Welford 1962; Knuth, TAOCP vol. 2, 4.2.2): one pass, and
// no cancellation between two large sums. variance() is the sample variance (divided by n - 1);
// it is undefined for n = 1, and we define it as 0 there (a single value has no spread).
void welford::push(double x) noexcept {
    ++n;
    const double d = x - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (x - mean);
}
double welford::variance() const noexcept { return n > 1 ? m2 / static_cast<double>(n - 1) : 0; }

// Task i's stream starts from splitmix64 of (seed + i) (common.hpp); its first output is the
// task's one draw: the top 53 bits, scaled to [0, 100). No state is shared, no system call made.
double uniform_100(std::uint64_t seed, std::uint64_t i) noexcept {
    std::uint64_t state = seed + i;
    std::uint64_t stream = bench::splitmix64(state);
    return static_cast<double>(bench::splitmix64(stream) >> 11) * 0x1p-53 * 100;
}

// The reference, over value(0) .. value(n - 1), recomputed rather than stored: the mean, then the
// corrected two-pass variance (Chan, Golub, LeVeque, "Algorithms for computing the sample
// variance", 1983), whose second term takes back the rounding left in the mean. n >= 1.
struct moments {
    double mean, variance;
};
template <class F> moments two_pass(std::uint64_t n, F value) {
    double sum = 0, dev = 0, dev2 = 0;
    for (std::uint64_t i = 0; i < n; ++i) sum += value(i);
    const double mean = sum / static_cast<double>(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        const double d = value(i) - mean;
        dev += d;
        dev2 += d * d;
    }
    return {mean, n > 1 ? (dev2 - dev * dev / static_cast<double>(n)) / static_cast<double>(n - 1) : 0};
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: running_avg N [--sync mutex|channel] [--start gated|eager] [--threads T] [--seed S]\n"
                   "  N coroutines each draw one uniform value in [0, 100) (--seed, default 1) and push it into\n"
                   "  one running mean/variance: under a mutex (default) or through a channel to one\n"
                   "  aggregator. --start gated (default): all N exist before the first runs; eager: each\n"
                   "  runs as it is spawned. Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const bool locked = cli.choice("--sync", "mutex channel") == "mutex";
    const bool eager = cli.choice("--start", "gated eager") == "eager";
    const auto threads = cli.threads();
    // Fixed by default, so that every run checks the same mean and variance.
    const auto seed = cli.number("--seed", 1, 0, UINT64_MAX);
    averager a{seed, n};
    // Resident bytes per task: one frame; with a channel, also its value in the channel's buffer, up
    // to four times over while the buffer grows (the old buffer, the new one twice the size).
    const double queued = locked ? 0 : 4 * sizeof(double);
    cli.finish(bench::frame_of([&] { return locked ? draw_locked(a, 0) : draw_sent(a, 0); }) + queued);

    bench::runtime rt{threads};
    bench::report report{"running_avg", cli};
    report.start();
    if (!locked) rt.spawn(aggregate(a));
    for (std::uint64_t i = 0; i < n; ++i) {
        rt.spawn(locked ? draw_locked(a, i) : draw_sent(a, i));
        if (eager) rt.run_ready();  // it runs now, as each task of the 2023 programs does
    }
    report.spawned();
    // Gated, a spawned task starts only when a loop runs, so every frame exists now and none has
    // run: this is "RSS at wait" (these tasks never wait; each runs to its end once started).
    // Eager, most have already ended.
    report.waiting();
    rt.join();
    report.finished();

    // Welford and the reference differ by rounding only: about 1e-13 relative at N = 1e6.
    const auto ref = two_pass(n, [seed](std::uint64_t i) { return uniform_100(seed, i); });
    const auto near = [](double x, double want) { return std::abs(x - want) <= 1e-9 * std::abs(want); };
    char stats[160];
    std::snprintf(stats, sizeof stats, "mean %.17g, variance %.17g; two-pass: %.17g, %.17g", a.stats.mean,
                  a.stats.variance(), ref.mean, ref.variance);
    const auto completed = rt.completed();
    bench::check(completed == n, "completed " + std::to_string(completed) + " tasks of " + std::to_string(n));
    bench::check(a.stats.n == n, "pushed " + std::to_string(a.stats.n) + " values of " + std::to_string(n));
    bench::check(near(a.stats.mean, ref.mean) && near(a.stats.variance(), ref.variance), stats);
    report.result("mean", a.stats.mean);
    report.result("variance", a.stats.variance());
    report.result("completed", completed);
    bench::check_frames_freed();
    report.print(bench::frame_bytes_per_task(n));
}
#endif
