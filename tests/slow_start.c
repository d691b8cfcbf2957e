// tests/slow_start.c: a machine on which a process takes 7 ms to start, as on some CI machines, to
// time `make test` and `./run.sh --plan` on: every forked child, and every program as it is exec'd,
// sleeps 7 ms first.
//   make tests/build/slow_start.so && LD_PRELOAD=$PWD/tests/build/slow_start.so make test
#include <pthread.h>
#include <time.h>

static void nap(void) {
    struct timespec t = {0, 7000000};
    while (nanosleep(&t, &t) != 0) {
    }
}

// Run when the library is loaded into a program, that is at every exec (LD_PRELOAD is inherited).
__attribute__((constructor)) static void at_exec(void) {
    nap();
    pthread_atfork(0, 0, nap);  // and in every child fork() makes
}
