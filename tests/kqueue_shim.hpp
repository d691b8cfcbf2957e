// tests/kqueue_shim.hpp: the few kqueue calls common.hpp's kqueue poller uses (kqueue, kevent
// with EVFILT_USER, EV_ADD, EV_CLEAR, NOTE_TRIGGER and a timeout), emulated on Linux with epoll
// and one eventfd per queue, so that poller compiles and runs the loop tests here. Tests only:
// the Makefile's unit-kqueue injects it with -include, and BENCH_KQUEUE_SHIM selects the kqueue
// poller in common.hpp.
#pragma once
#define BENCH_KQUEUE_SHIM 1
#include <sys/epoll.h>
#include <sys/eventfd.h>
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
