// atomic_counter, Go (the scoreboard test): N goroutines loop { hits++; time.Sleep(SLEEP_MS) };
// main polls every 100 ms and, at HITS (default 10 x N), tells them to stop and waits for all.
// Run:    atomic_counter N [SLEEP_MS=1000 [HITS]]
// Prints: scenario=atomic_counter runtime=go n=N ... hits=H completed=C; exits 1 if C != N.
// Progress on stderr: every 100000 goroutines spawned, then the hits about once a second.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	n, sleep, target := args()
	var hits, stop, completed int64
	var wg sync.WaitGroup
	start := time.Now()
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			// A goroutine cannot be cancelled from outside: each one sees the flag when it wakes.
			for atomic.LoadInt64(&stop) == 0 {
				atomic.AddInt64(&hits, 1)
				time.Sleep(sleep)
			}
			atomic.AddInt64(&completed, 1)
		}()
		if (i+1)%100000 == 0 {
			fmt.Fprintf(os.Stderr, "atomic_counter: %d of %d goroutines spawned, %d hits\n", i+1, n, atomic.LoadInt64(&hits))
		}
	}
	for polls := 1; atomic.LoadInt64(&hits) < target; polls++ {
		time.Sleep(100 * time.Millisecond)
		if polls%10 == 0 {
			h := atomic.LoadInt64(&hits)
			fmt.Fprintf(os.Stderr, "atomic_counter: %d of %d hits, %.0f hits/s\n", h, target, float64(h)/time.Since(start).Seconds())
		}
	}
	reached := time.Since(start)
	atomic.StoreInt64(&stop, 1)
	wg.Wait()
	wall := time.Since(start)
	total := atomic.LoadInt64(&hits)
	check(completed == int64(n), fmt.Sprintf("completed %d of %d", completed, n))
	fmt.Printf("scenario=atomic_counter runtime=go n=%d sleep_ms=%d wall_ms=%d hits=%d hits_per_s=%.0f completed=%d\n",
		n, sleep.Milliseconds(), wall.Milliseconds(), total, float64(total)/reached.Seconds(), completed)
}

// args reads N (>= 1), SLEEP_MS (>= 0) and HITS (>= 1); anything else is a usage error, exit 2.
func args() (int, time.Duration, int64) {
	var n, ms, hits int64 = 0, 1000, 0
	var err error
	a := append(os.Args[1:], "", "", "")
	n, err = strconv.ParseInt(a[0], 10, 64)
	if err == nil && a[1] != "" {
		ms, err = strconv.ParseInt(a[1], 10, 64)
	}
	hits = 10 * n
	if err == nil && a[2] != "" {
		hits, err = strconv.ParseInt(a[2], 10, 64)
	}
	if err != nil || n < 1 || ms < 0 || hits < 1 || len(os.Args) > 4 {
		fmt.Fprintln(os.Stderr, "usage: atomic_counter N [SLEEP_MS=1000 [HITS=10*N]]  (N >= 1)")
		os.Exit(2)
	}
	return int(n), time.Duration(ms) * time.Millisecond, hits
}

func check(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "atomic_counter: check failed:", what)
		os.Exit(1)
	}
}
