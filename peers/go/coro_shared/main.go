// coro_shared, Go: N goroutines all block on one channel; when one timer (started before the
// first spawn) fires, main closes the channel, which wakes every receiver; a WaitGroup waits.
// Run:    coro_shared N [SLEEP_MS=5000]
// Prints: scenario=coro_shared runtime=go n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R wall_ms=W completed=C;
// exits 1 if C != N. S: ms from start until the spawn loop returned (a goroutine starts at its go
// statement); E: goroutines that had already ended by then (read from the completed counter, which
// each one bumps as its last act). E is 0 here by construction: the channel is closed only after
// the loop, but it is read all the same.
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
	timer := time.NewTimer(sleep)
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
	rssWait := rss.KiB() // every goroutine exists and waits
	<-timer.C
	close(released)
	wg.Wait()
	wall := time.Since(start)
	check(completed == int64(n), fmt.Sprintf("completed %d of %d", completed, n))
	check(wall >= sleep, "the run took less than one sleep")
	fmt.Printf("scenario=coro_shared runtime=go n=%d sleep_ms=%d spawn_ms=%d ended_at_spawn=%d rss_wait_kib=%s wall_ms=%d completed=%d\n",
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
		fmt.Fprintf(os.Stderr, "usage: coro_shared N [SLEEP_MS=%d]  (N >= 1)\n", defaultMs)
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
		fmt.Fprintln(os.Stderr, "coro_shared: check failed:", what)
		os.Exit(1)
	}
}
