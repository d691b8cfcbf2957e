"""The statistics, each rule once: which run a row keeps, the spread over its runs, the units, and whether a program
held all N tasks at once. Every table, chart, export and replication uses these."""

import itertools
import math
import statistics

from result import num


def best(runs):
    """The run a row keeps: the lowest wall time, since a run can only be slowed by the rest of the machine, never
    sped up; of two as fast (time reports hundredths), the one that took less user CPU, then less system CPU, then
    less memory, then the earlier."""
    return min(runs, key=lambda r: (r.wall_s, r.user_s, r.sys_s, r.max_rss_kib))


def spread(values):
    """(lowest, highest) of a figure over a row's runs."""
    return min(values), max(values)


# The noise rule (METHODOLOGY.md, "Noise"), the one every table, --compare and the write-ups' verdicts use. A figure is
# known only as the range of its runs: on this VM a run is slowed by its neighbours, never sped up.
WIDE = 0.10  # a row's spread is wide when (max − min) / median passes this
ONE_RUN = "cannot be told: one run"


def wide(values):
    """Whether the runs' range passes WIDE of their median: the row's best figure is then less sure than it looks."""
    mid = statistics.median(values)
    return len(values) > 1 and mid > 0 and max(values) - min(values) > WIDE * mid + 1e-9  # 1.0 to 1.1 is 10 %, not more


def ranged(best, values, show):
    """A best figure as a table prints it: then, where there are several runs, its range over them, "(LOW–HIGH)", and
    † where that is wide. SHOW prints one value."""
    text = show(best)
    if len(values) > 1:
        text += f" ({show(min(values))}–{show(max(values))})" + (" †" if wide(values) else "")
    return text


def against(a, b):
    """B's figure against A's, each given as its runs' values: "same within noise" where their ranges overlap, else
    "lower" or "higher"; ONE_RUN where a side has a single run, which has no range."""
    if len(a) < 2 or len(b) < 2:
        return ONE_RUN
    if max(b) < min(a):
        return "lower"
    return "higher" if min(b) > max(a) else "same within noise"


U_TEST_RUNS = 5  # --compare gives the U test's p only from this many runs a side: below it, no p can be small


def mann_whitney(a, b):
    """The two-sided p of the Mann–Whitney U test of A's values against B's: of every way to deal the pooled values
    into A's and B's (exact, since runs are few: 252 ways at 5 a side), the share whose U lies at least as far from its
    mean as A's does. U counts the pairs in which A's value is the larger, a tie counting half, so ties (time reports
    hundredths) are counted as they are. Past EXACT ways, the normal approximation, corrected for ties and continuity."""
    m, n = len(a), len(b)
    if not m or not n:
        raise ValueError("the U test needs a value on each side")
    values, rank, ties, i = sorted(list(a) + list(b)), {}, 0, 0
    while i < m + n:  # a value's rank: the mean of the places it holds; a group of t ties adds t³ − t
        j = i
        while j < m + n and values[j] == values[i]:
            j += 1
        rank[values[i]], ties, i = (i + 1 + j) / 2, ties + (j - i) ** 3 - (j - i), j
    far = abs(sum(rank[x] for x in a) - m * (m + 1) / 2 - m * n / 2) - 1e-9
    ranks = [rank[v] for v in values]
    if math.comb(m + n, m) <= EXACT:
        deals = [abs(sum(d) - m * (m + 1) / 2 - m * n / 2) >= far for d in itertools.combinations(ranks, m)]
        return sum(deals) / len(deals)
    var = m * n / 12 * (m + n + 1 - ties / ((m + n) * (m + n - 1)))
    return 1.0 if var <= 0 else math.erfc(max(0.0, far - 0.5) / math.sqrt(var) / math.sqrt(2))


EXACT = 200000  # the U test counts every deal up to this many (20 runs a side is 137,846,528,820)


def mib(kib):
    """KiB as MiB with one decimal; "-" for no figure."""
    return "-" if kib is None else f"{kib / 1024:.1f}"


def per_task(rss_kib, base_kib, n):
    """Bytes a task, from outside the program: (max RSS at N − max RSS at N = 1) × 1024 / N."""
    return (rss_kib - base_kib) * 1024 / n


def seconds(s):
    return f"{s:.2f}"


def minutes(s):
    """S seconds as "40 s", "12 min" or "2 h 05 min"."""
    m = (s + 59) // 60
    return f"{s} s" if s < 60 else f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


def spawn_ms(run):
    """How long spawning took, in ms: ours waits until every task has started (waiting_ms), a peer until its spawn
    loop returned (spawn_ms); "-" when the program says neither."""
    ms = run.get("waiting_ms")
    return ms if ms != "-" else run.get("spawn_ms")


def alive(run):
    """Were all N tasks alive at once? From the program's own count of tasks that had ended when the last began to
    wait (ended_at_spawn), and whether spawning outlasted the sleep (all existed, but the first were already due).
    Only a "yes" measures N tasks waiting at once: a task that ended freed memory that the max RSS then never holds."""
    ended = run.get("ended_at_spawn")
    if ended == "-":
        return "-"
    if num(ended) is None or not ended.isdigit():
        return f"? ended_at_spawn={ended}"
    if int(ended) > 0:
        return f"no: {ended} of {run.get('n')} had ended"
    ms, sleep = num(spawn_ms(run)), num(run.get("sleep_ms"))
    return "yes; spawning outlasted the sleep" if ms is not None and sleep is not None and ms > sleep else "yes"


def all_alive(run):
    return not alive(run).startswith("no")
