// hash_collect.cpp: N coroutines each SHA-512 a fresh version-4 UUID and hand the digest to one collector.
// Build:  make hash_collect, or with common.hpp beside it: g++ -std=c++20 -O2 -pthread hash_collect.cpp -o hash_collect
// Run:    ./hash_collect 1000000 [--sync mutex|channel] [--start gated|eager] [--threads 1] [--seed S]
// Prints: one line of key=value pairs (see README.md); exits 1 if a digest is lost, wrong or repeated.
// Tests include this file with BENCH_NO_MAIN defined, to test its pieces without its main().
#include "common.hpp"

#include <array>
#include <numeric>
#include <random>

using bench::channel;
using bench::helper;
using bench::job;
using digest = std::array<std::uint8_t, 64>;

// A version-4 UUID as its 36 characters, and SHA-512 (both written out below the tasks).
struct uuid_text {
    char chars[36];
    operator std::string_view() const noexcept { return {chars, sizeof chars}; }
};
uuid_text uuid_v4(std::uint64_t seed, std::uint64_t i) noexcept;
digest sha512(std::string_view message) noexcept;

// Every task's frame holds one reference to this and its index, nothing more.
struct collector {
    std::uint64_t seed, n;
    bench::mutex mutex{};
    bench::big_vector<digest> digests{};  // reserved to n before the first task runs
    channel<digest> sent{};                // the collector stops after n digests
    void add_locked(const digest& d) {
        std::lock_guard lock(mutex);
        digests.push_back(d);
    }
};

// --sync mutex: each task appends its digest under the lock.
job hash_locked(collector& c, std::uint64_t i) {
    c.add_locked(sha512(uuid_v4(c.seed, i)));
    co_return;
}

// --sync channel: each task sends its digest to the one collector task, which appends them. Each
// sends exactly one, so the collector counts to n (the channel has no close: a second lock each).
job hash_sent(collector& c, std::uint64_t i) {
    c.sent.send(sha512(uuid_v4(c.seed, i)));
    co_return;
}
// A helper: spawned like a job, but not among the N tasks, so rt.completed() leaves it out.
helper collect(collector& c) {
    while (c.digests.size() < c.n) co_await c.sent.receive(c.digests);  // appends each batch
}

// SHA-512 as FIPS 180-4 ("Secure Hash Standard", NIST 2015, section 6.4) defines it, written
// plainly: one 80-word message schedule per 128-byte block. A UUID's 36 bytes are one block.
constexpr std::uint64_t sha512_k[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817};

// One round (FIPS 180-4, 6.4.2 step 3) on the working variables a..h. Instead of moving all eight
// every round, the caller rotates their roles: the old d becomes e, the old h becomes a (25 % faster).
inline void sha512_round(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& d, std::uint64_t e,
                         std::uint64_t f, std::uint64_t g, std::uint64_t& h, std::uint64_t k_plus_w) noexcept {
    using std::rotr;
    const std::uint64_t t1 = h + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) + k_plus_w;
    d += t1;
    h = t1 + (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
}

inline void sha512_block(std::uint64_t h[8], const std::uint8_t* block) noexcept {
    using std::rotr;
    std::uint64_t w[80];
    for (int t = 0; t < 16; ++t) {
        w[t] = 0;
        for (int b = 0; b < 8; ++b) w[t] = w[t] << 8 | block[8 * t + b];  // big-endian words
    }
    for (int t = 16; t < 80; ++t) {
        const std::uint64_t s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ w[t - 15] >> 7;
        const std::uint64_t s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ w[t - 2] >> 6;
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint64_t v[8];
    std::copy(h, h + 8, v);
    for (int t = 0; t < 80; t += 8) {
        sha512_round(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], sha512_k[t] + w[t]);
        sha512_round(v[7], v[0], v[1], v[2], v[3], v[4], v[5], v[6], sha512_k[t + 1] + w[t + 1]);
        sha512_round(v[6], v[7], v[0], v[1], v[2], v[3], v[4], v[5], sha512_k[t + 2] + w[t + 2]);
        sha512_round(v[5], v[6], v[7], v[0], v[1], v[2], v[3], v[4], sha512_k[t + 3] + w[t + 3]);
        sha512_round(v[4], v[5], v[6], v[7], v[0], v[1], v[2], v[3], sha512_k[t + 4] + w[t + 4]);
        sha512_round(v[3], v[4], v[5], v[6], v[7], v[0], v[1], v[2], sha512_k[t + 5] + w[t + 5]);
        sha512_round(v[2], v[3], v[4], v[5], v[6], v[7], v[0], v[1], sha512_k[t + 6] + w[t + 6]);
        sha512_round(v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[0], sha512_k[t + 7] + w[t + 7]);
    }
    for (int i = 0; i < 8; ++i) h[i] += v[i];
}

digest sha512(std::string_view message) noexcept {
    std::uint64_t h[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                          0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
    const auto* data = reinterpret_cast<const std::uint8_t*>(message.data());
    const std::size_t size = message.size(), whole = size / 128 * 128;
    for (std::size_t i = 0; i < whole; i += 128) sha512_block(h, data + i);
    // Padding: the rest, a 1 bit, zeros, and the length in bits as a 128-bit big-endian number:
    // one more block, or two when the rest leaves fewer than 17 bytes (rest >= 112).
    std::uint8_t tail[256] = {};
    const std::size_t rest = size - whole, blocks = rest < 112 ? 1 : 2;
    std::memcpy(tail, data + whole, rest);
    tail[rest] = 0x80;
    const std::uint64_t length[2] = {size >> 61, size << 3};
    for (int i = 0; i < 16; ++i)
        tail[blocks * 128 - 16 + i] = static_cast<std::uint8_t>(length[i / 8] >> (56 - 8 * (i % 8)));
    for (std::size_t i = 0; i < blocks; ++i) sha512_block(h, tail + 128 * i);
    digest out;
    for (int i = 0; i < 64; ++i) out[i] = static_cast<std::uint8_t>(h[i / 8] >> (56 - 8 * (i % 8)));
    return out;
}

// A version-4 UUID (RFC 9562, section 5.4) as its 36 lowercase characters, 8-4-4-4-12: 122 bits
// from task i's stream (splitmix64 of seed + i, common.hpp), version nibble 4, variant bits 10.
uuid_text uuid_v4(std::uint64_t seed, std::uint64_t i) noexcept {
    std::uint64_t state = seed + i;
    std::uint64_t stream = bench::splitmix64(state);
    std::uint64_t high = bench::splitmix64(stream), low = bench::splitmix64(stream);
    high = (high & ~std::uint64_t{0xf000}) | 0x4000;              // octet 6, high nibble: version 4
    low = (low & ~(std::uint64_t{3} << 62)) | std::uint64_t{2} << 62;  // octet 8, top bits: variant 10
    uuid_text u;
    for (int nibble = 0, pos = 0; nibble < 32; ++nibble) {
        if (pos == 8 || pos == 13 || pos == 18 || pos == 23) u.chars[pos++] = '-';
        const std::uint64_t word = nibble < 16 ? high : low;
        u.chars[pos++] = "0123456789abcdef"[word >> (60 - 4 * (nibble % 16)) & 0xf];
    }
    return u;
}

// Least significant digit first, 16 bits at a time: four passes, where std::sort of a million
// keys took 65 ms here, longer than the check may take on a fast run.
void radix_sort(bench::big_vector<std::uint64_t>& keys) {
    bench::big_vector<std::uint64_t> sorted(keys.size());
    std::vector<std::size_t> start(65537);
    for (int shift = 0; shift < 64; shift += 16) {
        std::fill(start.begin(), start.end(), 0);
        for (std::uint64_t k : keys) ++start[(k >> shift & 0xffff) + 1];
        std::partial_sum(start.begin(), start.end(), start.begin());
        for (std::uint64_t k : keys) sorted[start[k >> shift & 0xffff]++] = k;
        keys.swap(sorted);
    }
}

#ifndef BENCH_NO_MAIN
int main(int argc, char** argv) {
    bench::install_handlers(argv[0]);
    bench::cli cli{argc, argv,
                   "usage: hash_collect N [--sync mutex|channel] [--start gated|eager] [--threads T] [--seed S]\n"
                   "  N coroutines each SHA-512 a random version-4 UUID (seeded by S, default from the OS) and\n"
                   "  hand the digest to one collector: a vector under a mutex (default) or a channel to\n"
                   "  one collector task. --start gated (default): all N exist before the first runs;\n"
                   "  eager: each runs as it is spawned. Prints one line of key=value pairs on stdout.\n"};
    const auto n = cli.count();
    const bool locked = cli.choice("--sync", "mutex channel") == "mutex";
    const bool eager = cli.choice("--start", "gated eager") == "eager";
    const auto threads = cli.threads();
    // From the OS by default (asked once per process, never per task), so that every run hashes
    // fresh UUIDs as real ones would be; --seed repeats a run exactly.
    std::random_device os_random;
    const auto seed = cli.number("--seed", std::uint64_t{os_random()} << 32 | os_random(), 0, UINT64_MAX);
    collector c{seed, n};
    // Resident bytes per task: one frame, its digest, and the self-check's prefix and radix-sort
    // buffer entry; with a channel, also the digest's copy in the channel's buffer.
    const double kept = sizeof(digest) + 2 * sizeof(std::uint64_t) + (locked ? 0 : sizeof(digest));
    cli.finish(bench::frame_of([&] { return locked ? hash_locked(c, 0) : hash_sent(c, 0); }) + kept);

    bench::runtime rt{threads};
    bench::report report{"hash_collect", cli};
    report.start();
    c.digests.reserve(n);
    if (!locked) rt.spawn(collect(c));
    for (std::uint64_t i = 0; i < n; ++i) {
        rt.spawn(locked ? hash_locked(c, i) : hash_sent(c, i));
        if (eager) rt.run_ready();  // it runs now, as each task of the 2023 programs does
    }
    report.spawned();
    // Gated, a spawned task starts only when a loop runs, so every frame exists now and none has
    // run: this is "RSS at wait" (these tasks never wait; each runs to its end once started).
    // Eager, most have already ended.
    report.waiting();
    rt.join();
    report.finished();

    const auto completed = rt.completed();
    bench::check(completed == n, "completed " + std::to_string(completed) + " tasks of " + std::to_string(n));
    bench::check(c.digests.size() == n,
                 "collected " + std::to_string(c.digests.size()) + " digests of " + std::to_string(n));
    // Distinct: sort the digests' first 8 bytes (8 MB, where sorting the digests would move 64 MB
    // around: 400 ms at N = 1e6); only when two of those are equal, sort and compare in full. The
    // same pass checks a sample against a recomputation: recomputing all would cost a second run.
    const digest sample[3] = {sha512(uuid_v4(seed, 0)), sha512(uuid_v4(seed, n / 2)), sha512(uuid_v4(seed, n - 1))};
    bench::big_vector<std::uint64_t> prefixes(n);
    std::uint64_t found = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::memcpy(&prefixes[i], c.digests[i].data(), 8);
        found += std::count(sample, sample + 3, c.digests[i]);
    }
    radix_sort(prefixes);
    if (std::adjacent_find(prefixes.begin(), prefixes.end()) != prefixes.end()) {
        std::sort(c.digests.begin(), c.digests.end());
        bench::check(std::adjacent_find(c.digests.begin(), c.digests.end()) == c.digests.end(),
                     "two digests are equal");
    }
    bench::check(found == 3, "the digests of tasks 0, n/2 and n-1, recomputed, are not all among those collected");
    report.result("completed", completed);
    bench::check_frames_freed();
    report.print(bench::frame_bytes_per_task(n));
}
#endif
