"""coro_timer, Python asyncio: N asyncio.sleep coroutines run as tasks by asyncio.gather.

Run:    python3 coro_timer.py N [SLEEP_MS=5000]
Prints: scenario=coro_timer runtime=python n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R wall_ms=W
        completed=C; exits 1 if C != N. S: ms from start until every task has run to its first
        await (a task starts, and asyncio.sleep takes its deadline, only when the loop first runs
        it); E: tasks already done at that moment.
"""
import asyncio
import sys
import time


async def main(n: int, ms: int) -> None:
    loop = asyncio.get_running_loop()
    spawn_ms, ended, rss_wait = -1.0, -1, "-"

    # Scheduled after the last task's first step: the loop runs it once every task has begun its sleep.
    def spawned(tasks: list) -> None:
        nonlocal spawn_ms, ended, rss_wait
        spawn_ms = (time.monotonic() - start) * 1000
        ended = sum(t.done() for t in tasks)  # a scan after the moment
        rss_wait = rss_kib()  # every task exists and waits
        tasks.clear()  # gather holds the tasks; drop this list so the wait holds what gather alone would

    start = time.monotonic()
    delay = ms / 1000  # one float for all N: computed in the comprehension, each sleep would keep its own
    # The tasks gather would make from the coroutines (it calls ensure_future on each): same memory.
    tasks = [asyncio.ensure_future(asyncio.sleep(delay)) for _ in range(n)]
    loop.call_soon(spawned, tasks)
    results = await asyncio.gather(*tasks)
    wall = time.monotonic() - start
    check(len(results) == n, f"completed {len(results)} of {n}")
    check(wall >= delay, "the run took less than one sleep")
    check(ended >= 0, "the spawn callback did not run")
    print(f"scenario=coro_timer runtime=python n={n} sleep_ms={ms} spawn_ms={spawn_ms:.0f} "
          f"ended_at_spawn={ended} rss_wait_kib={rss_wait} wall_ms={wall * 1000:.0f} completed={len(results)}")


def args(default_ms: int) -> tuple[int, int]:
    """N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2."""
    a = sys.argv[1:]
    if 1 <= len(a) <= 2 and all(s.isdigit() for s in a) and int(a[0]) >= 1:
        return int(a[0]), int(a[1]) if len(a) > 1 else default_ms
    print(f"usage: python3 coro_timer.py N [SLEEP_MS={default_ms}]  (N >= 1)", file=sys.stderr)
    sys.exit(2)


def rss_kib() -> str:
    """The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status (Linux), else "-"."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(line.split()[1] for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return "-"


def check(ok: bool, what: str) -> None:
    if not ok:
        print(f"coro_timer: check failed: {what}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main(*args(5000)))
