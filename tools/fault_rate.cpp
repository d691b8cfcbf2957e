// fault_rate: how fast this machine hands a process fresh memory. It maps 256 MiB that nothing has
// touched, writes one byte per page (each write a page fault: the kernel finds, zeroes and maps a
// page), then writes them all again (no fault: the pages are there). A runtime that spawns a
// million tasks pays the first rate for every page it grows into, so it sets spawn times and much
// of the sys time, and it differs tenfold between a laptop and a small VM. run.sh puts the result in
// each section's heading. Prints: first_mbps=F second_mbps=S mib=256
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <cerrno>

namespace {

constexpr std::size_t mib = 256;
constexpr std::size_t bytes = mib << 20;

// touch: one write per page; the MB/s it took.
double touch(volatile unsigned char* p, std::size_t page, unsigned char value) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < bytes; i += page) p[i] = value;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return static_cast<double>(bytes) / 1e6 / took.count();
}

}  // namespace

int main() {
    const long page = sysconf(_SC_PAGESIZE);
    void* at = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page <= 0 || at == MAP_FAILED) {
        std::fprintf(stderr, "fault_rate: %s failed: %s\n", page <= 0 ? "sysconf(_SC_PAGESIZE)" : "mmap", std::strerror(errno));
        return 1;
    }
    auto* p = static_cast<volatile unsigned char*>(at);
    const double first = touch(p, static_cast<std::size_t>(page), 1);
    const double second = touch(p, static_cast<std::size_t>(page), 2);
    std::printf("first_mbps=%.0f second_mbps=%.0f mib=%zu\n", first, second, mib);
    munmap(at, bytes);
    return 0;
}
