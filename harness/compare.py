"""`./run.sh --compare A B [md|csv|json]`: two runs of the store side by side, B against A. A and B are run ids or
sections' heading times, as --render takes them. For each configuration both hold (scenario, runtime, variant, N,
threads and the settings: the program's options and environment), each measure's best (the run stats.best keeps) and
range over the runs on both sides, the ratio B / A of the best figures, the noise rule's verdict and, from
stats.U_TEST_RUNS runs a side, the Mann–Whitney U test's p; then the geometric mean of the ratios per measure. "md"
(the default) writes Markdown; "csv" and "json" the comparison's rows, a configuration and measure each."""

import csv
import json
import math
import sys

import stats
import store
from render import escape
from result import Run

KEY = ("scenario", "runtime", "variant", "n", "threads", "options", "env")  # what makes two runs comparable
# Each measure: its name in csv and json, its header, its figure from a Run, and how Markdown prints it.
MEASURES = (("wall_s", "wall s", lambda r: r.wall_s, stats.seconds),
            ("cpu_s", "CPU s", lambda r: round(r.cpu_s, 3), stats.seconds),  # user + sys, without the float's dust
            ("max_rss_kib", "max RSS MiB", lambda r: r.max_rss_kib, stats.mib))
BY_NAME = {m[0]: m for m in MEASURES}
MACHINE = ("cpu", "cores", "memory")  # what makes a machine another; fresh memory varies from run to run on one


class Side:
    """One side: its name, its run ids, its configurations' records in the order first run, and its machine."""

    def __init__(self, path, key):
        try:
            section = store.find_section(path, key)
            self.ids = set(store.sittings(section))
            self.name = f"{section.get('heading', key)} (run {section['run']})"
            missing = store.StoreError(f"section '{key}' has no run record in the store")
        except store.StoreError as e:  # a run that wrote no section (it was stopped) is still a run
            self.ids, self.name = {key}, f"run {key}"
            missing = store.StoreError(str(e).replace(f"no section '{key}'", f"no section or run '{key}'", 1))
        recs = store.runs_of(path, self.ids)
        if not recs:
            raise missing
        self.configs = {}
        for r in recs:
            self.configs.setdefault(tuple(r.get(k) for k in KEY), []).append(r)
        self.machine = recs[0].get("machine") or {}

    def outcome(self, key):
        """(why, runs) of a configuration, as its table row has it: why its last run failed, else its runs."""
        recs = self.configs[key]
        return (recs[-1]["failure"], []) if recs[-1].get("failure") else (None, [Run.of(r) for r in recs])


def label(key):
    """A configuration as one line."""
    c = dict(zip(KEY, key))
    return f"{c['scenario']}, {c['runtime']}, {c['variant']}, N={c['n']}, threads {c['threads']}{settings(c, ', ')}"


def settings(c, sep=""):
    """A configuration's options and environment, where its variant does not already say them."""
    said = [f"options {c['options']}"] if c["options"] and c["options"] != c["variant"] else []
    return sep + "; ".join(said + ([f"env {c['env']}"] if c["env"] else [])) if said or c["env"] else ""


def figures(runs, get):
    """(best, lowest, highest, every value) of one measure over RUNS; Nones without runs."""
    values = [get(r) for r in runs]
    return (get(stats.best(runs)), min(values), max(values), values) if runs else (None, None, None, [])


def rows(path, key_a, key_b):
    """(A, B, the comparison's rows): a row per configuration and measure; those both hold first, then A's own, then
    B's own."""
    a, b = Side(path, key_a), Side(path, key_b)
    if a.ids == b.ids:
        raise store.StoreError(f"A and B are one run, {a.name}: name two")
    both = [k for k in a.configs if k in b.configs]
    if not both:
        raise store.StoreError(f"{a.name} and {b.name} have no configuration in common (scenario, runtime, variant,"
                               " N, threads and settings): nothing to compare")
    out = []
    for key in both + [k for k in a.configs if k not in b.configs] + [k for k in b.configs if k not in a.configs]:
        why_a, runs_a = a.outcome(key) if key in a.configs else (None, [])
        why_b, runs_b = b.outcome(key) if key in b.configs else (None, [])
        for name, _, get, _ in MEASURES:
            fa, fb = figures(runs_a, get), figures(runs_b, get)
            row = dict(zip(KEY, key), measure=name, a_runs=len(runs_a), a_best=fa[0], a_min=fa[1], a_max=fa[2],
                       b_runs=len(runs_b), b_best=fb[0], b_min=fb[1], b_max=fb[2], ratio=None, verdict="", p=None,
                       _a=fa[3], _b=fb[3])  # "_": the values, for Markdown's cells, not written to csv or json
            if key not in b.configs or key not in a.configs:
                row["verdict"] = "only in A" if key in a.configs else "only in B"
            elif why_a or why_b:
                row["verdict"] = "; ".join(f"failed in {s}: {w}" for s, w in (("A", why_a), ("B", why_b)) if w)
            else:
                row["ratio"] = fb[0] / fa[0] if fa[0] else None  # no ratio to a zero (CPU 0.00 s)
                row["verdict"] = stats.against(fa[3], fb[3])
                if min(len(runs_a), len(runs_b)) >= stats.U_TEST_RUNS:
                    row["p"] = stats.mann_whitney(fa[3], fb[3])
            out.append(row)
    if not any(r["a_runs"] and r["b_runs"] for r in out):
        raise store.StoreError(f"{a.name} and {b.name} have no configuration in common that ran on both sides:"
                               " nothing to compare")
    return a, b, out


def machine_lines(a, b):
    """What the reader must know first: whether A and B ran on one machine (CPU, cores and memory alike), and if not,
    what each was, with how fast it gave fresh memory."""
    def facts(m):
        return "; ".join(f"{name}: {m.get(k, 'unknown')}" for k, name in zip(MACHINE, ("CPU", "cores", "memory")))
    if not (a.machine and b.machine):  # records older than their machine field: nothing to say either way
        return ["A's or B's records do not name their machine.", ""]
    if all(a.machine.get(k) == b.machine.get(k) for k in MACHINE):
        return [f"A and B ran on one machine: {facts(a.machine)}.", ""]
    return ["**A and B ran on different machines**: each ratio below compares the machines as well as the runs.",
            f"- A: {facts(a.machine)}; fresh memory: {a.machine.get('fresh_memory', 'unknown')}",
            f"- B: {facts(b.machine)}; fresh memory: {b.machine.get('fresh_memory', 'unknown')}", ""]


def markdown(path, key_a, key_b, out):
    """The machines first; a table row per configuration both hold and measure; the geometric means; what was not
    compared; how to read it."""
    a, b, table = rows(path, key_a, key_b)
    lines = machine_lines(a, b) + [
        f"- A: {a.name}", f"- B: {b.name}", "",
        "| scenario | runtime | variant | N | threads | settings | measure | A best (range) | B best (range) |"
        " B / A | B against A | p |", "|---|---|---|--:|--:|---|---|--:|--:|--:|---|--:|"]
    ratios, apart = {name: [] for name, *_ in MEASURES}, {"only in A": [], "only in B": [], "failed": []}
    for r in table:
        key, (name, header, _, show) = tuple(r[k] for k in KEY), BY_NAME[r["measure"]]
        if not (r["a_runs"] and r["b_runs"]):  # only one side holds it, or a side's runs all failed
            if name == MEASURES[0][0]:  # a configuration once, not a measure
                group = r["verdict"] if r["verdict"].startswith("only") else "failed"
                apart[group].append(f"- {label(key)}" + ("" if group != "failed" else f": {r['verdict']}"))
            continue
        config = [escape(r[k]) for k in ("scenario", "runtime", "variant", "n", "threads")] + [
            escape(settings(r) or "-")] if name == MEASURES[0][0] else [""] * 6
        ratio = r["ratio"]
        cells = [stats.ranged(r[s + "_best"], r["_" + s], show) for s in ("a", "b")]
        lines.append("| " + " | ".join(config + [header] + cells + [
            "-" if ratio is None else f"{ratio:.3f}", r["verdict"],
            "-" if r["p"] is None else f"{r['p']:.3f}" if r["p"] >= 0.001 else "< 0.001"]) + " |")
        if ratio:
            ratios[name].append(ratio)
    means = [f"{header} {math.exp(sum(map(math.log, v)) / len(v)):.3f} ({len(v)} configuration{'s' * (len(v) != 1)})"
             for name, header, *_ in MEASURES for v in [ratios[name]] if v]
    lines += ["", "Geometric mean of B / A: " + ("; ".join(means) or "none (no ratio)") + ".", ""]
    for group, items in apart.items():
        lines += [f"{group[0].upper()}{group[1:]} ({len(items)}):"] + items + [""] if items else []
    lines += ["Each figure is the best run's (the run with the lowest wall time), then the range over the runs, † where"
              " that passes 10 % of its median. B against A: \"same within noise\" where the ranges overlap"
              " (METHODOLOGY.md, \"Noise\")." + (f" p: the two-sided Mann–Whitney U test's, from {stats.U_TEST_RUNS}"
                                                   " runs a side." if any(r["p"] is not None for r in table) else "")]
    out.write("\n".join(lines) + "\n")


def data_rows(path, key_a, key_b):
    """The rows as csv and json give them; that A and B ran on different machines is said on stderr."""
    a, b, table = rows(path, key_a, key_b)
    if a.machine and b.machine and any(a.machine.get(k) != b.machine.get(k) for k in MACHINE):
        print(f"run.sh: --compare: A and B ran on different machines: {' '.join(machine_lines(a, b)[1:3])}",
              file=sys.stderr)
    return [{k: round(v, 4) if k in ("ratio", "p") and v is not None else v for k, v in r.items() if k[0] != "_"}
            for r in table]


def to_csv(path, key_a, key_b, out):
    """A header of the rows' fields, then a line per row."""
    table = data_rows(path, key_a, key_b)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(table[0]))
    writer.writerows(["" if v is None else v for v in r.values()] for r in table)


def to_json(path, key_a, key_b, out):
    """One JSON array, a row a line."""
    out.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in data_rows(path, key_a, key_b)) + "\n]\n")


FORMATS = {"md": markdown, "csv": to_csv, "json": to_json}
