// hash_collect, Go: N goroutines each make a version-4 UUID from 16 crypto/rand bytes, SHA-512 its
// 36-character text (crypto/sha512) and hand the 64-byte digest to one collector: a slice under a
// sync.Mutex (mutex), or a chan read by one consumer goroutine, which appends N digests (channel).
// Gated (the default): every goroutine first waits on one channel, closed after the last go
// statement, so that all N exist before any of them hashes (ours makes every task before any runs).
// Eager (--start eager): the channel is closed before the first go statement, so each goroutine
// runs as soon as the scheduler gets to it, as the 2023 programs' goroutines do.
// Run:    hash_collect N mutex|channel [--start gated|eager]
// Prints: scenario=hash_collect runtime=go n=N sync=V start=G spawn_ms=S wall_ms=W completed=C;
// exits 1 if a digest is lost, repeated or wrong.
package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type digest = [sha512.Size]byte

func main() {
	n, variant, startMode := args()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var completed int64
	var first [36]byte // task 0's UUID text, hashed again by the check
	gate := make(chan struct{})
	consumed := make(chan struct{}) // closed by the consumer after its N digests
	fmt.Fprintf(os.Stderr, "hash_collect: spawning %d tasks\n", n)
	start := time.Now()
	digests := make([]digest, 0, n) // room for all N from the start, as ours reserves
	var collect func(digest)
	if variant == "mutex" {
		collect = func(d digest) {
			mu.Lock()
			digests = append(digests, d)
			mu.Unlock()
		}
	} else {
		// Go has no unbounded channel; a buffer of N is one here: no sender ever waits for the
		// consumer, as with ours and the other peers' queues.
		sent := make(chan digest, n)
		collect = func(d digest) { sent <- d }
		go func() {
			for i := 0; i < n; i++ {
				digests = append(digests, <-sent)
			}
			close(consumed)
		}()
	}
	if startMode == "eager" {
		close(gate)
	}
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) {
			defer wg.Done()
			<-gate
			text := uuidV4()
			if i == 0 {
				first = text
			}
			collect(sha512.Sum512(text[:]))
			atomic.AddInt64(&completed, 1)
		}(i)
	}
	spawn := time.Since(start)
	fmt.Fprintf(os.Stderr, "hash_collect: %d tasks spawned in %d ms\n", n, spawn.Milliseconds())
	if startMode == "gated" {
		close(gate)
	}
	wg.Wait()
	if variant == "channel" {
		<-consumed // its close also makes digests safe to read here
	}
	wall := time.Since(start)

	check(completed == int64(n), fmt.Sprintf("completed %d of %d", completed, n))
	check(len(digests) == n, fmt.Sprintf("collected %d digests of %d", len(digests), n))
	// Sorted in place, not put in a map: the check then takes no memory per digest, so it adds
	// nothing to the max RSS being measured. Equal digests end up side by side.
	less := func(i, j int) bool { return bytes.Compare(digests[i][:], digests[j][:]) < 0 }
	sort.Slice(digests, less)
	for i := 1; i < n; i++ {
		check(digests[i] != digests[i-1], "two digests are equal")
	}
	again := sha512.Sum512(first[:])
	at := sort.Search(n, func(i int) bool { return bytes.Compare(digests[i][:], again[:]) >= 0 })
	check(at < n && digests[at] == again, "the digest of task 0's UUID, recomputed, is not among those collected")
	fmt.Printf("scenario=hash_collect runtime=go n=%d sync=%s start=%s spawn_ms=%d wall_ms=%d completed=%d\n",
		n, variant, startMode, spawn.Milliseconds(), wall.Milliseconds(), completed)
}

// uuidV4 is a version-4 UUID (RFC 9562, section 5.4) as its 36 lowercase characters, 8-4-4-4-12:
// 122 random bits, version nibble 4, variant bits 10. The standard library has no UUID type.
func uuidV4() [36]byte {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		fmt.Fprintln(os.Stderr, "hash_collect: crypto/rand:", err)
		os.Exit(1)
	}
	b[6] = b[6]&0x0f | 0x40 // octet 6, high nibble: version 4
	b[8] = b[8]&0x3f | 0x80 // octet 8, top two bits: variant 10
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	hex.Encode(s[9:13], b[4:6])
	hex.Encode(s[14:18], b[6:8])
	hex.Encode(s[19:23], b[8:10])
	hex.Encode(s[24:36], b[10:16])
	s[8], s[13], s[18], s[23] = '-', '-', '-', '-'
	return s
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
	fmt.Fprintln(os.Stderr, "usage: hash_collect N mutex|channel [--start gated|eager]  (N >= 1)")
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
		fmt.Fprintln(os.Stderr, "hash_collect: check failed:", what)
		os.Exit(1)
	}
}
