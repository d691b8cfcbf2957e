// Tests of common.hpp's runtime: the timer wheel, task<T>, spawn and join, event, shutdown.
#include "catch.hpp"
#include "common.hpp"

#include <pthread.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

using bench::event;
using bench::job;
using bench::promise_base;
using bench::task;
using bench::task_list;
using bench::timer_wheel;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

namespace {

// Timer nodes without coroutines: the wheel only links promise_base objects. Links are indexes
// into the frame region, so the nodes come from the frame pool, 8 bytes apart like frames.
struct nodes {
    static constexpr std::size_t stride = 8;
    explicit nodes(std::size_t n) : mem(static_cast<char*>(promise_base::operator new(n * stride))), count(n) {
        for (std::size_t i = 0; i < n; ++i) ::new (mem + i * stride) promise_base;
    }
    ~nodes() { promise_base::operator delete(mem, count * stride); }
    nodes(const nodes&) = delete;
    nodes& operator=(const nodes&) = delete;
    promise_base& operator[](std::size_t i) const { return *reinterpret_cast<promise_base*>(mem + i * stride); }
    std::size_t index(const promise_base* p) const {
        return static_cast<std::size_t>(reinterpret_cast<const char*>(p) - mem) / stride;
    }
    char* mem;
    std::size_t count;
};

std::vector<std::size_t> drain(task_list& due, const nodes& ns) {
    std::vector<std::size_t> out;
    while (!due.empty()) out.push_back(ns.index(due.pop()));
    return out;
}

}  // namespace

TEST_CASE("timers with equal deadlines resume in FIFO order") {
    timer_wheel wheel{1000};
    nodes ns{100};
    task_list due;
    for (std::size_t i = 0; i < ns.count; ++i) {
        wheel.add(ns[i], 1000 + 70000, due);  // two levels up: cascaded twice before it fires
    }
    CHECK(wheel.buckets() == 1);
    CHECK(wheel.pending() == ns.count);
    CHECK(wheel.expire(1000 + 69999, due) == 0);
    CHECK(due.empty());
    CHECK(wheel.expire(1000 + 70000, due) == 0);
    std::vector<std::size_t> expected(ns.count);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(drain(due, ns) == expected);
    CHECK(wheel.next_tick() == -1);
}

TEST_CASE("equal deadlines filed before and after a cascade still fire in FIFO order") {
    timer_wheel wheel{0};
    nodes ns{4};
    task_list due;
    const std::int64_t t = 3 * 256 + 7;
    for (std::size_t i = 0; i < 2; ++i) {  // filed at tick 0: level 1
        wheel.add(ns[i], t, due);
    }
    wheel.expire(3 * 256 - 1, due);  // just before the level-1 slot of t starts
    for (std::size_t i = 2; i < 4; ++i) {  // filed at tick 3*256: level 0, after the cascade
        wheel.add(ns[i], t, due);
    }
    CHECK(due.empty());
    wheel.expire(t, due);
    CHECK(drain(due, ns) == std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("100000 random deadlines of every magnitude fire once each, in deadline order, never early") {
    const std::uint32_t seed = 20261130;
    INFO("seed " << seed);
    std::mt19937_64 rng{seed};
    const std::int64_t start = 123456789;
    timer_wheel wheel{start};
    nodes ns{100000};
    task_list due;
    std::vector<std::int64_t> deadline(ns.count);
    std::vector<int> fired(ns.count, 0);
    std::int64_t now = start;
    std::int64_t last = -1;
    std::size_t last_index = 0;
    std::size_t filed = 0;
    while (filed < ns.count || wheel.next_tick() >= 0) {
        // File a few timers: equal, past, zero-length, near, far and very far deadlines.
        for (int k = 0; k < 50 && filed < ns.count; ++k, ++filed) {
            std::int64_t d;
            switch (rng() % 6) {
                case 0: d = 0; break;
                case 1: d = -static_cast<std::int64_t>(rng() % 1000); break;  // already past
                case 2: d = 500; break;                                        // many equal
                case 3: d = static_cast<std::int64_t>(rng() % 300); break;
                case 4: d = static_cast<std::int64_t>(rng() % 100000); break;
                default: d = static_cast<std::int64_t>(rng() % (std::int64_t{1} << 36)); break;
            }
            deadline[filed] = now + d;
            wheel.add(ns[filed], deadline[filed], due);
        }
        // Advance by a small step or jump to the next event, whichever the dice say.
        std::int64_t next = wheel.next_tick();
        now = (rng() % 2 || next < 0) ? now + static_cast<std::int64_t>(rng() % 50) : std::max(now, next);
        REQUIRE(wheel.expire(now, due) == 0);
        while (!due.empty()) {
            std::size_t i = ns.index(due.pop());
            ++fired[i];
            REQUIRE(deadline[i] <= now);  // never early
            // Deadline order, FIFO among equals; a timer filed after its deadline passed fires at
            // once, so it can only be checked for not being early.
            if (deadline[i] >= last) {
                if (deadline[i] == last) REQUIRE(i > last_index);
                last = deadline[i];
                last_index = i;
            } else {
                REQUIRE(deadline[i] <= now);
            }
        }
    }
    CHECK(std::all_of(fired.begin(), fired.end(), [](int f) { return f == 1; }));
    CHECK(wheel.buckets() == 0);
}

TEST_CASE("thousands of shuffled random sleeps resume in deadline order and none early") {
    bench::loop loop;
    const int n = 3000;
    std::vector<int> ms(n);
    for (int i = 0; i < n; ++i) ms[i] = (i * 37) % 300;  // 0..299 ms, many equal
    std::mt19937 rng{7};
    std::shuffle(ms.begin(), ms.end(), rng);

    struct woke {
        int ms;
        double started, ended;
    };
    std::vector<woke> order;
    const auto t0 = steady_clock::now();
    auto since = [&] { return std::chrono::duration<double, std::milli>(steady_clock::now() - t0).count(); };
    auto sleeper = [&](int d) -> task<> {
        double started = since();
        co_await milliseconds(d);
        order.push_back({d, started, since()});
    };
    for (int d : ms) loop.spawn(sleeper(d));
    loop.join();

    REQUIRE(order.size() == static_cast<std::size_t>(n));
    CHECK(loop.early_wakeups() == 0);
    for (const auto& w : order) REQUIRE(w.ended - w.started >= w.ms);
    // All started within a few ms of each other, so sleeps that differ by more than the clock's
    // granularity (a 1 ms tick, with scheduling noise well under 10 ms) must end in order.
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < std::min(order.size(), i + 200); ++j)
            REQUIRE(order[j].ms > order[i].ms - 10);
}

namespace {

task<int> answer() { co_return 42; }

task<int> thrower() {
    throw std::runtime_error("boom");
    co_return 0;
}

task<int> depth(int n) {
    if (n == 0) co_return 0;
    co_return 1 + co_await depth(n - 1);
}

task<> set_flag(bool& flag) {
    flag = true;
    co_return;
}

// Named coroutines rather than lambdas: g++ 12 copies an awaited lvalue that a lambda coroutine
// captured by reference, and event is not copyable.
task<> wait_and_record(event& e, std::vector<int>& order, int i) {
    co_await e;
    order.push_back(i);
}

task<> wait_twice(event& e, bool& done) {
    co_await e;
    co_await e;
    done = true;
}

task<> wait_forever(event& e) { co_await e; }

job sleep_then_flag(milliseconds d, bool& fired) {
    co_await d;
    fired = true;
}

task<> nap_then_flag(milliseconds d, bool& fired) {
    co_await d;
    fired = true;
}

template <class D> job sleep_then_flag_for(D d, bool& fired) {
    co_await d;
    fired = true;
}

job await_nap(milliseconds d, bool& fired) { co_await nap_then_flag(d, fired); }

// A frame of several KiB: its buffer lives across the sleep.
job big_sleeper(milliseconds d, int& sum) {
    volatile char buf[3000];
    for (std::size_t i = 0; i < sizeof buf; ++i) buf[i] = static_cast<char>(i);
    co_await d;
    for (std::size_t i = 0; i < sizeof buf; i += 1000) sum += buf[i];
}

job catch_from(std::string& error) {
    try {
        co_await thrower();
    } catch (const std::runtime_error& e) {
        error = e.what();
    }
}

job record(std::vector<std::string>& log, std::string name, milliseconds pause) {
    log.push_back(name + "1");
    co_await pause;
    log.push_back(name + "2");
}

}  // namespace

TEST_CASE("task<T> returns values and carries exceptions to the awaiter") {
    bench::loop loop;
    int value = 0;
    std::string error;
    auto parent = [&]() -> task<> {
        value = co_await answer();
        try {
            co_await thrower();
        } catch (const std::runtime_error& e) {
            error = e.what();
        }
    };
    const auto frames = bench::live_frames();
    loop.spawn(parent());
    loop.join();
    CHECK(value == 42);
    CHECK(error == "boom");
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("a job's promise is 4 bytes, it runs once when spawned, awaits tasks and frees itself") {
    static_assert(sizeof(job::promise_type) == 4);
    const auto frames = bench::live_frames();
    bench::loop loop;
    std::string error;
    bool fired = false;
    loop.spawn(catch_from(error));
    loop.spawn(await_nap(milliseconds(2), fired));
    CHECK(bench::live_frames() >= frames + 2);
    loop.join();
    CHECK(error == "boom");
    CHECK(fired);
    CHECK(loop.completed() == 2);
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("frames larger than 512 bytes come from the frame region too: they queue, sleep and are reused") {
    const auto frames = bench::live_frames();
    bench::loop loop;
    int sum = 0;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 100; ++i) loop.spawn(big_sleeper(milliseconds(i % 3), sum));
        loop.join();
    }
    CHECK(sum == 300 * (0 + static_cast<char>(1000) + static_cast<char>(2000)));
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("co_await of a zero or negative duration yields to the tasks already ready") {
    bench::loop loop;
    std::vector<std::string> log;
    loop.spawn(record(log, "a", milliseconds(0)));
    loop.spawn(record(log, "b", milliseconds(-5)));
    loop.spawn(record(log, "c", milliseconds(0)));
    loop.join();
    CHECK(log == std::vector<std::string>{"a1", "b1", "c1", "a2", "b2", "c2"});
    CHECK(loop.early_wakeups() == 0);
}

TEST_CASE("a sleep too long for the tick arithmetic is cut to 2^40 ms, not wrapped into the past") {
    bool fired = false;
    {
        bench::loop loop;
        loop.spawn(sleep_then_flag_for(std::chrono::hours::max(), fired));
        loop.spawn(sleep_then_flag_for(std::chrono::duration<double>(1e300), fired));
        loop.run_until_idle();
        CHECK(loop.live() == 2);
    }
    CHECK_FALSE(fired);
}

TEST_CASE("a task never awaited never starts and is freed") {
    const auto frames = bench::live_frames();
    bool started = false;
    {
        // Kept in a vector so that clang cannot elide the frame's allocation (it may when a task
        // is created and destroyed in one function: then there is nothing to count or free).
        std::vector<task<>> tasks;
        tasks.push_back(set_flag(started));
        CHECK(bench::live_frames() == frames + 1);
    }
    CHECK_FALSE(started);
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("a chain of 100000 synchronously completing awaits runs on a 256 KiB stack") {
    // Without symmetric transfer each await would nest a resume() on the stack: 100000 of them
    // need megabytes. (g++ makes the transfer a tail call only with optimization: see STYLE.md.)
    struct run {
        int result = -1;
        static void* body(void* self) {
            bench::loop loop;
            auto* r = static_cast<run*>(self);
            auto top = [](int& out) -> task<> { out = co_await depth(100000); };
            loop.spawn(top(r->result));
            loop.join();
            return nullptr;
        }
    } r;
    pthread_attr_t attr;
    REQUIRE(pthread_attr_init(&attr) == 0);
    REQUIRE(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
    pthread_t thread;
    REQUIRE(pthread_create(&thread, &attr, &run::body, &r) == 0);
    REQUIRE(pthread_join(thread, nullptr) == 0);
    pthread_attr_destroy(&attr);
    CHECK(r.result == 100000);
}

TEST_CASE("spawn and join count every task exactly once and free every frame") {
    const auto frames = bench::live_frames();
    bench::loop loop;
    const int n = 10000;
    std::vector<int> runs(n, 0);
    auto worker = [&](int i) -> task<> {
        if (i % 3 == 0) co_await milliseconds(i % 7);
        ++runs[i];
    };
    for (int i = 0; i < n; ++i) loop.spawn(worker(i));
    CHECK(loop.live() == static_cast<std::uint64_t>(n));
    loop.join();
    CHECK(loop.live() == 0);
    CHECK(loop.completed() == static_cast<std::uint64_t>(n));
    CHECK(std::all_of(runs.begin(), runs.end(), [](int r) { return r == 1; }));
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("an event resumes every waiter exactly once, in arrival order") {
    const auto frames = bench::live_frames();
    bench::loop loop;
    event e;
    const int n = 1000;
    std::vector<int> order;
    auto setter = [&]() -> task<> {
        co_await milliseconds(5);
        e.set();
    };
    for (int i = 0; i < n; ++i) loop.spawn(wait_and_record(e, order, i));
    loop.spawn(setter());
    loop.run_until_idle();
    CHECK(order.empty());
    loop.join();
    std::vector<int> expected(n);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(order == expected);
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("waiting on an event that is already set does not suspend") {
    bench::loop loop;
    event e;
    e.set();
    bool done = false;
    loop.spawn(wait_twice(e, done));
    // One pass of the ready queue: a suspension would need a second.
    loop.run_until_idle();
    CHECK(done);
    CHECK(loop.completed() == 1);
}

TEST_CASE("a shutdown with timers pending fires none of them and frees every frame") {
    const auto frames = bench::live_frames();
    bool fired = false;
    {
        bench::loop loop;
        auto sleeper = [&]() -> task<> {
            co_await milliseconds(60000);
            fired = true;
        };
        auto parent = [&]() -> task<> { co_await sleeper(); };  // an awaited chain, freed from its root
        for (int i = 0; i < 100; ++i) loop.spawn(sleeper());
        for (int i = 0; i < 100; ++i) loop.spawn(parent());
        for (int i = 0; i < 100; ++i) loop.spawn(sleep_then_flag(milliseconds(60000 + i), fired));
        for (int i = 0; i < 100; ++i) loop.spawn(await_nap(milliseconds(60000), fired));  // a job's chain
        loop.run_until_idle();
        // 600 frames, or 400 where clang allocated each awaited child inside its parent's frame.
        CHECK(bench::live_frames() >= frames + 400);
        loop.shutdown();
        CHECK(loop.live() == 0);
        CHECK(loop.completed() == 0);
    }
    CHECK_FALSE(fired);
    CHECK(bench::live_frames() == frames);
}

TEST_CASE("a loop whose tasks can never be resumed reports a deadlock instead of hanging") {
    bench::loop loop;
    event never;
    loop.spawn(wait_forever(never));
    CHECK_THROWS_AS(loop.join(), std::logic_error);
}
