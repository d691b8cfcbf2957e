"""A section's table, every figure computed from the runs that measured it.

A section's record (run.py) names, for each row of its table, what ran and the plan line that measured it (its runs:
"SITTING/LINE") or why nothing did; `section` renders the section from that record and the runs. Every figure comes
from result.Run through stats: the run a row keeps, the spread over its runs, MiB, the N=1 baseline."""

import stats
from result import Run, num

# The columns of each table: key, alignment (l or r), header. The keys: scenario runtime variant n tcell, the row's
# own (tcell: its threads cell); threads own_bytes frame late hits, the summary's threads=, bytes_per_task=,
# frame_bytes=, late_max_ms=, hits_per_s=; wall user sys, seconds from time; max_rss avg_rss, MiB: time's max RSS and
# the mean of run.sh's own 100 ms samples; rss_wait rss_avg, MiB: the summary's rss_wait_kib= and rss_avg_kib=;
# spread, min–max of max RSS over the runs; base, the max RSS at N = 1; per_task, bytes/task from outside; spawn
# alive, how long spawning took and whether all N were alive at once.
COLUMNS = {
    "plain": [
        ("scenario", "l", "scenario"), ("variant", "l", "variant"), ("n", "r", "N"),
        ("threads", "r", "threads"), ("wall", "r", "wall s"), ("user", "r", "user s"),
        ("sys", "r", "sys s"), ("spawn", "r", "spawn s"), ("max_rss", "r", "max RSS MiB"),
        ("avg_rss", "r", "avg RSS MiB"), ("rss_wait", "r", "RSS at wait MiB"),
        ("rss_avg", "r", "own avg RSS MiB"), ("own_bytes", "r", "bytes/task"),
        ("frame", "r", "frame bytes"), ("late", "r", "late max ms"),
        ("spread", "r", "max RSS spread MiB")],
    "sweep": [
        ("scenario", "l", "scenario"), ("variant", "l", "variant"), ("n", "r", "N"),
        ("threads", "r", "threads"), ("wall", "r", "wall s"), ("max_rss", "r", "max RSS MiB"),
        ("rss_wait", "r", "RSS at wait MiB"), ("per_task", "r", "bytes/task from max RSS"),
        ("own_bytes", "r", "bytes/task from binary"), ("frame", "r", "frame bytes"),
        ("late", "r", "late max ms"), ("spread", "r", "max RSS spread MiB")],
    "peers": [
        ("scenario", "l", "scenario"), ("runtime", "l", "runtime"), ("variant", "l", "variant"),
        ("n", "r", "N"), ("tcell", "r", "threads"), ("wall", "r", "wall s"),
        ("user", "r", "user s"), ("sys", "r", "sys s"), ("max_rss", "r", "max RSS MiB"),
        ("rss_wait", "r", "RSS at wait MiB"), ("avg_rss", "r", "avg RSS MiB"),
        ("base", "r", "max RSS at N=1 MiB"), ("per_task", "r", "bytes/task"),
        ("spawn", "r", "spawn s"), ("alive", "l", "all alive"), ("hits", "r", "hits/s"),
        ("spread", "r", "max RSS spread MiB")],
}
COLUMNS["peers_sweep"] = [c for c in COLUMNS["peers"] if c[0] != "base"]
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
            raise LookupError(f"the store holds no record of plan line {ref.rpartition('/')[2]} of run {ref.rpartition('/')[0]}")
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


def cell(key, runs, n, base, sweep):
    """Cell KEY of a row measured by RUNS."""
    b = stats.best(runs)
    if key in FIELDS:
        return b.get(FIELDS[key])
    if key in ("wall", "user", "sys"):
        return stats.seconds(getattr(b, key + "_s"))
    if key == "max_rss":
        return stats.mib(b.max_rss_kib)
    if key == "avg_rss":
        return stats.mib(b.avg_rss_kib)
    if key in ("rss_wait", "rss_avg"):
        return stats.mib(num(b.get(key + "_kib")))
    if key == "spread":
        lo, hi = stats.spread([r.max_rss_kib for r in runs])
        return f"{stats.mib(lo)}–{stats.mib(hi)}"
    if key == "base":
        return base_cell(base, n, b)
    if key == "per_task":
        if sweep and n == 1:
            return "baseline"
        return "-" if isinstance(base, str) else f"{(b.max_rss_kib - base) * 1024 / n:.1f}"
    if key == "spawn":
        ms = stats.spawn_ms(b)
        return ms if ms == "-" else f"? {ms}" if num(ms) is None else stats.seconds(num(ms) / 1000)
    if key == "alive":
        return stats.alive(b)
    return f"?{key}"


def table(kind, rows, measured):
    """The table of a section: its header, then a line per row of its record."""
    cols = COLUMNS[kind]
    lines = ["| " + " | ".join(h for _, _, h in cols) + " |", "".join("|---" if a == "l" else "|--:" for _, a, _ in cols) + "|"]
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
                cells.append(cell(key, runs, n, base, kind in ("sweep", "peers_sweep")))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def section(context, records):
    """The section's text: its lines before the table, the table from the records, its notes."""
    out = list(context["head"]) + table(context["kind"], context["rows"], Measured(records)) + [""]
    if context.get("notes"):
        out += context["notes"] + [""]
    return "\n".join(out) + "\n"
