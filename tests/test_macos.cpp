// Tests of common.hpp's macOS memory readings, run on Linux through tests/macos_shim.hpp (the
// Makefile's unit-macos), which emulates the Mach calls with known values. Empty elsewhere.
#include "catch.hpp"
#include "common.hpp"

#if defined(BENCH_MACOS_SHIM)
TEST_CASE("macOS: the resident set is task_info's resident size, in whole KiB", "[macos]") {
    CHECK(bench::os::rss_kib() == (3l << 20) + 5000 / 1024);
}

TEST_CASE("macOS: the peak is getrusage's ru_maxrss, which is in bytes there", "[macos]") {
    rusage ru;
    REQUIRE(getrusage(RUSAGE_SELF, &ru) == 0);  // the shim's: bytes
    const long peak = bench::os::peak_rss_kib();
    CHECK(peak >= ru.ru_maxrss / 1024);
    CHECK(peak <= ru.ru_maxrss / 1024 + 1024);  // it may have grown by a few pages since
}

TEST_CASE("macOS: what can be made resident is free plus inactive pages, said so", "[macos]") {
    const auto room = bench::os::available_memory();
    CHECK(room.bytes == 1500.0 * getpagesize());
    CHECK(room.bound == "available now (free + inactive pages)");
}

TEST_CASE("macOS: nothing is charged against a commit limit when it is mapped", "[macos]") {
    CHECK(bench::os::map_reserve == 0);
    CHECK(bench::os::commit_left() == -1);
}
#endif
