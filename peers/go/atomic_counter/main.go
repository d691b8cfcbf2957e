// atomic_counter, Go (the scoreboard test): N goroutines loop { hits++; time.Sleep(SLEEP_MS) };
// main polls every 100 ms and, at HITS (default 10 x N), tells them to stop and waits for all.
// --mode once: each goroutine sleeps once, increments once and ends; main polls until N hits.
// --spawn-from task: one goroutine spawns the N (pausing --burst-pause-ms after every --burst),
// while main only polls, as in the 2022 follow-up to the scoreboard. --burst-pause-ns gives the
// pause in nanoseconds instead: time.Sleep(1) is 1 ns (run.sh's BURST_PAUSE=sleep1).
// Run: atomic_counter N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms 100]
// [--spawn-from main|task] [--burst K] [--burst-pause-ms 1000 | --burst-pause-ns NS]
// Prints: scenario=atomic_counter runtime=go n=N ... spawn_ms=S reached_ms=R wall_ms=W hits=H
// hits_per_s=P completed=C; exits 1 if C != N, the hits fall short, a goroutine ended before the
// stop (loop) or a hit came before its sleep was over (once).
// Progress on stderr: every 100000 goroutines spawned, then the hits about once a second.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type options struct {
	n, hits, burst       int64
	sleep, poll, pause   time.Duration
	once, fromTask       bool
	mode, from, pauseArg string
}

func main() {
	o := args()
	var hits, stop, completed, spawnedAll, firstHitNs int64
	var wg sync.WaitGroup
	start := time.Now()
	loop := func() {
		defer wg.Done()
		// A goroutine cannot be cancelled from outside: each one sees the flag when it wakes.
		for atomic.LoadInt64(&stop) == 0 {
			atomic.AddInt64(&hits, 1)
			time.Sleep(o.sleep)
		}
		atomic.AddInt64(&completed, 1)
	}
	once := func() {
		defer wg.Done()
		time.Sleep(o.sleep)
		if atomic.AddInt64(&hits, 1) == 1 {
			atomic.StoreInt64(&firstHitNs, int64(time.Since(start)))
		}
		atomic.AddInt64(&completed, 1)
	}
	task := loop
	if o.once {
		task = once
	}
	var spawnEnd time.Duration
	spawnAll := func() {
		for i := int64(1); i <= o.n; i++ {
			go task()
			if i%100000 == 0 {
				fmt.Fprintf(os.Stderr, "atomic_counter: %d of %d goroutines spawned, %d hits\n", i, o.n, atomic.LoadInt64(&hits))
			}
			if o.burst > 0 && i%o.burst == 0 && i < o.n {
				time.Sleep(o.pause)
			}
		}
		spawnEnd = time.Since(start)
		atomic.StoreInt64(&spawnedAll, 1) // main reads spawnEnd once it sees this
	}
	wg.Add(int(o.n))
	if o.fromTask {
		go spawnAll()
	} else {
		spawnAll()
	}
	target := o.hits
	if o.once {
		target = o.n
	}
	for polls := 1; atomic.LoadInt64(&hits) < target || atomic.LoadInt64(&spawnedAll) == 0; polls++ {
		time.Sleep(o.poll)
		if polls%int((time.Second+o.poll-1)/o.poll) == 0 {
			h := atomic.LoadInt64(&hits)
			fmt.Fprintf(os.Stderr, "atomic_counter: %d of %d hits, %.0f hits/s\n", h, target, float64(h)/time.Since(start).Seconds())
		}
	}
	reached := time.Since(start)
	endedEarly := atomic.LoadInt64(&completed) // in loop mode, before the stop a goroutine cannot end
	atomic.StoreInt64(&stop, 1)
	wg.Wait()
	wall := time.Since(start)
	total := atomic.LoadInt64(&hits)
	check(completed == o.n, fmt.Sprintf("completed %d of %d", completed, o.n))
	if o.once {
		check(total == o.n, fmt.Sprintf("%d hits, expected %d", total, o.n))
		first := time.Duration(atomic.LoadInt64(&firstHitNs))
		check(first >= o.sleep, fmt.Sprintf("the first hit came %v after the start, before one sleep", first))
		check(reached >= spawnEnd+o.sleep, "the last hit came before the last goroutine's sleep was over")
	} else {
		check(total >= o.hits, fmt.Sprintf("%d hits, fewer than the target %d", total, o.hits))
		check(endedEarly == 0, fmt.Sprintf("%d goroutines ended before the stop", endedEarly))
	}
	fmt.Printf("scenario=atomic_counter runtime=go n=%d sleep_ms=%d mode=%s spawn_from=%s poll_ms=%d burst=%d burst_pause_ms=%s "+
		"spawn_ms=%d reached_ms=%d wall_ms=%d hits=%d hits_per_s=%.0f completed=%d\n",
		o.n, o.sleep.Milliseconds(), o.mode, o.from, o.poll.Milliseconds(), o.burst, o.pauseArg,
		spawnEnd.Round(time.Millisecond).Milliseconds(), reached.Milliseconds(), wall.Milliseconds(), total,
		float64(total)/reached.Seconds(), completed)
}

// args reads N [SLEEP_MS] and the options, each as atomic_counter.cpp takes them; anything else is
// a usage error: one line, exit 2.
func args() options {
	o := options{sleep: time.Second, poll: 100 * time.Millisecond, pause: time.Second, mode: "loop", from: "main", pauseArg: "-"}
	a := os.Args[1:]
	fail := func(why string) {
		fmt.Fprintf(os.Stderr, "usage: atomic_counter N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms P] "+
			"[--spawn-from main|task] [--burst K] [--burst-pause-ms P | --burst-pause-ns NS]  (%s)\n", why)
		os.Exit(2)
	}
	num := func(s string, min, max int64, what string) int64 {
		v, err := strconv.ParseInt(s, 10, 64)
		if !digits(s) || err != nil || v < min || v > max {
			fail(fmt.Sprintf("%s must be a whole number from %d to %d, got '%s'", what, min, max, s))
		}
		return v
	}
	if len(a) == 0 {
		fail("N is missing")
	}
	o.n = num(a[0], 1, 1<<40, "N")
	a = a[1:]
	if len(a) > 0 && digits(a[0]) {
		o.sleep = time.Duration(num(a[0], 0, 86400000, "SLEEP_MS")) * time.Millisecond
		a = a[1:]
	}
	seen := map[string]bool{}
	for ; len(a) > 0; a = a[2:] {
		if !strings.HasPrefix(a[0], "--") {
			fail("unexpected argument '" + a[0] + "'")
		}
		if len(a) < 2 || seen[a[0]] {
			fail(fmt.Sprintf("'%s' needs one value, once", a[0]))
		}
		seen[a[0]] = true
		switch v := a[1]; a[0] {
		case "--hits":
			o.hits = num(v, 1, 1<<62, "--hits")
		case "--mode":
			if v != "loop" && v != "once" {
				fail("--mode must be loop or once, got '" + v + "'")
			}
			o.mode, o.once = v, v == "once"
		case "--poll-ms":
			o.poll = time.Duration(num(v, 1, 86400000, "--poll-ms")) * time.Millisecond
		case "--spawn-from":
			if v != "main" && v != "task" {
				fail("--spawn-from must be main or task, got '" + v + "'")
			}
			o.from, o.fromTask = v, v == "task"
		case "--burst":
			o.burst = num(v, 1, 1<<62, "--burst")
		case "--burst-pause-ms":
			o.pause, o.pauseArg = time.Duration(num(v, 0, 86400000, "--burst-pause-ms"))*time.Millisecond, v
		case "--burst-pause-ns":
			o.pause = time.Duration(num(v, 0, 86400000000000, "--burst-pause-ns"))
			o.pauseArg = strconv.FormatFloat(float64(o.pause)/1e6, 'f', -1, 64) // the summary says ms
		default:
			fail("unknown argument '" + a[0] + "'")
		}
	}
	switch {
	case o.once && o.hits > 0:
		fail("--hits applies to --mode loop only")
	case o.burst > 0 && !o.fromTask:
		fail("--burst needs --spawn-from task")
	case seen["--burst-pause-ms"] && seen["--burst-pause-ns"]:
		fail("--burst-pause-ms and --burst-pause-ns set the same pause: give one")
	case seen["--burst-pause-ms"] && o.burst == 0:
		fail("--burst-pause-ms needs --burst")
	case seen["--burst-pause-ns"] && o.burst == 0:
		fail("--burst-pause-ns needs --burst")
	}
	if o.hits == 0 {
		o.hits = 10 * o.n
	}
	if o.burst > 0 && o.pauseArg == "-" {
		o.pauseArg = "1000"
	}
	return o
}

// digits: s is not empty and has nothing but ASCII digits (ParseInt alone takes a sign too).
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
		fmt.Fprintln(os.Stderr, "atomic_counter: check failed:", what)
		os.Exit(1)
	}
}
