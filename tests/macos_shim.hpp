// tests/macos_shim.hpp: the macOS calls common.hpp's macOS half uses, emulated on Linux, so that
// that half compiles and runs here: the loop tests over its kqueue poller, and its memory readings
// against known values (tests/test_macos.cpp). Tests only: the Makefile's unit-macos injects it
// with -include, and BENCH_MACOS_SHIM selects the macOS half of common.hpp's platform block.
//   kqueue, kevent with EVFILT_USER, EV_ADD, EV_CLEAR, NOTE_TRIGGER and a timeout: epoll and one
//     eventfd per queue.
//   task_info(MACH_TASK_BASIC_INFO): a resident size of shim::resident_bytes.
//   host_statistics64(HOST_VM_INFO64): shim::free_pages and shim::inactive_pages.
//   getrusage: Linux's, with ru_maxrss in bytes, as macOS reports it.
#pragma once
#define BENCH_MACOS_SHIM 1
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <unordered_map>

struct kevent {
    std::uintptr_t ident;
    short filter;
    unsigned short flags;
    unsigned int fflags;
    std::intptr_t data;
    void* udata;
};

#define EVFILT_USER (-11)
#define EV_ADD 0x0001
#define EV_CLEAR 0x0020
#define NOTE_TRIGGER 0x01000000u
#define EV_SET(kevp, a, b, c, d, e, f) \
    do {                                 \
        struct kevent* ev_ = (kevp);     \
        ev_->ident = (a);                \
        ev_->filter = (b);               \
        ev_->flags = (c);                \
        ev_->fflags = (d);               \
        ev_->data = (e);                 \
        ev_->udata = (f);                \
    } while (0)

namespace kqueue_shim {
struct user_event {
    int fd;               // eventfd: readable while triggered
    std::uintptr_t ident;
    bool clear;           // EV_CLEAR: reset once reported
};
inline std::mutex mutex;
inline std::unordered_map<int, user_event> queues;  // kqueue fd (an epoll fd) -> its EVFILT_USER
}  // namespace kqueue_shim

inline int kqueue() { return epoll_create1(EPOLL_CLOEXEC); }

inline int kevent(int kq, const struct kevent* changes, int nchanges, struct kevent* events, int nevents,
                  const timespec* timeout) {
    using namespace kqueue_shim;
    for (int i = 0; i < nchanges; ++i) {
        const struct kevent& c = changes[i];
        if (c.filter != EVFILT_USER) return errno = EINVAL, -1;
        std::lock_guard lock(mutex);
        if (c.flags & EV_ADD) {
            int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
            if (fd < 0) return -1;
            epoll_event ev{};
            ev.events = EPOLLIN;
            if (epoll_ctl(kq, EPOLL_CTL_ADD, fd, &ev) < 0) return -1;
            queues[kq] = user_event{fd, c.ident, (c.flags & EV_CLEAR) != 0};
        }
        if (c.fflags & NOTE_TRIGGER) {
            auto it = queues.find(kq);
            if (it == queues.end() || it->second.ident != c.ident) return errno = ENOENT, -1;
            std::uint64_t one = 1;
            if (write(it->second.fd, &one, sizeof one) < 0 && errno != EAGAIN) return -1;
        }
    }
    if (nevents == 0) return 0;
    // kevent's timeout is a timespec; epoll's is whole ms: round up, never wait less.
    int ms = timeout ? static_cast<int>(timeout->tv_sec * 1000 + (timeout->tv_nsec + 999999) / 1000000) : -1;
    epoll_event ev;
    int n = epoll_wait(kq, &ev, 1, ms);
    if (n <= 0) return n;
    std::lock_guard lock(mutex);
    user_event& u = queues.at(kq);
    if (u.clear) {
        std::uint64_t count;
        if (read(u.fd, &count, sizeof count) < 0 && errno != EAGAIN) return -1;
    }
    EV_SET(&events[0], u.ident, EVFILT_USER, 0, 0, 0, nullptr);
    return 1;
}

// The Mach calls, with values a test can check the readings against.
namespace shim {
inline unsigned long long resident_bytes = 3ull << 30 | 5000;  // 3 GiB and 5000 bytes
inline unsigned free_pages = 1000, inactive_pages = 500;
}  // namespace shim
using kern_return_t = int;
using mach_msg_type_number_t = unsigned;
using mach_port_t = unsigned;
using task_info_t = int*;
using host_info64_t = int*;
#define KERN_SUCCESS 0
#define MACH_TASK_BASIC_INFO 20
#define MACH_TASK_BASIC_INFO_COUNT 12u
#define HOST_VM_INFO64 4
#define HOST_VM_INFO64_COUNT 38u
struct mach_task_basic_info {
    unsigned long long virtual_size, resident_size, resident_size_max;
};
struct vm_statistics64_data_t {
    unsigned free_count, active_count, inactive_count;
};
inline mach_port_t mach_task_self() { return 1; }
inline mach_port_t mach_host_self() { return 2; }
inline kern_return_t task_info(mach_port_t, int flavor, task_info_t out, mach_msg_type_number_t*) {
    if (flavor != MACH_TASK_BASIC_INFO) return 4;  // KERN_INVALID_ARGUMENT
    *reinterpret_cast<mach_task_basic_info*>(out) = {0, shim::resident_bytes, shim::resident_bytes};
    return KERN_SUCCESS;
}
inline kern_return_t host_statistics64(mach_port_t, int flavor, host_info64_t out, mach_msg_type_number_t*) {
    if (flavor != HOST_VM_INFO64) return 4;
    *reinterpret_cast<vm_statistics64_data_t*>(out) = {shim::free_pages, 0, shim::inactive_pages};
    return KERN_SUCCESS;
}
// macOS reports ru_maxrss in bytes, Linux in KiB.
inline int shim_getrusage(int who, struct rusage* ru) {
    const int r = getrusage(who, ru);
    ru->ru_maxrss *= 1024;
    return r;
}
#define getrusage shim_getrusage
