// coro_shared, Go, the 2024 comparison's shape: a goroutine started before the first spawn sleeps
// SLEEP_MS and then closes one channel; N goroutines block on that channel, and a WaitGroup waits
// for them. (go-coro_shared arms a timer instead, and main closes the channel when it fires.)
// Run:    coro_shared_sleeper N [SLEEP_MS=5000]
// Prints: scenario=coro_shared runtime=go variant=sleeper n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E
// rss_wait_kib=R wall_ms=W completed=C; exits 1 if C != N or the run took less than one sleep.
// S: ms from start until the spawn loop returned; E: goroutines that had already ended by then
// (the sleeper can close the channel while the loop still runs, if spawning outlasts the sleep).
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"bench/peers/rss"
)

func main() {
	n, sleep := args(5000)
	released := make(chan struct{})
	var wg sync.WaitGroup
	var completed int64
	start := time.Now()
	go func() {
		time.Sleep(sleep)
		close(released)
	}()
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			<-released
			atomic.AddInt64(&completed, 1)
		}()
	}
	spawn := time.Since(start)
	endedAtSpawn := atomic.LoadInt64(&completed)
	rssWait := rss.KiB() // every goroutine exists and waits, unless the sleep has already ended
	wg.Wait()
	wall := time.Since(start)
	check(completed == int64(n), fmt.Sprintf("completed %d of %d", completed, n))
	check(wall >= sleep, "the run took less than one sleep")
	fmt.Printf("scenario=coro_shared runtime=go variant=sleeper n=%d sleep_ms=%d spawn_ms=%d ended_at_spawn=%d rss_wait_kib=%s wall_ms=%d completed=%d\n",
		n, sleep.Milliseconds(), spawn.Round(time.Millisecond).Milliseconds(), endedAtSpawn, rssWait, wall.Milliseconds(), completed)
}

// args reads N (>= 1) and SLEEP_MS (>= 0); anything else is a usage error, exit 2.
func args(defaultMs int) (int, time.Duration) {
	ms := defaultMs
	n, err := strconv.Atoi(arg(1))
	if err == nil && len(os.Args) > 2 {
		ms, err = strconv.Atoi(os.Args[2])
	}
	if err != nil || n < 1 || ms < 0 || len(os.Args) > 3 {
		fmt.Fprintf(os.Stderr, "usage: coro_shared_sleeper N [SLEEP_MS=%d]  (N >= 1)\n", defaultMs)
		os.Exit(2)
	}
	return n, time.Duration(ms) * time.Millisecond
}

func arg(i int) string {
	if i < len(os.Args) {
		return os.Args[i]
	}
	return ""
}

func check(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "coro_shared_sleeper: check failed:", what)
		os.Exit(1)
	}
}
