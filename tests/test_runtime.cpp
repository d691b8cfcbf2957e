// Tests of bench::runtime: several event loops on several threads.
#include "catch.hpp"
#include "common.hpp"

#include <algorithm>
#include <coroutine>
#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

using bench::event;
using bench::runtime;
using bench::job;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

namespace {

job run_once(std::atomic<int>* runs, milliseconds d) {
    co_await d;
    runs->fetch_add(1, std::memory_order_relaxed);
}

job spawn_children(runtime& rt, std::atomic<int>* runs, int n) {
    for (int i = 0; i < n; ++i) rt.spawn(run_once(&runs[i], milliseconds(i % 5)));
    co_return;
}

// The scoreboard's shape: loop until a flag is raised, which each task sees when it next wakes.
job loop_until(const std::atomic<bool>& stop, std::atomic<std::uint64_t>& hits) {
    while (!stop.load(std::memory_order_relaxed)) {
        hits.fetch_add(1, std::memory_order_relaxed);
        co_await milliseconds(2);
    }
}
job raise_at(std::atomic<bool>& stop, const std::atomic<std::uint64_t>& hits, std::uint64_t target) {
    while (hits.load(std::memory_order_relaxed) < target) co_await milliseconds(5);
    stop.store(true, std::memory_order_relaxed);
}

// Records which thread each waiter resumed on.
job wait_on(event& e, std::atomic<int>& woken, std::mutex& m, std::set<std::thread::id>& ids) {
    co_await e;
    woken.fetch_add(1);
    std::lock_guard lock(m);
    ids.insert(std::this_thread::get_id());
}

job set_after(event& e, milliseconds d) {
    co_await d;
    e.set();
}

job burst_spawner(runtime& rt, std::atomic<int>* runs, int n, int burst, steady_clock::time_point* done) {
    for (int i = 1; i <= n; ++i) {
        rt.spawn(run_once(&runs[i - 1], milliseconds(0)));
        if (i % burst == 0 && i < n) co_await milliseconds(1000);
    }
    *done = steady_clock::now();
}

}  // namespace

TEST_CASE("with two loops every task runs exactly once and every frame is freed") {
    const auto frames = bench::detail::frames().live;
    const int n = 20000;
    auto runs = std::make_unique<std::atomic<int>[]>(n);
    {
        runtime rt{2};
        for (int i = 0; i < n; ++i) rt.spawn(run_once(&runs[i], milliseconds(i % 20)));
        rt.start_all();
        rt.join();
        CHECK(rt.completed() == static_cast<std::uint64_t>(n));
        CHECK(rt.early_wakeups() == 0);
    }
    CHECK(std::all_of(runs.get(), runs.get() + n, [](const std::atomic<int>& r) { return r.load() == 1; }));
    CHECK(bench::detail::frames().live == frames);
}

TEST_CASE("tasks spawned from a task on another loop are all counted before join returns") {
    const int n = 10000;
    auto runs = std::make_unique<std::atomic<int>[]>(n);
    runtime rt{3};
    rt.spawn(spawn_children(rt, runs.get(), n));
    rt.join();
    CHECK(rt.completed() == static_cast<std::uint64_t>(n) + 1);
    CHECK(std::all_of(runs.get(), runs.get() + n, [](const std::atomic<int>& r) { return r.load() == 1; }));
}

TEST_CASE("join ends every loop's thread, so the totals read after it are exact and race with nothing") {
    // Under ThreadSanitizer (make tsan) a loop thread still counting after join() is a data race.
    const auto frames = bench::detail::frames().live;
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> hits{0};
    for (unsigned loops : {2u, 3u}) {
        stop = false;
        hits = 0;
        runtime rt{loops};
        rt.spawn(raise_at(stop, hits, 20000));
        for (int i = 0; i < 1000; ++i) rt.spawn(loop_until(stop, hits));
        rt.start_all();
        rt.join();
        CHECK(rt.completed() == 1001);
        CHECK(rt.early_wakeups() == 0);
        CHECK(hits.load() >= 20000);
    }
    CHECK(bench::detail::frames().live == frames);
}

TEST_CASE("start_all on several loops returns while timers due every few ms keep them busy") {
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> hits{0};
    runtime rt{2};
    rt.spawn(raise_at(stop, hits, 400000));
    for (int i = 0; i < 100000; ++i) rt.spawn(loop_until(stop, hits));
    rt.start_all();  // every task has run once: its first hit
    CHECK(hits.load() >= 100000);
    rt.join();
    CHECK(rt.completed() == 100001);
}

TEST_CASE("an event set on one loop wakes the waiters of every loop, each exactly once") {
    std::atomic<int> woken{0};
    std::mutex m;
    std::set<std::thread::id> ids;
    const int n = 3000;
    runtime rt{3};
    event e;
    rt.spawn(set_after(e, milliseconds(20)));  // on loop 0
    for (int i = 0; i < n; ++i) rt.spawn(wait_on(e, woken, m, ids));
    rt.start_all();
    CHECK(woken.load() == 0);
    rt.join();
    CHECK(woken.load() == n);
    CHECK(ids.size() == 3);  // resumed on each loop's own thread
    CHECK(rt.completed() == static_cast<std::uint64_t>(n) + 1);
}

TEST_CASE("a spawner's burst pause is honoured") {
    const int n = 300;
    auto runs = std::make_unique<std::atomic<int>[]>(n);
    steady_clock::time_point done{};
    const auto t0 = steady_clock::now();
    runtime rt{2};
    rt.spawn(burst_spawner(rt, runs.get(), n, 100, &done));
    rt.join();
    CHECK(done - t0 >= milliseconds(2000));  // two pauses of 1 s between three bursts
    CHECK(rt.completed() == static_cast<std::uint64_t>(n) + 1);
}

TEST_CASE("idle loops sleep in their poller instead of spinning") {
    // Four loops and one task that sleeps 300 ms: three loops have nothing to do all along.
    std::atomic<int> runs{0};
    rusage before, after;
    REQUIRE(getrusage(RUSAGE_SELF, &before) == 0);
    const auto t0 = std::chrono::steady_clock::now();
    {
        runtime rt{4};
        rt.spawn(run_once(&runs, milliseconds(300)));
        rt.join();
    }
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(getrusage(RUSAGE_SELF, &after) == 0);
    auto cpu_ms = [](const rusage& r) {
        return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1000.0 + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1000.0;
    };
    CHECK(runs.load() == 1);
    // Three spinning loops would burn three times the wall time (two, on two cores); a loaded
    // machine stretches the wall time, not the CPU time idle loops use.
    CHECK(cpu_ms(after) - cpu_ms(before) < wall_ms / 2);
}

namespace {

job produce(bench::channel<std::uint64_t>& ch, std::uint64_t id) {
    ch.send(id);
    co_return;
}

job consume(bench::channel<std::uint64_t>& ch, std::size_t n, std::vector<std::uint64_t>& got, int& batches) {
    bench::big_vector<std::uint64_t> batch;
    while (got.size() < n) {
        co_await ch.receive(batch);
        ++batches;
        got.insert(got.end(), batch.begin(), batch.end());
        batch.clear();  // receive appends
    }
}

}  // namespace

TEST_CASE("a channel delivers every message exactly once from several loops, in batches") {
    const std::uint64_t n = 50000;
    bench::channel<std::uint64_t> ch;
    std::vector<std::uint64_t> got;
    int batches = 0;
    runtime rt{3};
    rt.spawn(consume(ch, n, got, batches));  // loop 0
    for (std::uint64_t i = 0; i < n; ++i) rt.spawn(produce(ch, i));
    rt.join();
    REQUIRE(got.size() == n);
    std::sort(got.begin(), got.end());
    for (std::uint64_t i = 0; i < n; ++i) REQUIRE(got[i] == i);
    CHECK(batches >= 1);
    CHECK(static_cast<std::uint64_t>(batches) < n / 10);  // one wake-up per batch, not per message
    CHECK(rt.completed() == n + 1);
}

TEST_CASE("a waiting consumer is woken by a send from outside any task, and takes the value once") {
    bench::channel<std::uint64_t> ch;
    std::vector<std::uint64_t> got;
    int batches = 0;
    runtime rt{1};
    rt.spawn(consume(ch, 2, got, batches));
    rt.start_all();  // the consumer waits
    CHECK(got.empty());
    ch.send(7);
    rt.run_until([&] { return got.size() == 1; });
    ch.send(8);
    rt.join();
    CHECK(got == std::vector<std::uint64_t>{7, 8});
    CHECK(batches == 2);
}

TEST_CASE("bench::mutex excludes: two threads add a million times under it and lose none") {
    bench::mutex m;
    std::uint64_t count = 0;  // plain: only the lock protects it (ThreadSanitizer checks)
    auto add = [&] {
        for (int i = 0; i < 500000; ++i) {
            std::lock_guard lock(m);
            ++count;
        }
    };
    std::thread other(add);
    add();
    other.join();
    CHECK(count == 1000000);
    m.lock();
    std::atomic<bool> taken{false};
    std::thread waiter([&] {
        std::lock_guard lock(m);  // held here: waits until the unlock below, past its spinning
        taken = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(taken);
    m.unlock();
    waiter.join();
    CHECK(taken);
}

TEST_CASE("big_vector keeps its elements through growth across the mapped-block threshold") {
    bench::big_vector<std::uint64_t> v;  // 8-byte elements: mapped from 262144 of them on
    for (std::uint64_t i = 0; i < 1000003; ++i) v.push_back(i * 7);
    CHECK(v.capacity() * sizeof(std::uint64_t) >= bench::os::huge_page);
    bool intact = true;
    for (std::uint64_t i = 0; i < v.size(); ++i) intact = intact && v[i] == i * 7;
    CHECK(intact);
    v.resize(10);
    v.shrink_to_fit();  // back under the threshold: from std::allocator again, the mapping released
    CHECK(v.capacity() < 1000);
    CHECK(v[9] == 63);
}

namespace {

// Frames going home: tasks spawned on one loop that end on others, round after round.

// The address of the frame of the coroutine that awaits it, without suspending.
struct own_frame {
    void** at;
    bool await_ready() const noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> h) const noexcept {
        *at = h.address();
        return false;
    }
    void await_resume() const noexcept {}
};

// Counts itself, and counts a frame that the thread that spawned it (SPAWNER's home) did not
// carve: a frame reused by a loop that had only picked it up from another loop's free.
struct round_counts {
    std::atomic<int> ended{0}, foreign{0};
};
job nap_and_count(round_counts& c, const bench::detail::frame_home* spawner) {
    void* frame = nullptr;
    co_await own_frame{&frame};
    if (bench::detail::region.owner_of(frame) != spawner) c.foreign.fetch_add(1, std::memory_order_relaxed);
    co_await milliseconds(1);
    c.ended.fetch_add(1, std::memory_order_relaxed);
}

// Spawns `rounds` rounds of n tasks, round-robin over every loop from this one, each round once
// the last one's tasks have ended; records the carved bytes of every pool after each round.
job spawn_rounds(runtime& rt, int rounds, int n, round_counts& c, std::vector<std::int64_t>& carved) {
    const bench::detail::frame_home* here = &bench::detail::pool.home();
    for (int r = 1; r <= rounds; ++r) {
        for (int i = 0; i < n; ++i) rt.spawn(nap_and_count(c, here));
        while (c.ended.load(std::memory_order_relaxed) < r * n) co_await milliseconds(1);
        carved.push_back(bench::detail::frames().carved);
    }
}

job sleep_for_ms(milliseconds d) { co_await d; }

job spawn_sleepers(runtime& rt, int n, milliseconds d) {
    for (int i = 0; i < n; ++i) rt.spawn(sleep_for_ms(d));
    co_return;
}

job note_home(const bench::detail::frame_home** home) {
    *home = &bench::detail::pool.home();
    co_return;
}

}  // namespace

// Before frames went home, a frame freed on a loop that never allocates stayed on that loop's free
// list, and the spawning loop carved (T - 1) / T of every round afresh: here 40 rounds of 2000 would
// have carved 40000 to 60000 frames. Now every frame a task gets was carved by the loop that
// spawned it, and that loop carves only while frames are on their way home. Which frames can be:
// every loop sends its batches at the end of each round it runs, and a round's tasks first run a
// loop round after the last task of the round before ended there, so only the frames of the round
// before can be on their way, (T - 1) / T of a round. So after the first round the carved bytes
// grow by at most that (the 4 frames of slack: the spawner's own, and the probe frame_of made).
TEST_CASE("frames spawned on one loop and freed on others go home: the carved bytes stop growing", "[frame]") {
    for (unsigned loops : {2u, 4u}) {
        CAPTURE(loops);
        const int n = 2000, rounds = 40;
        round_counts counts;
        const double frame = bench::frame_of([&] { return nap_and_count(counts, nullptr); });
        const auto before = bench::detail::frames();
        std::vector<std::int64_t> carved;
        {
            runtime rt{loops};
            rt.spawn(spawn_rounds(rt, rounds, n, counts, carved));  // on loop 0; its tasks go round-robin
            rt.join();
            CHECK(rt.completed() == static_cast<std::uint64_t>(n) * rounds + 1);
        }
        REQUIRE(carved.size() == static_cast<std::size_t>(rounds));
        CHECK(counts.foreign.load() == 0);
        const double away = static_cast<double>(loops - 1) / loops;  // the share that ends elsewhere
        CHECK(static_cast<double>(carved.back() - carved.front()) <= away * n * frame + 4 * frame);
        CHECK(static_cast<double>(carved.back() - before.carved) <= 2 * n * frame);
        CHECK(bench::detail::frames().live == before.live);
    }
}

// Every loop spawns, every loop frees frames of every other: each sends batches to three owners
// (on routes it may share), interleaved with frames it frees for itself. The carved bytes alone
// could not tell: the old per-thread free lists balanced out here too. What tells is that each
// frame is reused by the loop that carved it.
TEST_CASE("with a spawner on each of 4 loops, every loop's frames come home from every other", "[frame]") {
    const int loops = 4, n = 1000, rounds = 30;
    round_counts counts[loops];
    const double frame = bench::frame_of([&] { return nap_and_count(counts[0], nullptr); });
    const auto before = bench::detail::frames();
    std::vector<std::int64_t> carved[loops];
    {
        runtime rt{loops};
        for (int l = 0; l < loops; ++l) rt.spawn(spawn_rounds(rt, rounds, n, counts[l], carved[l]));  // one per loop
        rt.join();
        CHECK(rt.completed() == static_cast<std::uint64_t>(loops) * n * rounds + loops);
    }
    std::int64_t last = 0;  // the carved bytes of all pools, read by the spawner that finished last
    for (int l = 0; l < loops; ++l) {
        CHECK(counts[l].foreign.load() == 0);
        last = std::max(last, carved[l].back());
    }
    CHECK(static_cast<double>(last - before.carved) <= 2.0 * loops * n * frame);
    CHECK(bench::detail::frames().live == before.live);
}

// Loop 1 spawns tasks that wait on loop 0 and then ends first (end_threads joins it); main then
// destroys loop 0's tasks in ~loop and sends their frames to loop 1's inbox, which outlives its
// thread. Under ASan and TSan (make asan, make tsan) nothing may touch freed memory meanwhile.
TEST_CASE("frames freed after the loop that carved them has ended are sent to its inbox, and nothing breaks", "[frame]") {
    const auto before = bench::detail::frames();
    for (int round = 0; round < 3; ++round) {
        const bench::detail::frame_home* loop1 = nullptr;
        {
            runtime rt{2};
            rt.spawn(sleep_for_ms(milliseconds(0)));  // round-robin from main: loop 0, 1, 0, 1
            rt.spawn(note_home(&loop1));
            rt.spawn(sleep_for_ms(milliseconds(0)));
            rt.spawn(spawn_sleepers(rt, 1000, std::chrono::hours(1)));
            rt.start_all();  // half of the 1000 are loop 0's, in frames carved by loop 1
            CHECK(bench::detail::frames().live == before.live + 1000);
        }  // ~runtime: loop 1 destroys its 500 and ends; main destroys loop 0's 500, loop 1's frames
        REQUIRE(loop1 != nullptr);
        const auto& inbox = loop1->inbox;
        CHECK(std::any_of(std::begin(inbox), std::end(inbox), [](const auto& in) { return in.load() != nullptr; }));
    }
    CHECK(bench::detail::frames().live == before.live);
    // The pools still work: a runtime after them runs and frees its tasks as before.
    round_counts counts;
    std::vector<std::int64_t> carved;
    runtime rt{2};
    rt.spawn(spawn_rounds(rt, 3, 1000, counts, carved));
    rt.join();
    CHECK(counts.ended.load() == 3000);
    CHECK(counts.foreign.load() == 0);
    CHECK(bench::detail::frames().live == before.live);
}
