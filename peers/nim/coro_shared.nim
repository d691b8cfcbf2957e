# coro_shared, Nim asyncdispatch: N async procs all wait on ONE event, which a single sleepAsync
# (started before them) sets after SLEEP_MS; waitFor all(...) runs them to the end. The event is a
# seq of waiting futures that set() completes, as Python's asyncio.Event keeps a deque of them:
# one Future awaited by N procs would cost O(N^2), since Nim 1.6's asyncfutures appends each
# callback at the tail of a singly linked list it walks from the head (11 s to spawn 100K here).
# Build:  nim c -d:release coro_shared.nim
# Run:    coro_shared N [SLEEP_MS=5000]
# Prints: scenario=coro_shared runtime=nim n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R
#         wall_ms=W completed=C; exits 1 if C != N. S: ms from start (the timer is set first) until
#         the spawn loop returned; E: waiters already ended by then (none can: the event is set by
#         the dispatcher, which runs after the loop), counted all the same.
import std/[asyncdispatch, monotimes, os, strutils, times]

type Event = ref object
  waiters: seq[Future[void]]

proc wait(ev: Event): Future[void] =
  result = newFuture[void]("Event.wait")
  ev.waiters.add result

proc set(ev: Event) =
  for f in ev.waiters: f.complete()
  ev.waiters = @[]

var completed = 0

proc waiter(released: Event) {.async.} =
  await released.wait()
  inc completed

# N (>= 1) and SLEEP_MS from the command line, digits only; anything else is a usage error, exit 2.
proc args(defaultMs: int): (int, int) =
  let a = commandLineParams()
  proc number(s: string): int =
    if s.len == 0 or s.len > 9 or not s.allCharsInSet(Digits): -1 else: parseInt(s)
  let n = if a.len in 1..2: number(a[0]) else: -1
  let ms = if a.len == 2: number(a[1]) else: defaultMs
  if n < 1 or ms < 0:
    stderr.writeLine "usage: coro_shared N [SLEEP_MS=", defaultMs, "]  (N >= 1)"
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
    stderr.writeLine "coro_shared: check failed: ", what
    quit(1)

proc main() =
  let (n, ms) = args(5000)
  let start = getMonoTime()
  let released = Event()
  sleepAsync(ms).addCallback(proc () = released.set())
  var tasks = newSeqOfCap[Future[void]](n)
  for i in 1..n:
    tasks.add waiter(released)
  let spawnMs = (getMonoTime() - start).inMilliseconds
  let endedAtSpawn = completed
  let rssWait = rssKib() # every task exists and waits
  waitFor all(tasks)
  let wallMs = (getMonoTime() - start).inMilliseconds
  check(completed == n, "completed " & $completed & " of " & $n)
  check(wallMs >= ms, "the run took less than one sleep")
  echo "scenario=coro_shared runtime=nim n=", n, " sleep_ms=", ms, " spawn_ms=", spawnMs,
    " ended_at_spawn=", endedAtSpawn, " rss_wait_kib=", rssWait, " wall_ms=", wallMs, " completed=", completed

main()
