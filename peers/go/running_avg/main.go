// running_avg, Go: N goroutines each draw one math/rand value in [0, 100) and push it into ONE
// running mean and variance (Welford): under a sync.Mutex (mutex), or sent on a chan to one
// consumer goroutine, which owns the statistics and stops after N values (channel).
// Gated (the default): every goroutine first waits on one channel, closed after the last go
// statement, so that all N exist before any of them draws (ours makes every task before any runs).
// Eager (--start eager): the channel is closed before the first go statement, so each goroutine
// runs as soon as the scheduler gets to it, as the 2023 programs' goroutines do.
// rand.Float64 draws from the package's shared source: behind one lock up to Go 1.19, lock-free
// (the runtime's per-thread generator) from Go 1.20 on.
// Run:    running_avg N mutex|channel [--start gated|eager]
// Prints: scenario=running_avg runtime=go n=N sync=V start=G spawn_ms=S wall_ms=W mean=M variance=V completed=C;
// exits 1 if a value is lost or the mean or variance is more than 6 standard errors off.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// welford is a running mean and sample variance, one value at a time (Welford 1962; Knuth,
// TAOCP vol. 2, 4.2.2): one pass, and no cancellation between two large sums.
type welford struct {
	n        int
	mean, m2 float64
}

func (w *welford) push(x float64) {
	w.n++
	d := x - w.mean
	w.mean += d / float64(w.n)
	w.m2 += d * (x - w.mean)
}

// variance is the sample variance (divided by n - 1); a single value has no spread: 0.
func (w *welford) variance() float64 {
	if w.n < 2 {
		return 0
	}
	return w.m2 / float64(w.n-1)
}

func main() {
	n, variant, startMode := args()
	var stats welford
	var mu sync.Mutex
	var wg sync.WaitGroup
	var completed int64
	gate := make(chan struct{})
	consumed := make(chan struct{}) // closed by the consumer after its N values
	fmt.Fprintf(os.Stderr, "running_avg: spawning %d tasks\n", n)
	start := time.Now()
	var push func(float64)
	if variant == "mutex" {
		push = func(x float64) {
			mu.Lock()
			stats.push(x)
			mu.Unlock()
		}
	} else {
		// Go has no unbounded channel; a buffer of N is one here: no sender ever waits for the
		// consumer, as with ours and the other peers' queues.
		values := make(chan float64, n)
		push = func(x float64) { values <- x }
		go func() {
			for i := 0; i < n; i++ {
				stats.push(<-values)
			}
			close(consumed)
		}()
	}
	if startMode == "eager" {
		close(gate)
	}
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			<-gate
			push(rand.Float64() * 100)
			atomic.AddInt64(&completed, 1)
		}()
	}
	spawn := time.Since(start)
	fmt.Fprintf(os.Stderr, "running_avg: %d tasks spawned in %d ms\n", n, spawn.Milliseconds())
	if startMode == "gated" {
		close(gate)
	}
	wg.Wait()
	if variant == "channel" {
		<-consumed // its close also makes stats safe to read here
	}
	wall := time.Since(start)

	// Uniform on [0, 100): mean 50, variance 100^2/12; the standard error of the sample variance
	// is sqrt(mu4 - sigma^4)/sqrt(N), mu4 = 100^4/80.
	mean, variance := stats.mean, stats.variance()
	check(completed == int64(n), fmt.Sprintf("completed %d of %d", completed, n))
	check(stats.n == n, fmt.Sprintf("pushed %d values of %d", stats.n, n))
	check(math.Abs(mean-50) <= 6*math.Sqrt(833.333/float64(n)),
		fmt.Sprintf("mean %.6f is more than 6 standard errors from 50", mean))
	// The variance is checked only when N >= 3: at N = 2 the sample variance exceeds the band
	// whenever the two values are more than 89.4 apart, about 1.1 % of honest runs. The mean's band
	// holds for every N.
	if n >= 3 {
		check(math.Abs(variance-833.333) <= 6*745.36/math.Sqrt(float64(n)),
			fmt.Sprintf("variance %.6f is more than 6 standard errors from 833.333", variance))
	}
	fmt.Printf("scenario=running_avg runtime=go n=%d sync=%s start=%s spawn_ms=%d wall_ms=%d mean=%.6f variance=%.6f completed=%d\n",
		n, variant, startMode, spawn.Milliseconds(), wall.Milliseconds(), mean, variance, completed)
}

// args reads N (digits only, >= 1) and the variant, both required, then --start gated|eager
// (default gated); anything else is a usage error, exit 2.
func args() (int, string, string) {
	a := os.Args[1:]
	start := "gated"
	if len(a) == 4 && a[2] == "--start" && (a[3] == "gated" || a[3] == "eager") {
		start, a = a[3], a[:2]
	}
	if len(a) == 2 && digits(a[0]) && (a[1] == "mutex" || a[1] == "channel") {
		if n, err := strconv.Atoi(a[0]); err == nil && n >= 1 {
			return n, a[1], start
		}
	}
	fmt.Fprintln(os.Stderr, "usage: running_avg N mutex|channel [--start gated|eager]  (N >= 1)")
	os.Exit(2)
	return 0, "", ""
}

// digits: s is not empty and has nothing but ASCII digits (Atoi alone takes a sign too).
func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func check(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "running_avg: check failed:", what)
		os.Exit(1)
	}
}
