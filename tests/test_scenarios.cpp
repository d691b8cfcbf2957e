// Tests of the scenarios' own pieces: SHA-512 against the FIPS 180-4 examples and sha512sum, the
// version-4 UUID layout, the seeded draws, Welford against a two-pass reference, and both sync
// modes of running_avg and hash_collect run through the runtime, and the anatomy of coro_timer's
// waiting task as common.hpp's table gives it.
#include "catch.hpp"

#define BENCH_NO_MAIN
#include "coro_timer.cpp"
#include "hash_collect.cpp"
#include "running_avg.cpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

using bench::runtime;

namespace {

std::string hex(const digest& d) {
    std::string s;
    for (std::uint8_t b : d) {
        s += "0123456789abcdef"[b >> 4];
        s += "0123456789abcdef"[b & 0xf];
    }
    return s;
}

bool within(double x, double want, double relative) { return std::abs(x - want) <= relative * std::abs(want); }

moments two_pass_of(const std::vector<double>& v) {
    return two_pass(v.size(), [&](std::uint64_t i) { return v[i]; });
}

welford welford_of(const std::vector<double>& v) {
    welford w;
    for (double x : v) w.push(x);
    return w;
}

// Runs n hash_collect tasks on `threads` loops, each run as it is spawned when `eager` (main's
// --start eager), and returns the collected digests, sorted.
std::vector<digest> collected(std::uint64_t seed, std::uint64_t n, bool locked, unsigned threads, bool eager = false) {
    collector c{seed, n};
    c.digests.reserve(n);
    {
        runtime rt{threads};
        if (!locked) rt.spawn(collect(c));
        for (std::uint64_t i = 0; i < n; ++i) {
            rt.spawn(locked ? hash_locked(c, i) : hash_sent(c, i));
            if (eager) rt.run_ready();
        }
        rt.join();
        CHECK(rt.completed() == n);  // the consumer is a helper, not counted
    }
    std::sort(c.digests.begin(), c.digests.end());
    return {c.digests.begin(), c.digests.end()};
}

}  // namespace

TEST_CASE("SHA-512 gives the FIPS 180-4 example digests") {
    CHECK(hex(sha512("")) ==
          "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
    CHECK(hex(sha512("abc")) ==
          "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
    CHECK(hex(sha512("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
          "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445");
    CHECK(hex(sha512("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")) ==
          "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");
    CHECK(hex(sha512(std::string(1000000, 'a'))) ==
          "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b");
}

TEST_CASE("SHA-512 pads messages on both sides of the 112-byte and 128-byte boundaries like sha512sum") {
    // Expected: `head -c LEN /dev/zero | tr '\0' x | sha512sum`. A rest of 112 bytes or more leaves
    // no room for the 16-byte length, so the padding takes a second block.
    const std::pair<std::size_t, const char*> cases[] = {
        {110, "1df3222ffd3842200db19886b55cd3d923cc10181ae38bf090a710def6e0d54c4165f005b0dfdbbc3db3c76c353eb9a59e5582f16d036842d69365b3446b73c1"},
        {111, "9a2a120825c2319867758ec277924f6faa254968bf752046dacdd948d8ad299b10359fd04bfd7d3810b5fa1b16a294236138baff981cbb85248478053ac4d3dd"},
        {112, "a3722b515ef40c910f2419f6e0da8ca51d410114ce6272faae64045f9e9f630e7fa8dd5a3243c9860b899d148c3da4bc0f9e07454542604d030bb55531fe0d5b"},
        {113, "9cc73d4e7aed8932e95198d97ddb3b10a1cdf62d8b251f09136fba58aeffa26251df1d54fa6f8b9dcd0a48eee56222e700e40543a06c162245dbcfdbc04e4bda"},
        {127, "1d5a8893e7b7ed83d485d26f88cfb846f3760279916976fe538e539fc16f7cd19ba3e1c2cd5fda78749a74205755cdf694e8fa90b2bfed8815f406af76c1d7bf"},
        {128, "e2e22f8422b54b06e35c3ea30a383d1de7a8fbc27992923074103117020d8dd7024c3ecf7d6d1a15a6de5a75ff32fb486b9e8ced4c02ffe05822bf2cb734d0e0"},
        {129, "19015483ea99fa74728fd7b13adba6b729cfa4ab7c388573efa2641d2af0577f24dd51acbaeec41a7a11d10f6c4e68a3b90e7b2348c678486a4365c9d9101cdd"},
        {239, "805c40517b44cef414a06c632b4ee9c21d34c85a84c3f9530274db86e2a3e38cb0e54025666b925426bd6860f81538abbfab13011e85767d814a245d232a6044"},
        {240, "3e05caa7e0fddab685e6052bd902c316505180504344d00b1217e1349a532d1d0e5ce4b24d69eea3aca369dc16d8bbdf872b2fe1770e0e1aad22f84e0519bc6c"},
    };
    for (const auto& [length, expected] : cases) {
        INFO("length " << length);
        CHECK(hex(sha512(std::string(length, 'x'))) == expected);
    }
}

TEST_CASE("version-4 UUIDs have the RFC 9562 layout and 100000 draws are all distinct") {
    std::set<std::string> seen;
    std::set<char> variants, digits;
    bool layout_ok = true;
    for (std::uint64_t i = 0; i < 100000; ++i) {
        const std::string u{std::string_view(uuid_v4(20261130, i))};
        bool ok = u.size() == 36 && u[14] == '4' && std::string_view("89ab").find(u[19]) != std::string_view::npos;
        for (std::size_t p = 0; p < u.size(); ++p) {
            const bool dash = p == 8 || p == 13 || p == 18 || p == 23;
            ok = ok && (dash ? u[p] == '-' : std::string_view("0123456789abcdef").find(u[p]) != std::string_view::npos);
        }
        if (!ok && layout_ok) FAIL_CHECK("bad layout: " << u);
        layout_ok = layout_ok && ok;
        variants.insert(u[19]);
        digits.insert(u[0]);
        seen.insert(u);
    }
    CHECK(layout_ok);
    CHECK(seen.size() == 100000);
    CHECK(variants.size() == 4);  // the two bits after the variant are random
    CHECK(digits.size() == 16);
}

TEST_CASE("a task's UUID and value depend only on the seed and its index") {
    CHECK(std::string_view(uuid_v4(7, 123)) == std::string_view(uuid_v4(7, 123)));
    CHECK(std::string_view(uuid_v4(7, 123)) != std::string_view(uuid_v4(8, 123)));
    CHECK(std::string_view(uuid_v4(7, 123)) != std::string_view(uuid_v4(7, 124)));
    CHECK(uniform_100(7, 123) == uniform_100(7, 123));
    CHECK(uniform_100(7, 123) != uniform_100(8, 123));
}

TEST_CASE("seeded draws lie in [0, 100) and have the uniform mean and variance") {
    welford w;
    bool in_range = true;
    for (std::uint64_t i = 0; i < 200000; ++i) {
        const double x = uniform_100(1, i);
        in_range = in_range && x >= 0 && x < 100;
        w.push(x);
    }
    CHECK(in_range);
    CHECK(std::abs(w.mean - 50) < 0.5);                 // 6.5 standard errors of the mean (0.065)
    CHECK(std::abs(w.variance() - 10000.0 / 12) < 10);  // uniform on [0, 100): 833.3
}

TEST_CASE("Welford gives the textbook mean and sample variance of a small set") {
    const welford w = welford_of({2, 4, 4, 4, 5, 5, 7, 9});
    CHECK(w.n == 8);
    CHECK(within(w.mean, 5, 1e-15));
    CHECK(within(w.variance(), 32.0 / 7, 1e-15));
    const moments ref = two_pass_of({2, 4, 4, 4, 5, 5, 7, 9});
    CHECK(within(ref.mean, 5, 1e-15));
    CHECK(within(ref.variance, 32.0 / 7, 1e-15));
}

TEST_CASE("Welford matches the two-pass reference on values with a large offset") {
    // 1e9 + u with u in [0, 1): the naive sum-of-squares formula loses every digit here. A running
    // mean near 1e9 is held only to its last place (1.2e-7), a 4e-7 fraction of the spread, so
    // each step's deviation carries that much error; they partly cancel (8e-9 measured here).
    std::vector<double> v;
    for (std::uint64_t i = 0; i < 100000; ++i) v.push_back(1e9 + uniform_100(3, i) / 100);
    const welford w = welford_of(v);
    const moments ref = two_pass_of(v);
    CHECK(within(w.mean, ref.mean, 1e-13));
    CHECK(within(w.variance(), ref.variance, 1e-7));
    CHECK(within(ref.variance, 1.0 / 12, 0.02));
}

TEST_CASE("Welford matches the two-pass reference when the variance is tiny") {
    std::vector<double> v;
    // Values spread over 1e-8 around 1: the same limit as above, the last place of the mean
    // (2.2e-16) against the spread (5e-9 measured).
    for (std::uint64_t i = 0; i < 100000; ++i) v.push_back(1 + 1e-10 * uniform_100(4, i));
    const welford w = welford_of(v);
    const moments ref = two_pass_of(v);
    CHECK(within(w.mean, ref.mean, 1e-13));
    CHECK(within(w.variance(), ref.variance, 1e-7));
    CHECK(within(ref.variance, 1e-16 / 12, 0.02));
}

TEST_CASE("one value has itself as mean and variance 0, by definition since n - 1 = 0") {
    const welford w = welford_of({42.5});
    CHECK(w.n == 1);
    CHECK(w.mean == 42.5);
    CHECK(w.variance() == 0);
    CHECK(two_pass_of({42.5}).variance == 0);
}

TEST_CASE("identical values have that mean and exactly zero variance") {
    const std::vector<double> v(1000, 1e9 + 0.1);
    const welford w = welford_of(v);  // every deviation from the first mean is exactly 0
    CHECK(w.mean == 1e9 + 0.1);
    CHECK(w.variance() == 0);
    const moments ref = two_pass_of(v);
    CHECK(within(ref.mean, 1e9 + 0.1, 1e-13));  // a plain sum near 1e12 rounds (1.6e-14 here)...
    CHECK(ref.variance == 0);                   // ...and the correction term takes that back
}

TEST_CASE("running_avg gives the two-pass statistics in both sync modes, gated and eager, on one to three loops") {
    const std::uint64_t n = 5000, seed = 99;
    const moments ref = two_pass(n, [](std::uint64_t i) { return uniform_100(seed, i); });
    for (unsigned threads : {1u, 2u, 3u})
        for (bool locked : {true, false})
            for (bool eager : {false, true}) {
                INFO("threads " << threads << (locked ? " mutex" : " channel") << (eager ? " eager" : " gated"));
                averager a{seed, n};
                {
                    runtime rt{threads};
                    if (!locked) rt.spawn(aggregate(a));
                    for (std::uint64_t i = 0; i < n; ++i) {
                        rt.spawn(locked ? draw_locked(a, i) : draw_sent(a, i));
                        if (eager) rt.run_ready();
                    }
                    rt.join();
                    CHECK(rt.completed() == n);  // the consumer is a helper, not counted
                }
                CHECK(a.stats.n == n);
                CHECK(within(a.stats.mean, ref.mean, 1e-12));
                CHECK(within(a.stats.variance(), ref.variance, 1e-12));
            }
}

TEST_CASE("--start eager on one loop runs each task inside its spawn, so the next reuses its frame") {
    const std::uint64_t n = 2000;
    averager a{7, n};
    runtime rt{1};
    bool every_one_ran_at_once = true;
    for (std::uint64_t i = 0; i < n; ++i) {
        rt.spawn(draw_locked(a, i));
        rt.run_ready();
        every_one_ran_at_once = every_one_ran_at_once && a.stats.n == i + 1 && bench::detail::frames().live == 0;
    }
    CHECK(every_one_ran_at_once);
    rt.join();
    CHECK(rt.completed() == n);
}

TEST_CASE("hash_collect collects the same distinct digests in both sync modes, gated and eager, on one to three loops") {
    const std::uint64_t n = 3000, seed = 5;
    std::vector<digest> expected;
    for (std::uint64_t i = 0; i < n; ++i) expected.push_back(sha512(uuid_v4(seed, i)));
    std::sort(expected.begin(), expected.end());
    CHECK(std::adjacent_find(expected.begin(), expected.end()) == expected.end());
    for (unsigned threads : {1u, 2u, 3u})
        for (bool locked : {true, false})
            for (bool eager : {false, true}) {
                INFO("threads " << threads << (locked ? " mutex" : " channel") << (eager ? " eager" : " gated"));
                CHECK(collected(seed, n, locked, threads, eager) == expected);
            }
}

TEST_CASE("hash_collect's radix sort orders keys as std::sort does, duplicates and extremes included") {
    bench::big_vector<std::uint64_t> keys;
    std::uint64_t state = 99;
    for (int i = 0; i < 300000; ++i) keys.push_back(bench::splitmix64(state));
    for (std::uint64_t k : {std::uint64_t{0}, UINT64_MAX, std::uint64_t{0xffff}, std::uint64_t{1} << 48}) keys.push_back(k);
    keys.push_back(keys[1234]);  // a duplicate, which the check must find next to its twin
    std::vector<std::uint64_t> expected(keys.begin(), keys.end());
    std::sort(expected.begin(), expected.end());
    radix_sort(keys);
    CHECK(std::equal(keys.begin(), keys.end(), expected.begin(), expected.end()));
    CHECK(std::adjacent_find(keys.begin(), keys.end()) != keys.end());
}

// common.hpp's table: the frame's two pointers, then the 4-byte promise, 16 bytes in; the whole
// frame 24 bytes with clang 14 and 40 with g++ 12, as built with optimization (a sanitizer or -O0
// lays frames out otherwise, so the sizes are checked in the -O2 builds only). No parameter: the
// sleep is the global sleep_for.
TEST_CASE("a waiting coro_timer task is the frame common.hpp's anatomy says, for this compiler", "[anatomy]") {
    STATIC_REQUIRE(sizeof(job::promise_type) == 4);
    job j = sleeper();
    bench::detail::promise_base& promise = j.release();
    const auto frame = bench::detail::handle_of(promise);
    CHECK(reinterpret_cast<char*>(&promise) - static_cast<char*>(frame.address()) == 16);
    frame.destroy();
#if defined(__OPTIMIZE__) && !defined(BENCH_SANITIZED)
    const double bytes = bench::frame_of([] { return sleeper(); });
#if defined(__clang__)
    CHECK(bytes == 24);
#else
    CHECK(bytes == 40);
#endif
#endif
}
