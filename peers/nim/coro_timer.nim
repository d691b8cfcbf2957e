# coro_timer, Nim asyncdispatch: N async procs, each awaits sleepAsync(SLEEP_MS); waitFor all(...)
# runs them to the end, on the one thread asyncdispatch has.
# Build:  nim c -d:release coro_timer.nim
# Run:    coro_timer N [SLEEP_MS=5000]
# Prints: scenario=coro_timer runtime=nim n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R
#         wall_ms=W completed=C; exits 1 if C != N. S: ms from start until the spawn loop returned
#         (each proc runs up to its await when called, so every timer is set); E: always 0, no timer
#         can fire before the loop returns to the dispatcher, but counted all the same.
import std/[asyncdispatch, monotimes, os, strutils, times]

var completed = 0

proc sleeper(ms: int) {.async.} =
  await sleepAsync(ms)
  inc completed

# N (>= 1) and SLEEP_MS from the command line, digits only; anything else is a usage error, exit 2.
proc args(defaultMs: int): (int, int) =
  let a = commandLineParams()
  proc number(s: string): int =
    if s.len == 0 or s.len > 9 or not s.allCharsInSet(Digits): -1 else: parseInt(s)
  let n = if a.len in 1..2: number(a[0]) else: -1
  let ms = if a.len == 2: number(a[1]) else: defaultMs
  if n < 1 or ms < 0:
    stderr.writeLine "usage: coro_timer N [SLEEP_MS=", defaultMs, "]  (N >= 1)"
    quit(2)
  (n, ms)

# The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status (Linux), else "-".
proc rssKib(): string =
  try:
    for line in lines("/proc/self/status"):
      if line.startsWith("VmRSS:"): return line.splitWhitespace()[1]
  except IOError:
    discard
  "-"

proc check(ok: bool, what: string) =
  if not ok:
    stderr.writeLine "coro_timer: check failed: ", what
    quit(1)

proc main() =
  let (n, ms) = args(5000)
  let start = getMonoTime()
  var tasks = newSeqOfCap[Future[void]](n)
  for i in 1..n:
    tasks.add sleeper(ms)
  let spawnMs = (getMonoTime() - start).inMilliseconds
  let endedAtSpawn = completed
  let rssWait = rssKib() # every task exists and waits
  waitFor all(tasks)
  let wallMs = (getMonoTime() - start).inMilliseconds
  check(completed == n, "completed " & $completed & " of " & $n)
  check(wallMs >= ms, "the run took less than one sleep")
  echo "scenario=coro_timer runtime=nim n=", n, " sleep_ms=", ms, " spawn_ms=", spawnMs,
    " ended_at_spawn=", endedAtSpawn, " rss_wait_kib=", rssWait, " wall_ms=", wallMs, " completed=", completed

main()
