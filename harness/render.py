"""A section's table from the store: every figure computed from the run records.

run.sh describes each row of its table (what ran, which plan line measured it, or why nothing did)
in the section's record; the figures come from the run records of that plan line: the run with the
lowest wall time, the spread of max RSS over the runs, the N=1 baseline. `table` renders it, and
`./run.sh --render SECTION` prints a section again from the store.
"""

from decimal import Decimal
from fractions import Fraction
import json
import re
import sys
from typing import NamedTuple

import store

# The columns of each table: key, alignment (l or r), header. The keys: scenario runtime variant n
# tcell, the row's own (tcell: its threads cell); threads own_bytes frame late, the summary's
# threads=, bytes_per_task=, frame_bytes=, late_max_ms=; wall user sys, seconds from time; max_rss
# avg_rss, MiB: time's max RSS and the mean of run.sh's own 100 ms samples; rss_wait rss_avg, MiB:
# the summary's rss_wait_kib= and rss_avg_kib=; spread, min–max of max RSS over the runs; base, the
# max RSS at N = 1; per_task, bytes/task from outside; spawn alive, how long spawning took and
# whether all N were alive at once; hits, the summary's hits_per_s=.
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
    "peers_sweep": [
        ("scenario", "l", "scenario"), ("runtime", "l", "runtime"), ("variant", "l", "variant"),
        ("n", "r", "N"), ("tcell", "r", "threads"), ("wall", "r", "wall s"),
        ("user", "r", "user s"), ("sys", "r", "sys s"), ("max_rss", "r", "max RSS MiB"),
        ("rss_wait", "r", "RSS at wait MiB"), ("avg_rss", "r", "avg RSS MiB"),
        ("per_task", "r", "bytes/task"), ("spawn", "r", "spawn s"), ("alive", "l", "all alive"),
        ("hits", "r", "hits/s"), ("spread", "r", "max RSS spread MiB")],
}

NUMBER = re.compile(r"^[0-9]+([.][0-9]+)?$")


# The figures, formatted as run.sh has always printed them: C's printf (through bash and awk), whose
# rounding these reproduce exactly.

def c_fixed(value, places):
    """The exact value (a Fraction) as C's printf("%.Nf") prints it: the nearest, a tie to even, and
    a negative value that rounds to nothing still "-0.0"."""
    scaled = abs(value) * 10 ** places
    whole = scaled.numerator // scaled.denominator
    rest = scaled - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):
        whole += 1
    sign = "-" if value < 0 else ""
    digits = str(whole).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def as_double(text):
    """TEXT as awk reads a number: its leading numeric prefix (0 without one), as a double."""
    m = re.match(r"^\s*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?", text)
    return Fraction(float(m.group(0))) if m else Fraction(0)


def as_long_double(text):
    """TEXT (a decimal) as bash's printf reads it on x86: the nearest x87 long double (64-bit
    mantissa). Elsewhere a long double is wider or a double, and a tie such as 2.675 could round
    the other way; time's figures have two decimals, so none of them is ever rounded."""
    exact = Fraction(Decimal(text.strip() or "0"))
    if exact == 0:
        return exact
    e = exact.numerator.bit_length() - exact.denominator.bit_length()
    while Fraction(2) ** e > abs(exact):
        e -= 1
    while Fraction(2) ** (e + 1) <= abs(exact):
        e += 1
    unit = Fraction(2) ** (e - 63)
    m = exact / unit
    whole = m.numerator // m.denominator
    rest = m - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):
        whole += 1
    return whole * unit


def seconds(text):
    """A time in seconds with two decimals, as bash's printf '%.2f' prints it."""
    return c_fixed(as_long_double(text), 2)


def mib(kib):
    """KiB as MiB with one decimal, "-" staying "-"."""
    if kib == "-":
        return "-"
    if re.fullmatch(r"[0-9]+", kib):
        return c_fixed(Fraction(int(kib), 1024), 1)
    return c_fixed(as_double(kib) / 1024, 1)


def escape(text):
    """TEXT fit for a table cell: its pipes escaped."""
    return text.replace("|", "\\|")


def field(summary, key):
    """The value of KEY in a key=value summary line (its last, if twice), "-" when absent."""
    value = "-"
    for word in summary.replace("\t", " ").split(" "):
        if word.startswith(key + "="):
            value = word[len(key) + 1:]
    return value


def spawn_ms(summary):
    """waiting_ms= if the summary has it (ours), else spawn_ms= (a peer's), else "-"."""
    ms = field(summary, "waiting_ms")
    return ms if ms != "-" else field(summary, "spawn_ms")


def spawn_s(summary):
    """Seconds from the first spawn until every task existed; whole ms round a half up, a peer's
    fraction as awk's %.2f rounds it; "-" when the program says neither, "? VALUE" for no number."""
    ms = spawn_ms(summary)
    if ms == "-":
        return "-"
    if not re.fullmatch(r"[0-9]+", ms):
        return c_fixed(Fraction(float(as_double(ms)) / 1000), 2) if NUMBER.match(ms) else f"? {ms}"
    r = (int(ms) + 5) // 10
    return f"{r // 100}.{r % 100:02d}"


def alive_cell(summary):
    """Were all N tasks alive at once: the program's own ended_at_spawn=, and whether spawning
    outlasted the sleep."""
    ended = field(summary, "ended_at_spawn")
    if ended == "-":
        return "-"
    if not re.fullmatch(r"[0-9]+", ended):
        return f"? ended_at_spawn={ended}"
    if int(ended) > 0:
        return f"no: {ended} of {field(summary, 'n')} had ended"
    ms, sleep = spawn_ms(summary), field(summary, "sleep_ms")
    outlasted = NUMBER.match(ms) and NUMBER.match(sleep) and as_double(ms) > as_double(sleep)
    return "yes; spawning outlasted the sleep" if outlasted else "yes"


def base_cell(base, n, rss=None):
    """The max RSS at N = 1: BASE (KiB) in MiB, BASE itself when it says why there is none; without
    BASE, "RSS (this run)" when N is 1 and the row's own RSS is known, else "-"."""
    if base == "":
        return f"{mib(rss)} (this run)" if n == 1 and rss is not None else "-"
    if not re.fullmatch(r"[0-9]+", base):
        return escape(base)
    return mib(base)


class Run(NamedTuple):
    """A run record's figures, each as the program and time printed it (the store keeps the numbers'
    text: load with keep_text): wall, user and sys seconds, max RSS (KiB), the means of run.sh's own
    samples, all of them and those in the scoreboard's window (KiB, "-" without one), the summary."""
    wall: str
    user: str
    sys: str
    rss: str
    avg: str
    win: str
    summary: str

    @classmethod
    def of(cls, record):
        t, s = record["time"], record["samples"]
        return cls(str(t["wall_s"]), str(t["user_s"]), str(t["sys_s"]), str(t["max_rss_kib"]),
                   "-" if s.get("avg_rss_kib") is None else str(s["avg_rss_kib"]),
                   "-" if s.get("window_avg_kib") is None else str(s["window_avg_kib"]),
                   " ".join(f"{k}={v}" for k, v in record["summary"].items()))

    def line(self):
        """Its figures on one line, in this order: of two runs as fast, the one whose line sorts
        first is kept, as run.sh has always kept it."""
        return " ".join(self)


def best_of(records):
    """(best, spread) of a configuration's successful runs: the run with the lowest wall time (a
    tie: the one whose line sorts first) and the min–max of max RSS in MiB."""
    runs = [Run.of(r) for r in records]
    best = min(runs, key=lambda r: (as_double(r.wall), r.line().encode()))
    rss = [int(r.rss) for r in runs]
    if len(runs) == 1:
        return best, f"{mib(str(rss[0]))}–{mib(str(rss[0]))}"
    return best, f"{c_fixed(Fraction(min(rss), 1024), 1)}–{c_fixed(Fraction(max(rss), 1024), 1)}"


def cell(key, best, spread, n, base, sweep):
    """The cell KEY of the run kept, best (a Run)."""
    simple = {"threads": "threads", "own_bytes": "bytes_per_task", "frame": "frame_bytes",
              "late": "late_max_ms", "hits": "hits_per_s"}
    if key in simple:
        return field(best.summary, simple[key])
    if key in ("wall", "user", "sys"):
        return seconds(getattr(best, key))
    if key == "max_rss":
        return mib(best.rss)
    if key == "avg_rss":
        return mib(best.avg)
    if key == "rss_wait":
        return mib(field(best.summary, "rss_wait_kib"))
    if key == "rss_avg":
        return mib(field(best.summary, "rss_avg_kib"))
    if key == "spread":
        return spread
    if key == "base":
        return base_cell(base, n, best.rss)
    if key == "per_task":
        if sweep and n == 1:
            return "baseline"
        if not re.fullmatch(r"[0-9]+", base):
            return "-"
        return c_fixed(Fraction(float((as_double(best.rss) - as_double(base)) * 1024) / n), 1)  # awk's double
    if key == "spawn":
        return spawn_s(best.summary)
    if key == "alive":
        return alive_cell(best.summary)
    return f"?{key}"


def table_head(kind):
    cols = COLUMNS[kind]
    return ["| " + " | ".join(h for _, _, h in cols) + " |",
            "".join("|---" if a == "l" else "|--:" for _, a, _ in cols) + "|"]


class Rows:
    """The run records of a section's sittings, by plan line: (sitting, row) -> records in order."""

    def __init__(self, records, sittings):
        self.by_ref = {}
        for r in records:
            if r["record"] == "run" and r["run"] in sittings and "row" in r:
                self.by_ref.setdefault((r["run"], str(r["row"])), []).append(r)

    def outcome(self, ref):
        """(why, best, spread) of the plan line REF ("SITTING/ROW"): why it has no figure (its
        failure, as the record says it), or its best run and spread."""
        sitting, _, row = ref.rpartition("/")
        runs = self.by_ref.get((sitting, row))
        if not runs:  # run.sh takes a kept result only with its records
            raise store.StoreError(f"the store holds no record of plan line {row} of run {sitting}", 1)
        if runs[-1].get("failure"):
            return runs[-1]["failure"], None, None
        best, spread = best_of(runs)
        return None, best, spread

    def base(self, spec):
        """The N=1 baseline of a row: the max RSS (KiB) of its plan line's best run, or why none."""
        if "ref" in spec:
            why, best, _ = self.outcome(spec["ref"])
            return f"N=1 {why}" if why else best.rss
        return spec.get("why", "")


def table(kind, rows, store_rows, sweep):
    """The table of a section: its header, then a line per row of the context."""
    lines = table_head(kind)
    for row in rows:
        own = row["cells"]
        n = int(own["n"]) if re.fullmatch(r"[0-9]+", str(own["n"])) else own["n"]
        base = store_rows.base(row.get("base", {}))
        why, best, spread = (row["why"], None, None) if "why" in row else store_rows.outcome(row["ref"])
        cells = []
        for key, _, _ in COLUMNS[kind]:
            if key in own:
                cells.append(str(own[key]))
            elif why is not None:
                cells.append(escape(why) if key == "wall" else base_cell(base, 0) if key == "base" else "-")
            else:
                cells.append(cell(key, best, spread, n, base, sweep))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def section(context, records):
    """The section's text: its lines before the table, the table from the records, its notes."""
    rows = Rows(records, set(context.get("runs") or [context["run"]]))
    out = list(context["head"])
    out += table(context["kind"], context["rows"], rows, context["kind"] in ("sweep", "peers_sweep"))
    out.append("")
    if context.get("notes"):
        out += context["notes"] + [""]
    return "\n".join(out) + "\n"


def this_sitting(run, stored, copy):
    """This sitting's records: the store's, or run.sh's copy of them where the store has fewer (a
    disk that filled as it wrote)."""
    mine = [r for r in stored if r["run"] == run]
    return mine if len(mine) >= len(copy) else copy


def load_or_none(path):
    """The store's records; none where it does not exist yet (no run has made a record)."""
    try:
        return store.load(path, keep_text=True)
    except store.NoStore:
        return []


def main(argv):
    """render.py --store PATH --records FILE --context FILE [--bars]: the section that FILE (a
    section record run.sh has not yet stored) describes, this sitting's records also in FILE, or
    with --bars a replication's chart's bars; render.py --store PATH --section SECTION: a stored
    section again."""
    bars = "--bars" in argv
    argv = [a for a in argv if a != "--bars"]
    opts = dict(zip(argv[::2], argv[1::2])) if len(argv) % 2 == 0 else {}
    if "--store" not in opts or len(opts.keys() & {"--context", "--section"}) != 1:
        print("run.sh: usage: ./run.sh --render SECTION", file=sys.stderr)
        return 2
    try:
        stored = load_or_none(opts["--store"])
        if "--context" in opts:
            with open(opts["--context"], encoding="utf-8") as f:
                context = json.loads(f.read(), parse_float=str, parse_int=str)
            copy = load_or_none(opts["--records"]) if "--records" in opts else []
            records = [r for r in stored if r["run"] != context["run"]] + this_sitting(context["run"], stored, copy)
        else:
            if not stored:
                raise store.StoreError(f"no store at {opts['--store']}: run.sh writes it with its first run")
            context = store.find_section(stored, opts["--section"])
            records = stored
        if context.get("kind") == "replicate" and "points" in context:
            import replicate  # which imports this module's figures
            text = "".join(f"{bar}\n" for bar in replicate.bars(context, records)) if bars else replicate.section(context, records)
        elif "rows" not in context or context.get("kind") == "replicate":
            raise store.StoreError(f"section {context.get('heading', context['run'])} was written"
                                   " before run.sh kept its tables in the store")
        else:
            text = section(context, records)
    except store.StoreError as e:
        print(f"run.sh: {e}", file=sys.stderr)
        return e.code
    except (OSError, ValueError, KeyError, ArithmeticError) as e:
        print(f"run.sh: harness/render.py could not render the section: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
