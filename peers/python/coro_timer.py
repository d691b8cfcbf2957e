"""coro_timer, Python asyncio: N asyncio.sleep coroutines run as tasks by asyncio.gather.

Run:    python3 coro_timer.py N [SLEEP_MS=5000]
Prints: scenario=coro_timer runtime=python ... completed=C; exits 1 if C != N.
"""
import asyncio
import sys
import time


async def main(n: int, ms: int) -> None:
    start = time.monotonic()
    results = await asyncio.gather(*(asyncio.sleep(ms / 1000) for _ in range(n)))
    wall = time.monotonic() - start
    check(len(results) == n, f"completed {len(results)} of {n}")
    check(wall >= ms / 1000, "the run took less than one sleep")
    print(f"scenario=coro_timer runtime=python n={n} sleep_ms={ms} wall_ms={wall * 1000:.0f} completed={len(results)}")


def args(default_ms: int) -> tuple[int, int]:
    """N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2."""
    a = sys.argv[1:]
    if 1 <= len(a) <= 2 and all(s.isdigit() for s in a) and int(a[0]) >= 1:
        return int(a[0]), int(a[1]) if len(a) > 1 else default_ms
    print(f"usage: python3 coro_timer.py N [SLEEP_MS={default_ms}]  (N >= 1)", file=sys.stderr)
    sys.exit(2)


def check(ok: bool, what: str) -> None:
    if not ok:
        print(f"coro_timer: check failed: {what}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main(*args(5000)))
