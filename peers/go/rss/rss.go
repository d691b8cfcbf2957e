// Package rss reads the program's own resident set: rss_wait_kib=, once every task exists and
// waits, in coro_timer and coro_shared.
package rss

import (
	"os"
	"strings"
)

// KiB is VmRSS from /proc/self/status (Linux), "-" where there is no such file.
func KiB() string {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "-"
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			return f[1]
		}
	}
	return "-"
}
