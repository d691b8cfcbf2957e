"""A write-up's replication: its data file read, its claims judged, its section rendered.

A write-up is one data file, peers/published/NAME.tsv (peers/README.md, "Published figures"). Its tables run as a
sweep per group of tables sharing their settings, each point one plan line ("ROW@GROUP" at N); the section's record
names each point's plan line, or why none ran, and carries the data file's text: the section renders from the store."""

import math
import os
import re
from collections import defaultdict, namedtuple
from itertools import product

import render
import settings
import stats
from render import escape
from result import num
from scenarios import SCENARIOS

# The scenarios whose coroutines wait on a sleep --peers lengthens to keep all alive at once (coro_timer, coro_shared).
WAITING = [s for s, d in SCENARIOS.items() if d["peers_sleep"] == "long" and not d["threads"]]

# The shapes whose N tasks (or threads) wait, each alive until its sleep ends: a claim on their memory is judged only
# on rows that held all N at once (METHODOLOGY.md, "Verdicts"). The measures of memory: a chart plots its table's
# first column of one.
HELD = [s for s, d in SCENARIOS.items() if d["peers_sleep"] == "long"]
MEMORY = ("max_rss", "max_rss_mean", "avg_rss", "avg_rss_window", "rss_wait")
# The settings under which tasks end by design, as others are still spawned: such a table's memory is not N tasks.
ENDING = {"MODE": "once", "BURST": None, "START": "eager"}

# The units a column may have: what each measures, and its size in the dimension's base unit (KiB, %, s).
UNITS = {"KB": ("mem", 1), "KiB": ("mem", 1), "KiB,": ("mem", 1), "MB": ("mem", 1024), "MiB": ("mem", 1024),
         "GB": ("mem", 1048576), "%": ("pct", 1), "s": ("time", 1), "ms": ("time", 0.001), "m:ss": ("time", 1)}
NUM = re.compile(r"^[0-9][0-9,]*([.][0-9]+)?$|^[0-9]+:[0-5][0-9]([.][0-9]+)?$")


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def published(path, tables=""):
    return Published(read(path), tables)


def numeric(v):
    """A published number in its unit's terms: "992,608" is 992608, "1:04" 64 seconds."""
    v = v.replace(",", "")
    m = re.fullmatch(r"([0-9]+):([0-9]+([.][0-9]+)?)", v)
    return int(m.group(1)) * 60 + float(m.group(2)) if m else float(v)


def is_value(v):
    """A published value: a number, or several readings joined by "/" (no stable value)."""
    return all(NUM.match(r) for r in v.split("/"))


def secs(ms):
    return "%g" % (float(ms) / 1000)


def span(lo, hi):
    """LO–HI to two decimals, or LO alone where the two print alike."""
    a, b = "%.2f" % lo, "%.2f" % hi
    return a if a == b else f"{a}–{b}"


def quick_n(n, quick):
    n = int(n)
    return n // 10 if quick and n >= 10 else n


# A table's bursts, as its published walls bound them: the least wall as printed and its unit, the bound it gives in ms
# (that wall and one more of its last printed place: a wall printed to the second, the hundredths cut, is below the next
# second), the sleep in ms that follows the pauses (in once mode the last task spawned, after the last pause, sleeps
# once before it counts, and the run ends after that count; else 0), the pauses (Published.pauses) and the longest pause
# that fits, in whole ms: every row paused as often, so the pauses and that sleep took less than the least wall; and
# the rows published at that least wall, whose wall a run at that pause nears (the others' can be longer).
class Walls(namedtuple("Walls", "shown unit bound_ms sleep_ms pauses pause_ms rows")):
    def fits(self, pause_ms):
        """Whether the pauses at PAUSE_MS each and the sleep after them take less than the walls' bound: were spawning
        free, a program pausing that long could have printed these walls."""
        return self.pauses * pause_ms + self.sleep_ms < self.bound_ms

    def said(self):
        """The arithmetic in words: the wall, its bound, what the sleep leaves of it, the pauses and the pause."""
        left = (f"; less the last task's {self.sleep_ms / 1000:g} s sleep before it counts, below"
                f" {(self.bound_ms - self.sleep_ms) / 1000:g} s" if self.sleep_ms else "")
        return (f"its least published wall, {self.shown}, is below {self.bound_ms / 1000:g} s{left}, so its at most"
                f" {self.pauses} pauses (N / BURST, rounded up) allow at most {self.pause_ms} ms each, if spawning took"
                " no time")


class Published:
    """The data file as records. A table is keyed by its id= (else its N); its settings (VAR=VALUE) make its group,
    one sweep over its tables' N. A figure is kept as printed and as its readings' lowest and highest in base units.
    A table may take its pause from another's published walls (BURST_PAUSE_MS=walls:KEY, replaced by the pause they
    allow) and stand beside another's published figures (figs=KEY, copied under its key): TABLES picks among the
    tables, EVERY holds them all; a reference that cannot be followed is in its table's "why", for Check."""

    def __init__(self, text, tables="", on_line=None):
        self.about, self.run, self.nobuild, self.groups, self.row = {}, {}, {}, {}, {}
        self.tables, self.cols, self.rows, self.facts, self.claims, self.causes, self.every = [], [], [], [], [], [], []
        self.measure, self.units, self.ctitle, self.fig, self.funit, self.figwhy = {}, {}, {}, {}, {}, {}
        self.rowunit, self.lo, self.hi, self.shown, self.npub, self.walls, self.figkeys = {}, {}, {}, {}, {}, {}, set()
        picked = tables.split()
        for number, line in enumerate(text.split("\n"), 1):
            if line[:1] in ("#", ""):
                continue
            f = line.split("\t")
            nf = len(f)
            f += [""] * (8 - nf)  # padded with empty fields
            kind, attrs = f[0], f[3:nf]
            if kind in ("about", "run", "nobuild"):
                getattr(self, kind)[f[1]] = f[2]
            elif kind == "table":
                key = ([f[1]] + [a[3:] for a in attrs if a.startswith("id=")])[-1]
                sets = " ".join(a for a in attrs if "=" in a and not a.startswith(("id=", "figs=")))
                self.every.append({"n": f[1], "title": f[2], "key": key, "set": sets, "line": number,
                                   "scen": attrs[0] if attrs and "=" not in attrs[0] else "-",
                                   "figs": ([None] + [a[5:] for a in attrs if a.startswith("figs=")])[-1],
                                   "bad": ([None] + [a for a in attrs[1:] if "=" not in a])[-1], "why": []})
                if not picked or key in picked:
                    self.tables.append(self.every[-1])
            elif kind == "column":
                self.cols.append(f[1])
                self.measure[f[1]], self.units[f[1]], self.ctitle[f[1]] = f[2:5]
            elif kind == "row":
                self.rows.append(f[1])
                self.row[f[1]] = dict(zip(("scen", "prog", "variant", "threads", "label"), f[2:7]))
            elif kind == "fig":
                k = (f[1], f[2], f[3])
                self.fig[k], self.funit[k] = f[4], f[5]
                self.figkeys.add(f[2])
                if f[4] == "-":
                    self.figwhy[k] = f[6]
                else:
                    self.rowunit[f[1], f[3]] = f[5]
                if is_value(f[4]) and f[5] in UNITS:
                    readings = [numeric(r) * UNITS[f[5]][1] for r in f[4].split("/")]
                    self.lo[k], self.hi[k], self.shown[k] = min(readings), max(readings), f[4]
                    self.npub[f[2], f[3]] = self.npub.get((f[2], f[3]), 0) + 1
            elif kind == "fact":
                self.facts.append(dict(zip(("id", "key", "value", "words"), f[1:5])))
            elif kind == "claim":
                self.claims.append(dict(zip(("expr", "answer", "words", "precise", "pwords"), f[1:6]), line=number))
            elif kind == "cause":
                self.causes.append({"rows": f[1].split(","), "tables": f[2].split(","), "words": f[3],
                                    "command": f[4], "line": number})
            if on_line:
                on_line(self, f, nf, number)
        for t in self.every:
            self.follow(t)
        for t in self.tables:  # a group per set of settings, once each table's pause is a number
            t["group"] = self.groups.setdefault(t["set"], len(self.groups) + 1)

    def table(self, key):
        return next((t for t in self.every if t["key"] == key), None)

    def settings(self, t):
        """Table T's settings over the run lines', by name."""
        return dict(self.run, **dict(a.split("=", 1) for a in t["set"].split()))

    def walls_of(self, key):
        """Table KEY's Walls, from its published walls, or why they bound no pause."""
        t = self.table(key)
        if t is None:
            return f"no table {key}"
        burst = self.settings(t).get("BURST", "")
        if not burst.isdigit() or int(burst) < 1:
            return f"table {key} has no bursts (no BURST), so its walls bound no pause"
        if int(t["n"]) <= int(burst):  # one burst: no program pauses
            return f"table {key} never pauses (N={t['n']}, BURST={burst}), so its walls bound no pause"
        pauses = self.pauses(t)
        readings = [(numeric(r) * UNITS[self.funit[f]][1], r, self.funit[f], f[0]) for f, v in self.fig.items()
                    if f[1] == key and self.measure.get(f[2]) in ("wall", "wall_mean") and is_value(v)
                    and self.funit[f] in UNITS for r in v.split("/")]
        if not readings:
            return f"table {key} has no published wall"
        least, shown, unit, _ = min(readings)
        place = 10 ** -len(shown.partition(".")[2]) * UNITS[unit][1]
        bound_ms = round((least + place) * 1000)
        sleep = int(self.sleep_of(t["set"]) or 0) if self.settings(t).get("MODE") == "once" else 0
        if bound_ms <= sleep:
            return f"table {key}'s least wall, {shown}, leaves no time for a pause beside its {sleep} ms sleep"
        rows = tuple(dict.fromkeys(x[3] for x in readings if x[0] == least))
        return Walls(shown, unit, bound_ms, sleep, pauses, (bound_ms - sleep - 1) // pauses, rows)

    def pauses(self, t):
        """The most pauses table T's bursts may take, N / BURST rounded up, for a bound that holds however the write-up
        paused: ours pause between bursts, (N − 1) // BURST times; a loop that pauses after each burst, or before each
        (at i % BURST == 0 from 0), pauses up to N / BURST times, rounded up."""
        return -(-int(t["n"]) // int(self.settings(t)["BURST"]))

    def follow(self, t):
        """Table T's pause from another's walls and its figures from another's, where it names them."""
        words = t["set"].split()
        w = next((x for x in words if x.startswith("BURST_PAUSE_MS=walls:")), None)
        if w is not None:
            key = w.partition(":")[2]
            got = self.walls_of(key)
            if isinstance(got, str):
                t["why"].append(f"{w}: {got}")
                words.remove(w)  # refused once, by Check: not again by the settings' check
            else:
                self.walls[key], t["walls"] = got, key
                words[words.index(w)] = f"BURST_PAUSE_MS={got.pause_ms}"
            t["set"] = " ".join(words)
        k = t["figs"]
        if k is None:
            return
        src = self.table(k)
        mine, theirs = [{a for a in x["set"].split() if not a.startswith("BURST_PAUSE")} if x else set()
                        for x in (t, src)]
        why = ("names this table itself" if k == t["key"] else f"no table {k}" if src is None
               else f"table {k} stands beside another's figures itself (figs={src['figs']})" if src["figs"]
               else f"table {k} is at N={src['n']}, this one at N={t['n']}" if src["n"] != t["n"]
               else f"table {k} holds other rows ({src['scen']}, this one {t['scen']})" if src["scen"] != t["scen"]
               else f"it differs from {k} in more than its pause: {' '.join(sorted(mine ^ theirs))}" if mine != theirs
               else None)
        if why:
            t["why"].append(f"figs={k}: {why}")
            return
        for a in [x for x in self.fig if x[1] == k]:
            b = (a[0], t["key"], a[2])
            self.fig[b], self.funit[b] = self.fig[a], self.funit[a]
            for d in (self.figwhy, self.lo, self.hi, self.shown):
                if a in d:
                    d[b] = d[a]
        self.npub.update({(t["key"], c): v for (x, c), v in list(self.npub.items()) if x == k})

    def label(self, id_):
        return self.row[id_]["label"] if id_ in self.row else ""

    def sleep_of(self, sets):
        """The SLEEP_MS a table's settings give, else the run lines'."""
        m = re.search(r"(?:^| )SLEEP_MS=([0-9]+)", sets)
        return m.group(1) if m else self.run.get("SLEEP_MS", "")


# The figures to judge a claim on, published or measured here: lowest, highest and as shown, by (row, table, column);
# here, under the verdict rule, also each run's value (VALS) and why a figure may not be judged (WHY).
Figures = namedtuple("Figures", "lo hi shown vals why", defaults=(None, None))

# The verdict rule's four answers (METHODOLOGY.md, "Verdicts"); "cannot be told" carries its reason.
YES, NO, CLOSE, UNTOLD = "yes", "no", "too close to call here", "cannot be told"


class Unknown(Exception):
    """A term of a claim has no figure that may be judged: the claim cannot be told, for the reason given."""


class Judge:
    """A claim's verdict on one set of figures, and the figures it was judged on. Several comparisons joined by " and "
    must all hold: one that does not decides "no", though another cannot be told. Where a figure has several readings,
    "A below B" holds only if every reading of A is below every reading of B. Under the verdict RULE (the figures
    here, in a section of schema 3 on) a figure is its runs' range, and two that overlap are too close to call
    (stats.against); a comparison with a figure of one run, or one that WHY names, cannot be told, and every row of a
    min or max must have a figure here. Else the answers are yes, no and "cannot tell" (a term with no figure), as
    sections before the rule were judged. TOUCHED: the rows the last claim was judged on."""

    def __init__(self, pub, labels, rule=False):
        self.pub, self.labels, self.rule, self.touched = pub, labels, rule, {}

    def value(self, id_, t, col, figs, summed=False):
        """(lo, hi, shown, runs' values, why it cannot be told or None) of row ID at table T in COL ("A+B": the sum of
        two columns, run by run), or None; shown with its unit where a column mixes units or a claim sums two
        (SUMMED). Under the rule, a figure of one run, or one WHY names, cannot be told."""
        if "+" in col:
            a, b = [self.value(id_, t, c, figs, True) for c in col.split("+")[:2]]
            return None if a is None or b is None else (a[0] + b[0], a[1] + b[1], a[2] + " + " + b[2],
                                                        [x + y for x, y in zip(a[3], b[3])], a[4] or b[4])
        k, units = (id_, t, col), self.pub.units.get(col, "")
        if k not in figs.lo:
            return None
        self.touched[id_] = None
        vals = (figs.vals or {}).get(k, [])
        why = None if not self.rule else f"{UNTOLD} here: {figs.why[k]}" if k in figs.why \
            else stats.ONE_RUN if len(vals) < 2 else None  # one run has no range
        unit = " " + self.pub.funit.get(k, units.split("/")[0]) if "/" in units or summed else ""
        return figs.lo[k], figs.hi[k], figs.shown[k] + unit, vals, why

    def below(self, a, b):
        """Whether figure A lies wholly below B: True or False; under the rule, CLOSE where their ranges overlap, and
        why it cannot be told where either figure cannot be (an answer that starts with UNTOLD)."""
        if not self.rule:
            return a[1] < b[0]
        return a[4] or b[4] or {"lower": True, "higher": False}.get(stats.against(b[3], a[3]), CLOSE)

    def judge(self, expr, figs):
        """(answer, figures): yes, no, too close to call or cannot be told (its reason after a colon) under the rule,
        else yes, no or cannot tell."""
        answers, parts, self.touched = [], [], {}
        for one in expr.split(" and "):
            try:
                holds, figures = self.judge_one(one.split(), figs)
                answers.append(YES if holds is True else NO if holds is False else holds)
            except Unknown as e:
                answers.append(f"{UNTOLD} here: {e}" if self.rule else "cannot tell")
                figures = "-"
            parts.append(figures)
        return every(answers), "; ".join(parts)

    def judge_one(self, w, figs):
        """Whether the comparison of words W holds (True, False, CLOSE or why it cannot be told), and its figures;
        Unknown where a term has no figure."""
        w, label, below = [""] + w, self.labels, self.below

        def missing(row, t):
            return f"{label(row)} is not to be had here" if self.pub.row.get(row, {}).get("prog") == "-" \
                else f"{label(row)} has no figure here in table {t}"

        def value(row, t, col):
            v = self.value(row, t, col, figs)
            if v is None:
                raise Unknown(missing(row, t))
            return v

        if w[1] in ("min", "max"):
            col, t, target, lowest = w[2], w[4], w[6], w[1] == "min"
            x = value(target, t, col)
            found = [(r, v) for r in self.pub.rows if (v := self.value(r, t, col, figs)) is not None]
            best, b = min(found, key=lambda rv: rv[1][0] if lowest else -rv[1][1])
            results = [below(x, v) if lowest else below(v, x) for r, v in found if r != target]
            if self.rule:  # every row published there is a term: one with no figure here cannot be set against
                results += [f"{UNTOLD} here: {missing(r, t)}" for r in self.pub.rows
                            if (r, t, col.split("+")[0]) in self.pub.lo and all(r != f for f, _ in found)]
            figures = f"{label(best)} {b[2]}" + ("" if best == target else f"; {label(target)} {x[2]}")
            npub = self.pub.npub.get((t, col), 0)
            if len(found) < npub:
                figures += f" (of the {len(found)} rows with a figure, where {npub} have one published)"
            return every(results), figures
        if w[1] == "ratio":
            x, v, m = value(w[5], w[7], w[2]), value(w[3], w[7], w[2]), numeric(w[9])
            if x[0] == 0:
                raise Unknown(f"{label(w[5])} is 0")
            r, b_v = v[0] / x[1], v[1] / x[0]
            mx = (m * x[0], m * x[1], "", [m * e for e in x[3]], x[4])  # A / B > M is A > M × B, run by run
            holds = below(mx, v) if w[8] == ">" else below(v, mx)
            return holds, f"{label(w[3])} / {label(w[5])} = {span(r, b_v)}"
        if w[1] == "chain":
            # Groups of terms ranked together ("~"), each wholly below ("<") or above (">") the next; a group's
            # range pools its terms' runs.
            figures, groups = "", []
            for i in range(3, len(w), 2):
                row, t = w[i].split("@")
                v = value(row, t, w[2])
                figures += (f" {w[i - 1]} " if i > 3 else "") + f"{label(row)}@{t} {v[2]}"
                if i == 3 or w[i - 1] != "~":
                    groups.append([v[0], v[1], "", list(v[3]), v[4], w[i - 1]])
                else:
                    g = groups[-1]
                    g[:5] = min(g[0], v[0]), max(g[1], v[1]), "", g[3] + list(v[3]), g[4] or v[4]
            return every([below(p, g) if g[5] == "<" else below(g, p) for p, g in zip(groups, groups[1:])]), figures
        x, v = value(w[4], w[6], w[1]), value(w[2], w[6], w[1])
        return below(v, x) if w[3] == "<" else below(x, v), f"{label(w[2])} {v[2]}, {label(w[4])} {x[2]}"


def every(results):
    """Comparisons that must all hold, as one: "no" (False) if one is, else the first that cannot be told, else too
    close to call if one is, else yes (True); kept in the kind given (True/False, or the answers' words)."""
    untold = [a for a in results if isinstance(a, str) and a.startswith((UNTOLD, "cannot tell"))]
    for decides in ([x for x in results if x is False or x == NO], untold, [x for x in results if x == CLOSE]):
        if decides:
            return decides[0]
    return YES if any(isinstance(x, str) for x in results) else True


def point_values(points, measured):
    """Each point's figures by (label, N): why it has none, or its kept run and its runs' mean wall and max RSS."""
    values = {}
    for p in points:
        why, runs = (p["why"], []) if "ref" not in p else measured.outcome(p["ref"])
        b = None if why is not None else stats.best(runs)
        values[p["label"], str(p["n"])] = {"why": why} if why is not None else {
            "why": "-", "run": b, "runs": runs, "alive": stats.alive(b),
            "wall_mean": sum(r.wall_s for r in runs) / len(runs),
            "max_rss_mean": sum(r.max_rss_kib for r in runs) / len(runs)}
    return values


class Section:
    """The section's tables, claims and differences, from the data file, the points' figures and the programs here."""

    def __init__(self, context, records):
        self.ctx, self.values = context, point_values(context["points"], render.Measured(records))
        self.pub = Published(context["published"], context.get("tables", ""))
        self.quick, self.long_ms = context.get("quick", "") != "", context["long_ms"]
        self.ranges, self.ranged = context.get("schema", 1) >= 2, False  # schema 2 on: each figure's range beside it
        self.rule = context.get("schema", 1) >= 3  # schema 3 on: the claims judged by the verdict rule
        # What text() sets against the write-up, for gaps(): each headline figure's ratio and each claim's answers.
        self.head_col, self.ratios, self.claimed = headline(self.pub), [], []
        here = context["here"]
        self.here = {h[0]: dict(zip(("label", "variant", "prog", "state"), h[1:5])) for h in here}
        self.ours = [h[0] for h in here if h[0].startswith("ours:")]
        # A row's copies (ID+SET: PEERS_PATCH, PEERS_DOTNET) that were built, or failed to be, stand under it.
        self.base = {h[0]: h[0].rpartition("+")[0] for h in here if not h[0].startswith("ours:")
                     and re.search(r"[+][0-9]+$", h[0]) and (h[4] == "ok" or h[4].startswith("build failed"))}
        self.copies = {b: [c for c in self.base if self.base[c] == b] for b in self.base.values()}
        self.order = [x for r in self.pub.rows for x in [r] + self.copies.get(r, [])] + self.ours
        self.rscen = {r: self.pub.row[r]["scen"] for r in self.pub.rows}
        self.rscen.update({id_: self.here[id_]["prog"] for id_ in self.ours})
        self.rscen.update({c: self.rscen.get(b, "") for c, b in self.base.items()})
        self.long_of, self.long_n = {}, {}  # the groups that run a scenario again at --peers' sleep
        for number, _, n, scen, of in (g for g in groups(self.pub, self.quick, self.long_ms) if len(g) == 5):
            self.long_n[number] = n
            self.long_of.update({(int(o), scen): number for o in of.split(",")})

    def base_of(self, id_):
        return self.base.get(id_, id_)

    def figure(self, l, n, m, u, run=None):
        """Label L's (ROW@GROUP) figure here at N of measure M in unit U, as the table shows it, of its kept run (or of
        RUN, one of its runs; a mean then that run's own figure); "" for none."""
        v = self.values.get((l, str(n)))
        if v is None or v["why"] != "-":
            return ""
        size, r = UNITS[u][1], run or v["run"]
        if "rss" in m:
            kib = {"max_rss": r.max_rss_kib, "avg_rss": r.avg_rss_kib, "rss_wait": num(r.get("rss_wait_kib")),
                   "avg_rss_window": r.window_avg_kib,
                   "max_rss_mean": r.max_rss_kib if run else v["max_rss_mean"]}[m]
            if kib is None:
                return ""
            return f"{int(kib):,}" if u == "KiB," else "%.2f" % (kib / size) if u == "GB" \
                else "%.1f" % (kib / size) if size > 1 else "%d" % int(kib / size)
        if m == "cpu_pct":
            return "%d" % int(r.cpu_s / r.wall_s * 100 + 0.5) if r.wall_s > 0 else ""
        x = {"wall": r.wall_s, "user": r.user_s, "sys": r.sys_s, "wall_mean": r.wall_s if run else v["wall_mean"]}[m]
        return "%d:%02d" % (int(x / 60), int(x) % 60) if u == "m:ss" else "%.2f" % (x * 1000 if u == "ms" else x)

    def spread(self, shown):
        """In a section of schema 2 on, " (LOW–HIGH)" of a figure over its runs, each as SHOWN, " †" after it where that
        is wide (stats.wide); "" for a single run."""
        if not self.ranges or len(shown) < 2 or "" in shown:
            return ""
        self.ranged = True
        xs = [numeric(h) for h in shown]
        lo, hi = shown[xs.index(min(xs))], shown[xs.index(max(xs))]
        return f" ({lo}–{hi})" + (" †" if stats.wide(xs) else "")

    def untold(self, id_, measure, runs):
        """Under the rule, why a memory figure of row ID's waiting tasks may not be judged: not every run held all N
        at once (stats.alive; the most that had ended, in how many runs). A program that does not say (a thread per
        task) is read by its wall time: its spawning took at most wall − sleep, so a wall under twice the sleep held
        all. None where it may be judged."""
        if measure not in MEMORY or self.rscen.get(id_, "") not in HELD:
            return None
        ended, unsaid = [], 0
        for r in runs:
            said, ms = stats.alive(r), num(r.get("sleep_ms"))
            if said.startswith("no: "):
                ended.append(said[len("no: "):])
            elif said.startswith("?") or (said == "-" and (ms is None or r.wall_s >= 2 * ms / 1000)):
                unsaid += 1
        if ended:
            most = max(ended, key=lambda e: int(e.split(" ")[0]))
            return most + (f" (in {len(ended)} of its {len(runs)} runs)" if len(runs) > 1 else "")
        return (f"it does not say whether all N were alive at once, and its wall time does not show it"
                f" (in {unsaid} of its {len(runs)} runs)") if unsaid else None

    def keep(self, figs, k, shown, vals, why, long):
        """Under the rule, figure K (row, table, column) for the claims: its runs' values, and why it may not be judged.
        The row again at --peers' sleep (LONG) stands in for its row where that one's tasks were not all alive and its
        own were, and the claim's line says so."""
        who = self.pub.label(self.base_of(k[0])) or self.here.get(k[0], {}).get("label", k[0])
        if not long:
            figs.lo[k], figs.hi[k], figs.shown[k], figs.vals[k] = min(vals), max(vals), shown, vals
            if why:
                figs.why[k] = f"{who}: {why}"
        elif k in figs.why and why is None:
            figs.lo[k], figs.hi[k], figs.vals[k] = min(vals), max(vals), vals
            figs.shown[k] = f"{shown} (at a {secs(self.long_ms)} s sleep, all alive)"
            del figs.why[k]
        elif k in figs.why:
            figs.why[k] += f"; at a {secs(self.long_ms)} s sleep, {why}"

    def unit_of(self, id_, t, c):
        """Row ID's unit in column C of table T: its figure's there, else its row's elsewhere, else C's first."""
        return self.pub.funit.get((id_, t, c), self.pub.rowunit.get((id_, c), self.pub.units[c].split("/")[0]))

    def row(self, t, n, id_, l, long, mine_figs):
        """The line of row ID in table T, its figures those of label L at N; LONG: the row again at --peers' sleep,
        with no published figure beside it. Keeps each figure for the claims."""
        pub, b = self.pub, self.base_of(id_)
        ours = id_.startswith("ours:")
        nowhere = not ours and pub.row[b]["prog"] == "-"
        v = self.values.get((l, str(n)))
        here = ("not to be had here" if nowhere else "-" if id_ not in self.here
                else escape(self.here[id_]["label"] + (f", at a {secs(self.long_ms)} s sleep" if long else "")))
        line = f"| {escape('-' if ours else pub.label(b))} | {here} |"
        state = self.here.get(id_, {}).get("state", "")
        none = "-" if nowhere else v["why"] if v is not None else "-" if state in ("", "ok") else f"not run: {state}"
        for c, col in enumerate(pub.cols):
            u = self.unit_of(b, t["key"], col)
            h = self.figure(l, n, pub.measure[col], u)
            each = [self.figure(l, n, pub.measure[col], u, r) for r in (v or {}).get("runs", [])]  # run by run
            rng = self.spread(each) if h else ""
            fk, hk = (b, t["key"], col), (id_, t["key"], col)
            p = pub.fig.get(fk, "")
            x = None if h == "" else numeric(h) * UNITS[u][1]
            if x is not None and self.rule:
                self.keep(mine_figs, hk, h, [numeric(e) * UNITS[u][1] for e in each if e != ""],
                          self.untold(b, pub.measure[col], v["runs"]), long)
            elif x is not None and not long:
                mine_figs.lo[hk], mine_figs.hi[hk], mine_figs.shown[hk] = x, x, h
            h = h or (none if c == 0 else "-")
            ra = span(x / pub.hi[fk], x / pub.lo[fk]) if x is not None and fk in pub.lo and pub.lo[fk] > 0 else "-"
            if col == self.head_col and ra != "-" and not self.quick:  # a row at 30 s too, against its row's figure
                self.ratios.append((t, id_, long, x / pub.hi[fk], x / pub.lo[fk], ra))
            if "/" in pub.units[col]:  # a column of mixed units says each figure's
                h += " " + u if x is not None else ""
                p += " " + pub.funit[fk] if p not in ("", "-") else ""
            h += rng
            cells = [h] if self.quick else [h, "", ""] if ours or long else [h, p or "-", ra]
            line += "".join(f" {escape(cell)} |" for cell in cells)
        return line + " " + escape((v or {}).get("alive") or "-") + " |"

    def text(self):
        pub, quick, out, mine = self.pub, self.quick, [], Figures({}, {}, {}, {}, {})
        notes, shorts = {}, {}  # each once, in order
        for t in pub.tables:
            n = quick_n(t["n"], quick)
            sets = t["set"].replace(" ", ", ")
            out += [f"### {t['title']}" + (f" ({sets})" if sets else "")
                    + (f" (here N={n}, --quick)" if quick and n != int(t["n"]) else ""), ""]
            cells = []  # --quick measures at N / 10: no published figure stands beside it
            for col in pub.cols:
                u = "KiB" if pub.units[col] == "KiB," else pub.units[col]
                cells += [f"{pub.ctitle[col]} here {u}"] + ([] if quick else [f"published {u}", "here / published"])
            out += ["| runtime there | runtime here |" + "".join(f" {c} |" for c in cells) + " all alive |",
                    "|---|---|" + "--:|" * len(cells) + "---|"]
            for id_ in self.order:
                scen = self.rscen.get(self.base_of(id_), "")
                if t["scen"] != "-" and scen != t["scen"]:
                    continue
                out.append(self.row(t, n, id_, f"{id_}@{t['group']}", False, mine))
                # At the group's largest N, the row again at --peers' sleep.
                lg = self.long_of.get((t["group"], scen))
                if lg is not None and n == int(self.long_n[lg]) and (id_.startswith("ours:")
                                                                     or pub.row[self.base_of(id_)]["prog"] != "-"):
                    out.append(self.row(t, n, id_, f"{id_}@{lg}", True, mine))
                    shorts[secs(pub.sleep_of(t["set"])) + " s"] = None
            if self.rule and (ends := self.ending(t)):
                notes[f"- {t['title']}: its tasks end by design ({ends}) as others are still spawned, so its memory is"
                      " not N tasks at once: its claims are judged as it ran"] = None
            # A row with no published figure in several columns, for one reason: one line.
            notes.update(dict.fromkeys(f"- {pub.label(r)}, {t['title']}: published \"-\": {pub.figwhy[k]}"
                                       for r in pub.rows for col in pub.cols for k in [(r, t["key"], col)]
                                       if k in pub.figwhy))
            out.append("")
        out += notes
        runs, about = self.ctx["runs_here"], defaultdict(str, pub.about)
        if shorts:
            out.append(f"- \"at a {secs(self.long_ms)} s sleep\": the row's program again at that N, with --peers'"
                       f" sleep instead of the write-up's ({', '.join(shorts)}). A task that ends before the last one"
                       " is spawned frees memory that the max RSS then never holds, and spawning N tasks here can take"
                       " longer than the write-up's sleep (the fresh-memory line above says why), so only a row whose"
                       " tasks were all alive measures N tasks waiting at once. The published figure was measured at"
                       " the write-up's sleep, so none stands beside this row")
        if "figures" in about:
            out.append(f"- published: none here: {about['figures']}")
        out.append(("- each figure here" if quick else "- here / published: the figure measured here over the"
                    " one published (over its lowest and highest reading where it printed several); each figure here")
                   + f" is the run with the lowest wall time of RUNS={runs}, "
                   + ("" if self.rule else "max RSS and CPU from /usr/bin/time (CPU % = (user + sys) / wall), ")
                   + f"{'in' if quick else 'converted to'} the write-up's unit as it defined it: {about['unit']}")
        out += [self.columns_said()] if self.rule else []  # from schema 3 on, each column's measure
        out.append("- the write-up: \"{title}\", {author}, {published} ({url}), read {read}; its machine: {machine};"
                   " its versions: {versions}; its runs: {runs}".format_map(about))
        out += [f"- its claims are judged on: {about['judged']}"] if about["judged"] else []
        out += self.ctx.get("notes", []) + ([render.NOISE_NOTE] if self.ranged else []) + [""]
        # The published side is judged as printed; the side here by the verdict rule, in a section of schema 3 on.
        judged_on, there_judge, judge = self.judged_on(mine), Judge(pub, pub.label), Judge(pub, pub.label, self.rule)
        if pub.claims and quick:
            out += ["- its claims: not judged with --quick, whose N are not the write-up's", ""]
        if pub.claims and not quick:
            out += ["### Its claims, checked", "", "| claim | published | holds there? | here | holds here? |",
                    "|---|---|---|---|---|"]
            published, answers = Figures(pub.lo, pub.hi, pub.shown), {"as stated": [], "precisely": []}
            for c in pub.claims:
                precise = [("precisely: " + c["pwords"], c["precise"])] if c["precise"] else []
                for words, expr in [(c["words"], c["expr"])] + precise:
                    (there, there_figs), (here, here_figs) = there_judge.judge(expr, published), judge.judge(expr, mine)
                    there = f"{UNTOLD}: not published" if self.rule and there == "cannot tell" else there
                    answers["precisely" if words != c["words"] else "as stated"].append((there, here))
                    self.claimed.append((words, expr, there, here, list(judge.touched)))
                    on = "; ".join(self.versions_of(judge.touched, judged_on)) if self.rule else ""
                    out.append(f"| {escape(words)} (`{expr}`) | {escape(there_figs)} | {there} | {escape(here_figs)} |"
                               f" {escape(here)}{escape(f' ({on})' if on else '')} |")
            out.append("")
            if self.rule:
                out += [f"- the answers, of its {len(a)} claims {kind}: there {tally(x for x, _ in a)}; here"
                        f" {tally(y for _, y in a)}" for kind, a in answers.items() if a] + [""]
            stated = self.stated()  # under the rule, which of the write-up's versions the copy shares, and its own
            out += dict.fromkeys(f"- here, {pub.label(r)} is judged on its {self.here[judged_on[r]]['label']} row, the"
                                 + (f" write-up's {stated[r]['value']} (its {stated[r]['words']})" if self.rule
                                    else " write-up's version") for r in pub.rows if r in judged_on)
            if judged_on:
                out.append("")
        out += ["### What differs between its runs and these", "",
                f"- the machine: {about['machine']} there; {self.ctx['machine_here']} here",
                f"- runs: {about['runs']} there; the best of RUNS={runs} here"]
        if quick:
            out.append("- N: the write-up's there; each N above 1 divided by 10 here (--quick)")
        differs = {}  # each once, in order: rows of several tables under one label state one difference once
        say = differs.setdefault
        for f in pub.facts:
            # A fact of every program ("*") is said once, at the first row with a program.
            for id_ in [r for r in pub.rows if (pub.row[r]["prog"] != "-" if f["id"] == "*" else r == f["id"])][:1]:
                prog, here = pub.row[id_]["prog"], self.here.get(id_, {})
                who = "every program" if f["id"] == "*" else pub.label(id_)
                if f["key"] == "version" and prog != "-":
                    beside = ", ".join(self.here[c]["label"] for c in self.copies.get(id_, []))
                    if f["value"] == "-" or not self.same_version(id_, f["value"]):
                        say(f"- {who}: {f['words']} there; {here.get('label') or 'not run'} here"
                            + (f", and beside it {beside}" if beside else "")
                            + (f"; its claims are judged on {self.here[judged_on[id_]]['label']}"
                               if id_ in judged_on and not quick else ""))
                elif f["key"] == "launcher" and f["value"] != "built":
                    say(f"- {who}: {f['words']} there; a built binary here")
                elif f["key"] == "shape" and prog != "-" and f["value"] not in here.get("variant", ""):
                    say(f"- {who}: {f['words']} there; {here.get('variant', '')} here")
                elif f["key"] == "missing":
                    say(f"- {who}: not run here: {f['words']}")
                elif f["key"].startswith("PEERS_"):  # how its version can be had here, or why not
                    say(f"- {who} ({f['key']}): {f['words']}")
                elif f["key"] == "reading":  # this file's reading of the text, in its words: not the write-up's
                    whose = "" if f["id"] == "*" else who + ", "
                    say(f"- {whose}as this file reads the text ({f['value']}): {f['words']}")
                elif f["key"] not in ("version", "launcher", "shape", "pause", "reading"):  # a pause's: in readings()
                    say(f"- {who}: {f['words']} there ({f['key']})")
        return out + list(differs) + [f"- {pub.label(r)}, as published: {pub.nobuild[r]}"
                                      for r in pub.rows if r in pub.nobuild] + self.readings() + self.cause_lines()

    def cause_lines(self):
        """Each cause line of the data file that names a table of this section: its rows' labels, its tables, its words
        and the command that shows it."""
        title, out = {t["key"]: t["title"] for t in self.pub.tables}, []
        for c in self.pub.causes:
            ts = [f'"{title[k]}"' for k in c["tables"] if k in title]
            if c["tables"] != ["*"] and not ts:
                continue
            where = "every table" if c["tables"] == ["*"] else ", ".join(ts[:-1]) + " and " * (len(ts) > 1) + ts[-1]
            labels = ", ".join(dict.fromkeys(self.pub.label(r) for r in c["rows"]))
            out.append(f"- {labels}, in {where}: {c['words']} (`{c['command']}`)")
        return out

    def gaps(self):
        """What the last text() found past the write-up, each a Gap: a headline figure whose here / published, as its
        table prints it, lies above ABOVE or below BELOW (one of several readings: against the lowest and the highest
        alike), a copy's or a row's again at --peers' sleep set against its row's published figure; and a claim (as
        stated, or its precise form) answered otherwise here than there, unless here it cannot be told, which is said
        with its reason. Our rows have no published figure, and --quick sets nothing against one: no gap."""
        pub, out = self.pub, []
        for t, id_, long, lo, hi, ra in self.ratios:
            lo, hi = float("%.2f" % lo), float("%.2f" % hi)  # as printed: 1.503 shows 1.50, no gap
            past = f"above {ABOVE}" if lo > ABOVE else f"below {BELOW}" if hi < BELOW else ""
            if past:
                b, again = self.base_of(id_), f", at a {secs(self.long_ms)} s sleep" if long else ""
                said = f" ({pub.label(b)})" if pub.label(b) != b else ""
                out.append(Gap([b], [t["key"]], f"table {t['key']}, row {id_}{again}{said}:"
                                                 f" {pub.ctitle[self.head_col]} here / published {ra}, {past}"))
        for words, expr, there, here, rows in self.claimed:
            if there in (YES, NO) and here != there and not here.startswith((UNTOLD, "cannot tell")):
                out.append(Gap(rows, claim_tables(expr), f"claim \"{words}\" ({expr}): {there} there,"
                                                         f" {here.removesuffix(' here')} here,"
                                                         f" on rows {', '.join(rows)}"))
        return out

    def readings(self):
        """Where the data file sets a table beside another's figures or at the pause another's walls allow (figs=,
        walls:): for the walls of each table here (its own, its figs=' or its walls:' table's), each table beside those
        published figures as a reading of the write-up's pause, whether the walls allow it (Walls.fits: were spawning
        free) and, by runtime here, the ratios here / published of its walls and max RSS; then which reading fits. A
        reading they rule out gives ratios that are no finding about the runtimes. None with --quick."""
        pub, out = self.pub, []
        if self.quick or not any("walls" in t or t["figs"] for t in pub.every):
            return out
        keys = [k for t in pub.tables for k in (t["figs"] or t["key"], t.get("walls")) if k]
        for key in dict.fromkeys(keys):
            w = pub.walls.get(key) or pub.walls_of(key)
            if isinstance(w, str):  # a table with no bursts or no published wall
                continue
            pub.walls[key], src, ran = w, pub.table(key), []
            out.append(f"- the bursts of \"{src['title']}\" ({key}): {w.said()}. Each reading of that pause, beside"
                       " these figures:")
            for t in [x for x in pub.every if key in (x["key"], x["figs"])]:
                sets, longest = pub.settings(t), t.get("walls") == key
                pause, sleep1 = settings.pause_ms(sets), sets.get("BURST_PAUSE") == "sleep1"
                what = (f"each runtime's sleep(1), Go's {settings.sleep1('go')[1]} and the others'"
                        f" {settings.sleep1('')[1]}" if sleep1 else f"{pause} ms a pause"
                        + (", the longest its walls allow" if longest else ""))
                left = f"{(w.bound_ms - w.sleep_ms) / 1000:g} s"
                if sleep1:  # how long a sleep(1) takes is not known here: only what each may take for the walls
                    under = math.floor((w.bound_ms - w.sleep_ms) / w.pauses * 10) / 10
                    line = (f"  - at {what} ({t['key']}): {w.pauses} pauses, which its walls allow if each sleep(1)"
                            f" took under {under:g} ms and spawning took no time" + ("" if w.fits(pause) else
                            f"; a sleep(1) of {settings.sleep1('')[1]} does not, so the ratios here of the runtimes"
                            f" that sleep {settings.sleep1('')[1]} are no finding about them"))
                elif w.fits(pause):
                    at_least = ", ".join(dict.fromkeys(pub.label(r) for r in w.rows))
                    line = (f"  - at {what} ({t['key']}): {w.pauses} pauses take {w.pauses * pause / 1000:g} s, less"
                            f" than {left}: its walls allow this reading if spawning took no time" + (
                                f"; for the rows published at its least wall, {w.shown} ({at_least}), the wall here /"
                                " published is about 1 or more by construction, so their max RSS ratio is the finding"
                                if longest else ""))
                else:
                    line = (f"  - at {what} ({t['key']}): {w.pauses} pauses take {w.pauses * pause / 1000:g} s, not"
                            f" less than {left}: its walls rule this reading out, so its ratios here are no finding"
                            " about the runtimes")
                by = self.burst_ratios(t) if t in pub.tables else None
                out.append(line + (". Not run here" if by is None else f". Here / published: {said_ratios(by)}"))
                every = [x for got in (by or {}).values() for rs in got.values() for r in rs for x in r]
                if every and w.fits(pause):
                    far = max(every, key=lambda x: abs(math.log(x)) if x > 0 else math.inf)
                    ran.append((abs(math.log(far)) if far > 0 else math.inf, far, what, t["key"]))
            fit = ("a reading fits where every wall and max RSS ratio here / published, of every runtime here, lies"
                   f" within {BELOW}–{ABOVE}")
            if not ran:
                out.append(f"  - which reading fits ({fit}): none of those its walls allow ran here")
                continue
            _, far, what, k = min(ran, key=lambda x: x[0])
            out.append(f"  - which reading fits ({fit}): " + (
                f"at {what} ({k}), the nearest 1 of those its walls allow that ran here (its ratio farthest from 1:"
                f" {far:.2f})"
                if BELOW <= float("%.2f" % far) <= ABOVE else
                f"none; of those its walls allow that ran here, the nearest 1, at {what} ({k}), strays to {far:.2f}"))
        return out

    def burst_ratios(self, t):
        """Table T's ratios here / published of its walls and max RSS, each (lowest, highest) of a row, by runtime here
        and column."""
        pub, by = self.pub, {}
        cols = [c for m in ("wall", "wall_mean", "max_rss", "max_rss_mean") for c in pub.cols if pub.measure[c] == m]
        for id_ in self.order:
            b = self.base_of(id_)
            if id_.startswith("ours:") or (t["scen"] != "-" and self.rscen.get(b) != t["scen"]):
                continue
            for c in cols:
                u, fk = self.unit_of(b, t["key"], c), (b, t["key"], c)
                h = self.figure(f"{id_}@{t['group']}", t["n"], pub.measure[c], u)
                if h != "" and pub.lo.get(fk, 0) > 0:
                    x = numeric(h) * UNITS[u][1]
                    by.setdefault(self.here[id_]["label"], {}).setdefault(pub.ctitle[c], []).append(
                        (x / pub.hi[fk], x / pub.lo[fk]))
        return by

    def ending(self, t):
        """The settings of table T under which its tasks end by design (ENDING), as "MODE=once, BURST=100000"."""
        sets = dict(self.pub.run, **dict(a.split("=", 1) for a in t["set"].split()))
        return ", ".join(f"{k}={sets[k]}" for k, v in ENDING.items() if k in sets and (v is None or v in sets[k].split()))

    def versions_of(self, rows, judged_on):
        """Under the rule, for each of ROWS (those a claim was judged on, every row of a min or max) whose version
        here is not the one its write-up states: the version it was judged on, which the claim's line names."""
        said = {}  # rows judged on one version, against one stated, named together
        for id_, f in self.stated().items():
            if id_ in judged_on or id_ not in rows or id_ not in self.here or not self.here[id_]["label"]:
                continue
            if f["value"] == "-" or not self.same_version(id_, f["value"]):
                said.setdefault((self.here[id_]["label"], f["words"]), []).append(self.pub.label(id_))
        return [f"{', '.join(dict.fromkeys(who))} on {here}, not its {words}" for (here, words), who in said.items()]

    def columns_said(self):
        """The note naming what each column holds and when it is read, and where a program reads it at another moment,
        which (READ_AT)."""
        pub, parts = self.pub, []
        for col in pub.cols:
            m = pub.measure[col]
            other = dict.fromkeys(f"{pub.label(r)}, {p}: {READ_AT[p][1]}" for r in pub.rows
                                  for p in [pub.row[r]["prog"]] if READ_AT.get(p, ("",))[0] == m)
            parts.append(f"{pub.ctitle[col]}: {SAID[m][1]}" + (f" ({'; '.join(other)})" if other else ""))
        return "- each column here: " + "; ".join(parts)

    def stated(self):
        """Each row's version fact: its own, else, under the rule, that of a row of the same program (a write-up that
        states its C# once, for rows at several thread counts)."""
        pub, facts = self.pub, {f["id"]: f for f in self.pub.facts if f["key"] == "version" and f["id"] in self.pub.row}
        by_prog = {pub.row[id_]["prog"]: f for id_, f in facts.items() if pub.row[id_]["prog"] != "-" and self.rule}
        return {id_: facts.get(id_) or by_prog[pub.row[id_]["prog"]] for id_ in pub.rows
                if id_ in facts or pub.row[id_]["prog"] in by_prog}

    def judged_on(self, mine):
        """Where the write-up states a version that the row's build here is not and a copy of its program is
        (PEERS_PATCH, PEERS_DOTNET, PEERS_GO): the copy its claims are judged on, whose figures then stand for the
        row's."""
        pub, on = self.pub, {}
        for id_, f in self.stated().items():
            if f["value"] != "-" and not self.same_version(id_, f["value"]):
                c = next((c for c in self.copies.get(id_, [])
                          if self.here[c]["state"] == "ok" and self.same_version(c, f["value"])), None)
                if c is not None:
                    on[id_] = c
        for (b, c), t, col, d in product(on.items(), pub.tables, pub.cols, mine):
            d.pop((b, t["key"], col), None)
            if (c, t["key"], col) in d:
                d[b, t["key"], col] = d[c, t["key"], col]
        return on

    def same_version(self, id_, want):
        """The runtime here of row ID is version WANT ("1.41" holds 1.41.1, not 1.4.1)."""
        v = re.match(r"[^0-9]*([0-9.]*)", self.here.get(id_, {}).get("label", "")).group(1)
        return (v + ".").startswith(want + ".")


# A gap (issue 66): a headline figure whose here / published lies past these bounds, or a claim answered otherwise
# here; each wants a cause line naming one of its rows and one of its tables. TEXT names its table, row and ratio.
ABOVE, BELOW = 1.5, 0.67
Gap = namedtuple("Gap", "rows tables text")


def headline(pub):
    """The column whose figures are a table's main measure: its first of a process's peak or at-wait memory (MaxRSS,
    Memory, RSS at wait), else its first of memory (an average); None where it has none."""
    mem = [c for c in pub.cols if pub.measure[c] in MEMORY]
    return next((c for c in mem if pub.measure[c] in ("max_rss", "max_rss_mean", "rss_wait")), mem[0] if mem else None)


def claim_tables(expr):
    """The tables a claim's terms are at, in their order."""
    out = {}
    for w in (part.split() for part in expr.split(" and ")):
        out.update(dict.fromkeys([w[3]] if w[0] in ("min", "max") else [w[6]] if w[0] == "ratio"
                                 else [x.split("@")[1] for x in w[2::2]] if w[0] == "chain" else [w[5]]))
    return list(out)


def covering(gap, causes):
    """The first of CAUSES that names one of GAP's rows and one of its tables (or *), else None. A table beside
    another's figures (figs=) is a reading of its own: a cause of the write-up's table says nothing of its gaps."""
    return next((c for c in causes if set(c["rows"]) & set(gap.rows)
                 and (c["tables"] == ["*"] or set(c["tables"]) & set(gap.tables))), None)


def gaps(context, records):
    """The gaps of a replication's section, each (Gap, the first cause that covers it in the data file the section was
    written with, or None)."""
    sec = Section(context, records)
    sec.text()
    return [(g, covering(g, sec.pub.causes)) for g in sec.gaps()]


def cause_said(c):
    """A cause line in short, for --gaps: its rows, its tables and its first words."""
    words = c["words"].split()
    return f"the cause of {','.join(c['rows'])} in {','.join(c['tables'])} (\"{' '.join(words[:8])}" \
        + ("...\")" if len(words) > 8 else "\")")


def said_ratios(by):
    """Ratios by runtime and column (Section.burst_ratios), lowest–highest over each runtime's rows."""
    return "; ".join(f"{who} " + ", ".join(f"{c} {span(min(r[0] for r in rs), max(r[1] for r in rs))}"
                                           for c, rs in got.items()) for who, got in by.items()) or "no figure here"


def tally(answers):
    """The four answers of the verdict rule, each counted: "2 yes, 1 no, 0 too close to call, 1 cannot be told"."""
    got = [a if a in (YES, NO, CLOSE) else UNTOLD for a in answers]
    return ", ".join(f"{got.count(a)} {a.removesuffix(' here')}" for a in (YES, NO, CLOSE, UNTOLD))


def groups(pub, quick, long_ms):
    """The write-up's tables by their settings, in their order: [number, settings ("-" for none), N list, scenarios
    ("-": every one)]; with --quick, each N above 1 is divided by 10, and a table's HITS too. Then, where a group's
    WAITING tables sleep less than --peers' LONG_MS, a group per such scenario at the largest N of its tables with
    that sleep, its fifth field the groups it serves: a task that ends before the last one is spawned frees memory,
    so at a write-up's short sleep some rows hold fewer than N tasks at once; this row holds all."""
    out, again_at, scenarios = [], {}, pub.run.get("scenarios", "").split()
    for sets, g in pub.groups.items():  # numbered in their order
        ts = [t for t in pub.tables if t["group"] == g]
        ns = [quick_n(t["n"], quick) for t in ts]
        if quick:
            sets = re.sub(r"(^| )HITS=([0-9]+)", lambda m: f"{m[1]}HITS={quick_n(m[2], True)}", sets, count=1)
        out.append([str(g), sets or "-", " ".join(str(n) for n in sorted(set(ns))),
                    "-" if any(t["scen"] == "-" for t in ts) else " ".join(t["scen"] for t in ts)])
        ms = pub.sleep_of(sets)
        # --quick is a first look: its N are not the write-up's, and it adds no rows at 30 s.
        if quick or ms == "" or int(ms) >= int(long_ms):
            continue
        again = (re.sub(r"(^| )SLEEP_MS=[0-9]+", "", sets) + f" SLEEP_MS={long_ms}").lstrip(" ")
        for s in WAITING:
            top = max((n for t, n in zip(ts, ns) if s in (scenarios if t["scen"] == "-" else [t["scen"]])), default=0)
            if top > 0:
                again_at.setdefault((again, top, s), []).append(str(g))
    return out + [[str(len(out) + i), again, str(top), s, ",".join(gs)]
                  for i, ((again, top, s), gs) in enumerate(again_at.items(), 1)]


def section(context, records):
    """The replication's section: its head, then the tables, claims and differences, every figure from RECORDS."""
    return "\n".join(list(context["head"]) + Section(context, records).text() + [""]) + "\n"


# A replication's chart: its bars (harness/charts.py), title, alt text, axis, what each bar is, its notes, and why it
# has no bar where it has none.
Chart = namedtuple("Chart", "bars title alt axis each notes empty")


def chart(context, records):
    """The chart of the first table at the largest N, in the measure of its first memory column (max RSS where it has
    none), smallest bar first: a bar per row measured here, its label there and runtime here, its figure in MiB, the
    published one in MiB, "no" if not all alive, and the label of ours's bar of the row's scenario, variant and
    threads (its ratio's base; "-" for none). Its title names the table, and "as published" only where a bar shows a
    published figure."""
    sec, out, bar_of, ran = Section(context, records), [], {}, False
    pub, top, name = sec.pub, max(sec.pub.tables, key=lambda t: int(t["n"])), sec.pub.about.get("name", "")
    col, n = next((c for c in pub.cols if pub.measure[c] in MEMORY), ""), quick_n(top["n"], sec.quick)
    m = pub.measure[col] if col else "max_rss"
    for id_ in sec.order:
        v = sec.values.get((f"{id_}@{top['group']}", str(n)))
        if (top["scen"] != "-" and sec.rscen.get(id_, "") != top["scen"]) or v is None or v["why"] != "-":
            continue
        ran, mib = True, sec.figure(f"{id_}@{top['group']}", n, m, "MiB")
        if mib == "":  # a program that gives no such figure (an RSS at wait of "-") has no bar
            continue
        here, k = sec.here.get(id_, {}).get("label", ""), (sec.base_of(id_), top["key"], col)
        w = None if id_.startswith("ours:") else pub.row[k[0]]
        bar_of[id_] = here if w is None else f"{pub.label(k[0])} ({here})"
        p = "-" if col == "" or sec.quick or k not in pub.lo else stats.mib((pub.lo[k] + pub.hi[k]) / 2)
        vs = "-" if w is None else ours_id(w["scen"], w["variant"], w["threads"])
        out.append([bar_of[id_], mib, p, "no" if v["alive"].startswith("no") else "-", vs])
    for bar in out:  # ours's row, by its bar's label, where it has one
        bar[4] = bar_of.get(bar[4], "-")
    bars = sorted((tuple(b) for b in out), key=lambda bar: (float(bar[1]),) + bar)  # smallest first
    shown, axis, runs = any(b[2] != "-" for b in bars), SAID[m][0], context["runs_here"]
    what = (f"\"{top['title']}\" at N={n}" + (" (--quick: its N / 10)" if sec.quick else "")
            + f": {pub.ctitle[col] if col else axis}")
    notes = [f"--quick: N divided by 10, so no figure {name} published is shown." if sec.quick else
             f"A hollow diamond: the figure {name} published for that runtime in this table, in MiB as it defined its"
             " unit." if shown else f"{name} published no {pub.ctitle[col]} for these rows in this table." if col else
             f"{name}'s tables have no memory column: no published figure to show."]
    if sum(i.startswith("ours:") for i in bar_of) > 1:
        notes.append("Each × ours is to ours's bar at the same thread count, variant and settings as the bar's row.")
    each = SAID[m][1] + (f", over RUNS={runs}" if m.endswith("_mean") else
                         f", in the run with the lowest wall time of RUNS={runs}")
    alt = f"{name}, table {what} ({axis}, MiB) of each runtime, measured here" + (", and as published" * shown)
    alt = alt.replace("[", "(").replace("]", ")")  # no bracket ends the alt text early
    return Chart(bars, f"{name}, {what}" + (", here and as published" if shown else ", here"), alt, f"{axis} (MiB)",
                 each, notes, f"no run here gave its {axis}" if ran else "no run succeeded")


# Each measure a column may hold: its name on a chart's axis, and what a figure of it is and when it is read (a
# chart's note, and from schema 3 on a section's). A program that reads it at another moment is in READ_AT.
SAID = {"max_rss": ("max RSS", "the process's max RSS as /usr/bin/time reports it, the most it held at any moment"),
        "max_rss_mean": ("max RSS, mean of the runs",
                         "the mean over the runs of the process's max RSS as /usr/bin/time reports it"),
        "avg_rss": ("mean RSS",
                    "the mean of the process's resident set (VmRSS), read by the harness every 100 ms from its start"
                    " to its exit"),
        "avg_rss_window": ("mean RSS from spawned to counted",
                           "the mean of the process's resident set (VmRSS), read by the harness every 100 ms from the"
                           " end of spawning to the poll that saw the count reached"),
        "rss_wait": ("RSS at wait",
                     "each program's own reading of its resident set (VmRSS, ours included), once its N tasks exist"
                     " and wait, as its spawning ends"),
        "cpu_pct": ("CPU %", "(user + sys) / wall of the whole run, from /usr/bin/time"),
        "wall": ("wall time", "the whole process's wall time, start-up included"),
        "wall_mean": ("wall time, mean of the runs", "the mean over the runs of the whole process's wall time"),
        "user": ("user CPU", "the process's user CPU time over the whole run, from /usr/bin/time"),
        "sys": ("system CPU", "the process's system CPU time over the whole run, from /usr/bin/time")}
READ_AT = {"tokio-coro_timer_join_all_async": (
    "rss_wait", "half-way through the sleep, since its sleeps begin only when join_all is first polled")}


MEASURES = ("max_rss", "max_rss_mean", "avg_rss", "avg_rss_window", "rss_wait", "cpu_pct", "wall",
            "wall_mean", "user", "sys")
# How many fields each kind of line has (a table: 3 or more).
FIELDS = {"about": (3,), "run": (3,), "column": (5,), "row": (7,), "fact": (5,), "nobuild": (3,), "fig": (6, 7),
          "claim": (4, 6), "cause": (5,), "table": ()}
RUN_VARS = settings.SETTABLE + ("RUNS", "scenarios", "ns")
ABOUT = ("name", "author", "year", "title", "url", "read", "measured", "machine", "versions", "unit", "runs")


class Check:
    """Whether a data file parses (peers/README.md), each problem a line "FILE:LINE: what"; a claim's recorded answer
    must be the one its published figures give. The values of the settings are run.sh's to check (settings)."""

    def __init__(self, path, text):
        self.path, self.problems, self.line = path, [], 0
        self.first_at = {}  # the line of each row, column and figure
        self.pauses, self.causes = [], []  # each pause fact (its line, table and words) and each cause of 5 fields
        self.pub = Published(text, "", self.check_line)
        self.check_end()

    def bad(self, msg):
        self.problems.append(f"{self.path}:{self.line}: {msg}")

    def need(self, ok, msg):
        if not ok:
            self.bad(msg)

    def at(self, id_, t):
        """ROW is a row of table T (a table of one scenario holds that scenario's rows only)."""
        keys = {(x["key"], x["scen"]) for x in self.pub.tables}
        return id_ in self.pub.row and ((t, self.pub.row[id_]["scen"]) in keys or (t, "-") in keys)

    def check_line(self, pub, f, nf, number):
        self.pub, self.line, kind, bad, need = pub, number, f[0], self.bad, self.need
        if kind not in FIELDS:
            return bad(f'unknown kind "{kind}"')
        if kind == "table" and nf < 3:
            bad(f"table needs 3 fields or more, has {nf}")
        elif kind != "table" and nf not in FIELDS[kind]:
            bad(f"{kind} needs {' or '.join(map(str, FIELDS[kind]))} fields, has {nf}")
        for i in range(nf):
            need(f[i] != "", f"field {i + 1} is empty")
        need("\r" not in "".join(f), "a carriage return: save the file with LF line ends")
        need(kind != "run" or f[1] in RUN_VARS, f"unknown run variable {f[1]}")
        if kind in ("row", "column", "fig"):  # a second line of one key is refused, not let overwrite the first
            key = (kind, *f[1:4]) if kind == "fig" else (kind, f[1])
            what = f"fig for {f[1]} {f[2]} {f[3]}" if kind == "fig" else f"{kind} {f[1]}"
            need(key not in self.first_at, f"second {what} (first at line {self.first_at.get(key)})")
            self.first_at.setdefault(key, number)
        if kind == "row":  # copies are ID+SET, points ID@GROUP
            need(not re.search(r"[+][0-9]+$|@", f[1]), f"a row's id has no @ and does not end in +DIGITS: {f[1]}")
        if kind == "column":
            need(f[2] in MEASURES, f"unknown measure {f[2]}")
            us = f[3].split("/") if f[3] else []
            for u in us:
                if u not in UNITS:
                    bad(f"unknown unit {u}")
                elif UNITS[u][0] != UNITS.get(us[0], ("",))[0]:
                    bad(f"a column in {us[0]} and {u}, which measure different things")
        if kind == "table":
            t = pub.tables[-1]
            # Tables of different scenarios may share an N: a row's scenario says which it is in.
            need(not any(x["key"] == t["key"] and (x["scen"] == t["scen"] or "-" in (x["scen"], t["scen"]))
                         for x in pub.tables[:-1]),
                 f"a second table keyed {t['key']} for the same rows; give it an id=")
            need(re.fullmatch(r"[1-9][0-9]*", t["n"]),
                 f"a table's N is a whole number from 1, without a leading zero: {t['n']}")
            need(t["bad"] is None, f"after a table's scenario come id= and settings, not {t['bad']}")
            need(t["scen"] == "-" or t["scen"] in pub.run.get("scenarios", "").split(" "),
                 f"a table of {t['scen']}, which is not one of run scenarios")
            need("ns" not in pub.run or t["n"] in pub.run["ns"].split(" "),
                 f"a table at N={t['n']}, which run ns does not list")
            for a in f[3:nf]:
                if "=" in a and not a.startswith(("id=", "figs=")) and a.split("=")[0] not in settings.SETTABLE:
                    bad(f"unknown table setting {a} (id=, figs= or one of {' '.join(settings.SETTABLE)} )")
                elif a.startswith(("id=", "figs=")) and not re.fullmatch(r"(id|figs)=[A-Za-z0-9_.-]+", a):
                    bad(f"a table's {a.split('=')[0]} is one word: {a}")
        if kind == "fig":
            need(f[1] in pub.row, f"fig of an unknown row {f[1]}")
            if f[2] not in {t["key"] for t in pub.tables}:
                bad(f"fig of no table: {f[2]}")
            elif f[1] in pub.row and not self.at(f[1], f[2]):
                bad(f"fig of {f[1]} in table {f[2]}, which holds another scenario's rows")
            if f[3] not in pub.units:
                bad(f"fig of an unknown column {f[3]}")
            elif f[5] not in pub.units[f[3]].split("/"):
                bad(f"fig in {f[5]}, its column is in {pub.units[f[3]]}")
            need(f[4] != "-" or f[6] != "", "a missing figure needs a reason")
            need(f[4] == "-" or is_value(f[4]), f"not a number: {f[4]}")
        need(kind not in ("fact", "nobuild") or f[1] == "*" or f[1] in pub.row, f"of an unknown row {f[1]}")
        if kind == "fact" and f[2] == "pause":
            self.pauses.append((number, f[3], f[4]))
        if kind == "cause" and nf == 5:  # checked at the end, once every table and row is read
            self.causes.append(pub.causes[-1])

    def check_cause(self, c):
        """A cause names rows and tables of the file, each row in one of its tables and each table holding one of its
        rows (else it covers nothing there: a slip), and has words and a command to print between backticks."""
        pub, need, keys = self.pub, self.need, [t["key"] for t in self.pub.tables]
        for id_ in c["rows"]:
            need(id_ in pub.row, f'a cause of an unknown row "{id_}"')
        need(len(set(c["rows"])) == len(c["rows"]), "a cause names a row twice")
        need(c["tables"] == ["*"] or "*" not in c["tables"], "a cause's tables are * alone, or table keys")
        for k in c["tables"]:
            need(k in keys or k == "*", f'a cause in no table: "{k}"')
        known = [i for i in c["rows"] if i in pub.row]
        ts = keys if c["tables"] == ["*"] else [k for k in c["tables"] if k in keys]
        stray = [i for i in known if ts and not any(self.at(i, k) for k in ts)]
        idle = [k for k in ts if known and not any(self.at(i, k) for i in known)]
        need(not stray, f"a cause of {', '.join(stray)}, which is in none of its tables")
        need(stray or c["tables"] == ["*"] or not idle, f"a cause in table {', '.join(idle)}, which holds none of its"
             " rows")
        for what, v in (("words", c["words"]), ("command", c["command"])):
            need(v == "" or v.strip(), f"a cause needs its {what}, not blanks")  # an empty field is named above
        need("`" not in c["command"], "a cause's command holds no backtick: the section prints it between two")

    def check_end(self):
        pub, bad, need, self.line = self.pub, self.bad, self.need, 0
        need(pub.fig or "figures" in pub.about, "no figure, and no about line for figures saying why")
        for a in ABOUT:
            need(a in pub.about, f"no about line for {a}")
        name = pub.about.get("name", "")
        need(not name or self.path == f"{name}.tsv" or self.path.endswith(f"/{name}.tsv"),
             f"its name is {name}, not its file name")
        need("scenarios" in pub.run, "run needs scenarios")
        need(pub.tables and pub.cols and pub.rows, "it needs a table, a column and a row")
        for t in pub.every:
            self.line = t["line"]
            for why in t["why"]:
                bad(why)
            need(t["figs"] is None or t["key"] not in pub.figkeys,
                 f"table {t['key']} stands beside the figures of {t['figs']} (figs=), so it has no fig line of its own")
        for self.line, key, words in self.pauses:
            self.pause_words(key, words)
        for c in self.causes:
            self.line = c["line"]
            self.check_cause(c)
        judge, published = Judge(pub, pub.label), Figures(pub.lo, pub.hi, pub.shown)
        for c in pub.claims:
            self.line = c["line"]
            if (fault := self.fault(c["expr"])) is not None:
                bad(f"a claim outside the grammar: {c['expr']} ({fault})")
                continue
            if c["answer"] not in ("yes", "no"):
                bad(f"a claim's answer is yes or no, not {c['answer']}")
                continue
            verdict, figures = judge.judge(c["expr"], published)
            need(verdict == c["answer"], f"the claim \"{c['expr']}\" is recorded as {c['answer']}, and its published"
                 f" figures say {verdict}: {figures}")
            fault = self.fault(c["precise"]) if c["precise"] else None
            if fault is not None:
                bad(f"a precise form outside the grammar: {c['precise']} ({fault})")
            elif c["precise"]:
                verdict, figures = judge.judge(c["precise"], published)
                need(verdict == "yes", f"the precise form \"{c['precise']}\" does not hold on the published figures"
                     f" ({verdict}: {figures})")

    def pause_words(self, key, words):
        """A pause fact states table KEY's arithmetic in WORDS: each number in them must be one of its figures (the
        least wall as printed, the bound and what the sleep leaves of it in s, the sleep, the pauses, the pause in ms,
        N, BURST), the pause among them."""
        pub, t = self.pub, self.pub.table(key)
        if t is None or "walls" not in t:
            return self.bad(f"a pause fact of {key}, which is no table whose pause comes from walls"
                            " (BURST_PAUSE_MS=walls:)")
        w, src = pub.walls[t["walls"]], pub.table(t["walls"])
        n, burst = int(src["n"]), int(pub.settings(src)["BURST"])
        figures = {w.shown, str(w.pauses), str(w.pause_ms), f"{n:,}", str(n), f"{burst:,}", str(burst)}
        figures |= {"%g" % (ms / 1000) for ms in (w.bound_ms, w.sleep_ms, w.bound_ms - w.sleep_ms)}
        # A number in a word (burst_25m, 25M) is a name, not a figure.
        said = [x.rstrip(",.") for x in re.findall(r"(?<![A-Za-z_0-9,.:])[0-9][0-9,.:]*(?![A-Za-z_0-9])", words)]
        for x in said:
            self.need(x in figures, f"the pause fact of {key} says {x}, which is none of its figures ({w.said()})")
        self.need(f"{w.pause_ms} ms" in words, f"the pause fact of {key} does not say its pause ({w.said()})")

    def fault(self, expr):
        """None if EXPR is in the grammar (peers/README.md), else which of its terms is not."""
        return next((f for part in expr.split(" and ") for f in self.faults(part.split()) if f is not None), None)

    def col_fault(self, c):
        units, ab = self.pub.units, c.split("+")
        kinds = {UNITS.get(units[x].split("/")[0], ("",))[0] for x in ab if x in units}
        if c in units or (len(ab) == 2 and ab[0] in units and ab[1] in units and len(kinds) == 1):
            return None
        return f"{c} is not two columns of one kind summed" if "+" in c else f"no column {c}"

    def table_fault(self, id_, t):
        return (None if self.at(id_, t) else f"no row {id_}" if id_ not in self.pub.row
                else f"no table {t}" if t not in {x["key"] for x in self.pub.tables}
                else f"row {id_} is not in table {t}, a table of another scenario's rows")

    def faults(self, w):
        """Each check of the comparison of words W in turn: None where it passes, else why."""
        k, w, col, table = len(w), [""] + w + [""] * 10, self.col_fault, self.table_fault
        if w[1] in ("min", "max"):
            yield None if k == 6 and w[3] == "at" and w[5] == "=" else f"not of the form {w[1]} COLUMN at T = ROW"
            yield from (col(w[2]), table(w[6], w[4]))
        elif w[1] == "ratio":
            shape = k == 9 and w[4] == "/" and w[6] == "at" and w[8] in ("<", ">") and NUM.match(w[9])
            yield None if shape else "not of the form ratio COLUMN ROW / ROW at T > X (or <)"
            yield from (col(w[2]), table(w[3], w[7]), table(w[5], w[7]))
        elif w[1] == "chain":
            yield None if k >= 5 and k % 2 == 1 else "not of the form chain COLUMN ROW@T < ROW@T ..."
            yield col(w[2])
            ops = set()
            for i in range(3, k + 1, 2):
                yield table(*w[i].split("@")) if w[i].count("@") == 1 else f"a chain's terms are ROW@T, not {w[i]}"
                if i > 3 and w[i - 1] != "~":
                    yield None if w[i - 1] in ("<", ">") else f"a chain's terms are joined by <, > or ~, not {w[i - 1]}"
                    ops.add(w[i - 1])
                    yield "a chain mixes < and >" if len(ops) > 1 else None
            yield None if ops else "a chain needs a < or > between two of its terms"
        else:
            shape = k == 6 and w[3] in ("<", ">") and w[5] == "at"
            yield None if shape else "not of the form COLUMN ROW < ROW at T (or >), nor min, max, ratio or chain"
            yield from (col(w[1]), table(w[2], w[6]), table(w[4], w[6]))


def rows(tables, pub):
    """The write-up's rows (ID, scenario, program here, variant, threads, label) in order, each followed by its
    program's copies (program@SET, for PEERS_PATCH or PEERS_DOTNET: row ID+SET); then ours, a row per scenario,
    variant and threads among them ("ours" and those, joined by ":")."""
    copies = {}
    for prog in (r["prog"] for r in tables.catalogue if re.fullmatch(".*@[0-9]+", r["prog"])):
        copies.setdefault(prog.rpartition("@")[0], {})[prog] = None
    out, ours = [], {}
    for id_ in pub.rows:
        f = tuple(pub.row[id_].values())  # scenario, program, variant, threads, label
        out.append((id_,) + f)
        out += [(f"{id_}+{c.partition('@')[2]}", f[0], c) + f[2:] for c in copies.get(f[1], [])]
        ours.setdefault((f[0], f[2], f[3]), None)
    for scen, key, t in ours:
        out.append((ours_id(scen, key, t), scen, scen, key, t, settings.OURS))
    return out


def ours_id(scen, key, t):
    """Ours's row beside the write-up's rows of scenario SCEN, variant KEY and threads T ("-": none, the default)."""
    return "ours:" + scen + ("" if key == "-" else ":" + key) + ("" if t == "-" else f":{t}t")


def check(path, text):
    """(problems, the data file read): every problem of Check, then those of the run lines' settings and of each
    table's over them, by run.sh's rules (settings.problem); the run lines' once."""
    c = Check(path, text)
    lines = [(number, f) for number, f in enumerate((line.split("\t") for line in text.split("\n")), 1)
             if f[0] == "run" and len(f) > 2 and f[1] in settings.SETTABLE]
    run = [f"{f[1]}={f[2]}" for _, f in lines]
    if why := settings.problem(run):
        return c.problems + [f"{path}:{lines[0][0]}: its run lines: {why}"], c.pub
    return c.problems + [f"{path}:{t['line']}: this table's settings, over the run lines': {why}" for t in c.pub.tables
                         if t["set"] and (why := settings.problem(run + t["set"].split(" ")))], c.pub


def list_all(folder, estimate, out):
    """Every write-up --replicate knows, with how long its replication takes here (ESTIMATE(NAME))."""
    out.write("./run.sh --replicate NAME [--quick] runs one of these write-ups' tables again here:\n")
    for f in sorted(x for x in os.listdir(folder) if x.endswith(".tsv")):
        a = published(os.path.join(folder, f)).about
        out.write(f"\n  {a.get('name', '')}: {a.get('author', '')} ({a.get('year', '')}), \"{a.get('title', '')}\"\n"
                  f"    {a.get('url', '')}\n    {a.get('measured', '')}\n    {estimate(a.get('name', f[:-4]))}\n")
        out.flush()


def here_rows(run):
    """Each row's program here: ID, its runtime here (with its version), its variant cell, program and build state."""
    t, s, out = run.t, run.s, []
    for id_, scen, prog, key, threads, _ in rows(t, published(s["pubfile"], s["TABLES"])):
        r = None if prog == "-" else next((x for x in t.catalogue if x["scen"] == scen and x["prog"] == prog
                                           and key in ("-", x["key"])), None)
        g, variant = (r["group"], r["variant"]) if r else ("-", "-")
        here = t.runtime_label(g, run.pw) if g != "-" else ""
        if g == "ours":  # ours has a row per scenario, variant and worker count: each says which
            here += (", a thread per task" if scen == "threads" else "") + (f", {key}" if key != "-" else "") \
                + (f", T={threads}" if threads.isdigit() else "")
        state = "ok" if g in ("-", "ours") else run.builder.state.get(g, "")
        said = {"ok": "ok", "missing": "its toolchain is missing (see below)", "skip": "see the notes below"}
        other = state if state.startswith("build failed") else f"not in PEERS={s['PEERS']}"
        out.append([id_, here, variant, prog, "" if g == "-" else said.get(state, other)])
    return out


def fields(run):
    """The replication's part of its section's record, each point as ID@GROUP, N and its plan line or why none ran."""
    s, m = run.s, run.machine
    return {"published": read(s["pubfile"]), "tables": s["TABLES"],
            "quick": s["quick"], "long_ms": int(s["peers_sleep_ms"]), "runs_here": s["RUNS"],
            "machine_here": f"CPU: {m['cpu']}; cores: {m['cores']}; memory: {m['memory']}", "here": here_rows(run),
            "points": [dict(label=l, n=n, **({"ref": ref} if ref and why == "-" else {"why": why}))
                       for l, n, why, _, ref in run.rep]}


def head(run, machine_lines):
    """The lines of a replication's section before its tables, and its notes."""
    s, pub = run.s, published(run.s["pubfile"])
    quick = "; --quick: every N of the write-up above 1 divided by 10" + (", and HITS too" if s["HITS"] else "") + \
        ", so no figure is set against a published one and no claim is judged (keeping N and cutting the sleep" \
        " instead would change whether every task is alive at once)" if s["quick"] else ""
    out = [f"## {run.when} — replicate {pub.about.get('name', '')}{', tables ' + s['TABLES'] if s['TABLES'] else ''}"
           f"{' --quick, N / 10: nothing set against the published figures' if s['quick'] else ''}", ""] + machine_lines
    out.append(f"- N={s['sweep_ns'].replace(' ', ',')}, RUNS={s['RUNS']}"
               f"{', SLEEP_MS=' + s['SLEEP_MS'] if s['SLEEP_MS'] else ''}"
               f"{settings.mode_settings(s, run.scenarios)}{run.copies_set()}{settings.runtime_env(run.env)}{quick}")
    if s["TABLES"]:
        out.append(f"- TABLES=\"{s['TABLES']}\": only these of its tables ran here (of {len(pub.tables)}); a claim on"
                   " another can be judged on its published figures only")
    if run.resumed:
        out.append(f"- resumed: {run.resumed} of the configurations were measured by an earlier run of this replication"
                   f" at commit {run.commit}, kept in PEERS_BUILD/replicate")
    if not run.cache:
        out.append("- not resumable: " + ("the tree has changes that are not committed" if run.commit.endswith("-dirty")
                   else "not a git checkout") + ", so no configuration's result is kept for a later run")
    out += [line for line in run.peers_lines() if not line.startswith("- sleep: ")] + [""] + run.chart_lines
    notes = run.pw_lines("limits", "- ") + run.pw_lines("notes", "- ") + run.pw_lines("missing", "- not run: ")
    cores = run.machine["cores"].split(" ")[0]
    notes += [f"- T={t} is more than the {cores} cores here: its rows are oversubscribed, {t} workers taking turns on"
              f" {cores} cores" for t in dict.fromkeys(row[4] for row in rows(run.t, pub))
              if t.isdigit() and int(t) > int(cores)]  # a worker count above the cores here: oversubscribed
    return out, notes
