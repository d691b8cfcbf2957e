"""A section's table, every figure computed from the runs that measured it.

A section's record (run.py) names, for each row of its table, what ran and the plan line that measured it (its runs:
"SITTING/LINE") or why nothing did; `section` renders the section from that record and the runs. Every figure comes
from result.Run through stats: the run a row keeps, the spread over its runs, MiB, the N=1 baseline."""

import stats
from result import Run, num

# The columns' headers, by key: scenario runtime variant n tcell, the row's own (tcell: its threads cell); threads
# own_bytes frame late hits, the summary's threads=, bytes_per_task=, frame_bytes=, late_max_ms=, hits_per_s=; wall
# user sys, seconds from time; max_rss avg_rss, MiB: time's max RSS and the mean of run.sh's own 100 ms samples;
# rss_wait rss_avg, MiB: the summary's rss_wait_kib= and rss_avg_kib=; cpu, user + sys; spread, min–max of max RSS over
# the runs; base, the max RSS at N = 1; per_task, bytes/task from outside; spawn alive, how long spawning took and
# whether all N were alive at once.
HEADERS = {"scenario": "scenario", "runtime": "runtime", "variant": "variant", "n": "N", "threads": "threads",
           "tcell": "threads", "wall": "wall s", "user": "user s", "sys": "sys s", "spawn": "spawn s",
           "max_rss": "max RSS MiB", "avg_rss": "avg RSS MiB", "rss_wait": "RSS at wait MiB",
           "rss_avg": "own avg RSS MiB", "own_bytes": "bytes/task", "per_task": "bytes/task", "frame": "frame bytes",
           "late": "late max ms", "spread": "max RSS spread MiB", "base": "max RSS at N=1 MiB", "alive": "all alive",
           "hits": "hits/s", "cpu": "CPU s", "sweep:per_task": "bytes/task from max RSS",
           "sweep:own_bytes": "bytes/task from binary"}
# Each table's columns, scenario first: key, alignment (l or r), header ("KIND:KEY" in HEADERS: the table's own). A
# section of schema 2 on (store.SCHEMA) folds each best wall, CPU and max RSS's range over the runs into its cell; one
# before it has no CPU column and ends with the max RSS's spread, and renders again as it was written.
KEYS = {"plain": "variant n threads wall user sys cpu spawn max_rss avg_rss rss_wait rss_avg own_bytes frame late",
        "sweep": "variant n threads wall cpu max_rss rss_wait per_task own_bytes frame late",
        "peers": "runtime variant n tcell wall user sys cpu max_rss rss_wait avg_rss base per_task spawn alive hits"}
KEYS["peers_sweep"] = KEYS["peers"].replace(" base", "")
COLUMNS = {(kind, ranged): [(k, "l" if k in ("scenario", "runtime", "variant", "alive") else "r",
                             HEADERS.get(f"{kind}:{k}", HEADERS[k]))
                            for k in f"scenario {keys if ranged else keys.replace(' cpu', '') + ' spread'}".split()]
           for kind, keys in KEYS.items() for ranged in (False, True)}
# The figures whose range a ranged cell shows: each run's value and how it prints.
RANGED = {"wall": (lambda r: r.wall_s, stats.seconds), "cpu": (lambda r: r.cpu_s, stats.seconds),
          "max_rss": (lambda r: r.max_rss_kib, stats.mib)}
NOISE_NOTE = ("- Beside a figure, in brackets: its range over the row's runs, lowest–highest. † marks a wide one,"
              " whose range passes 10 % of its median: the best figure is then less sure than it looks"
              " (METHODOLOGY.md, \"Noise\").")
FIELDS = {"threads": "threads", "own_bytes": "bytes_per_task", "frame": "frame_bytes", "late": "late_max_ms",
          "hits": "hits_per_s"}


def escape(text):
    """TEXT fit for a table cell: its pipes escaped."""
    return str(text).replace("|", "\\|")


class Measured:
    """What a section's plan lines measured: their runs, by "SITTING/LINE"."""

    def __init__(self, records):
        self.runs = {}
        for r in records:
            if r.get("record") == "run" and "row" in r:
                self.runs.setdefault(f"{r['run']}/{r['row']}", []).append(r)

    def outcome(self, ref):
        """(why, runs) of plan line REF: why it has no figure (its failure), or its successful runs."""
        recs = self.runs.get(ref)
        if not recs:  # run.sh takes a kept result only with its records
            run, _, line = ref.rpartition("/")
            raise LookupError(f"the store holds no record of plan line {line} of run {run}")
        if recs[-1].get("failure"):
            return recs[-1]["failure"], []
        return None, [Run.of(r) for r in recs]

    def base(self, spec):
        """A row's N=1 baseline: the max RSS (KiB) of its plan line's kept run, or why there is none."""
        if "ref" in spec:
            why, runs = self.outcome(spec["ref"])
            return f"N=1 {why}" if why else stats.best(runs).max_rss_kib
        return spec.get("why", "")


def base_cell(base, n, run=None):
    """The max RSS at N = 1: BASE (KiB) in MiB, BASE itself when it says why there is none; without BASE, "RSS (this
    run)" when N is 1 and the row's own run is known, else "-"."""
    if base == "":
        return f"{stats.mib(run.max_rss_kib)} (this run)" if n == 1 and run else "-"
    return escape(base) if isinstance(base, str) else stats.mib(base)


def ranged(runs, value, show):
    """The best run's figure, then its range over RUNS where there are several, marked † where it is wide."""
    return stats.ranged(value(stats.best(runs)), [value(r) for r in runs], show)


def cell(key, runs, n, base, sweep, ranges=False):
    """Cell KEY of a row measured by RUNS; with RANGES, a wall, CPU or max RSS with its range."""
    b = stats.best(runs)
    if ranges and key in RANGED:
        return ranged(runs, *RANGED[key])
    if key in FIELDS:
        return b.get(FIELDS[key])
    if key == "cpu":
        return stats.seconds(b.cpu_s)
    if key in ("wall", "user", "sys"):
        return stats.seconds(getattr(b, key + "_s"))
    if key in ("max_rss", "avg_rss"):
        return stats.mib(getattr(b, key + "_kib"))
    if key in ("rss_wait", "rss_avg"):
        return stats.mib(num(b.get(key + "_kib")))
    if key == "spread":
        return "–".join(stats.mib(v) for v in stats.spread([r.max_rss_kib for r in runs]))
    if key == "base":
        return base_cell(base, n, b)
    if key == "per_task":
        per_task = "-" if isinstance(base, str) else f"{stats.per_task(b.max_rss_kib, base, n):.1f}"
        return "baseline" if sweep and n == 1 else per_task
    if key == "spawn":
        ms = stats.spawn_ms(b)
        return ms if ms == "-" else f"? {ms}" if num(ms) is None else stats.seconds(num(ms) / 1000)
    if key == "alive":
        return stats.alive(b)
    return f"?{key}"


def table(kind, rows, measured, ranges=False):
    """The table of a section: its header, then a line per row of its record."""
    cols = COLUMNS[kind, ranges]
    lines = ["| " + " | ".join(h for _, _, h in cols) + " |",
             "".join("|---" if a == "l" else "|--:" for _, a, _ in cols) + "|"]
    for row in rows:
        own = row["cells"]
        n = int(own["n"]) if str(own["n"]).isdigit() else own["n"]
        base = measured.base(row.get("base", {}))
        why, runs = (row["why"], []) if "why" in row else measured.outcome(row["ref"])
        cells = []
        for key, _, _ in cols:
            if key in own:
                cells.append(str(own[key]))
            elif why is not None:
                cells.append(escape(why) if key == "wall" else base_cell(base, 0) if key == "base" else "-")
            else:
                cells.append(cell(key, runs, n, base, kind in ("sweep", "peers_sweep"), ranges))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def section(context, records):
    """The section's text: its lines before the table, the table from the records, its notes (with the noise rule's,
    where a row has several runs, in a section of schema 2 on)."""
    measured, ranges = Measured(records), context.get("schema", 1) >= 2
    out = list(context["head"]) + table(context["kind"], context["rows"], measured, ranges) + [""]
    notes = list(context.get("notes") or [])
    if ranges and any(len(runs) > 1 for runs in measured.runs.values()):
        notes.append(NOISE_NOTE)
    if notes:
        out += notes + [""]
    return "\n".join(out) + "\n"
