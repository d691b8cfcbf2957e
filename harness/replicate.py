"""A write-up's replication: its data file read, its claims judged, its section rendered.

A write-up is one data file, peers/published/NAME.tsv (peers/README.md, "Published figures", says what its lines
mean). run.sh runs its tables here as a sweep per group of tables that share their settings, each point of which is
one plan line ("ROW@GROUP" at N); the section's record names the plan line that measured each point, or why none did,
and carries the data file's text, so that the section is rendered from the store: the write-up's tables in its own
shape (per column, the figure here in the write-up's unit, the published one and their ratio), its claims judged on
both, and what differs between its runs and these. `bars` gives the section's chart its bars."""

import os
import re
import sys

import render
import settings
import stats
from render import escape
from result import num
from scenarios import SCENARIOS

# The scenarios whose tasks wait on a sleep that --peers lengthens to keep every task alive at once, a coroutine (or
# the like) each: coro_timer and coro_shared.
WAITING = [s for s, d in SCENARIOS.items() if d["peers_sleep"] == "long" and not d["threads"]]

# The units a column may have: what each measures, and its size in the dimension's base unit (KiB, %, s).
UNITS = {"KB": ("mem", 1), "KiB": ("mem", 1), "KiB,": ("mem", 1), "MB": ("mem", 1024),
         "MiB": ("mem", 1024), "GB": ("mem", 1048576), "%": ("pct", 1), "s": ("time", 1),
         "ms": ("time", 0.001), "m:ss": ("time", 1)}
SETTABLE = settings.SETTABLE
OURS = "c++20 (this repo)"


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def published(path, tables=""):
    return Published(read(path), tables)

NUM = re.compile(r"^[0-9][0-9,]*([.][0-9]+)?$|^[0-9]+:[0-5][0-9]([.][0-9]+)?$")


def has(v):
    return v not in ("", "-")


def numeric(v):
    """A published number in its unit's terms: "992,608" is 992608, "1:04" 64 seconds."""
    v = v.replace(",", "")
    m = re.fullmatch(r"([0-9]+):([0-9]+([.][0-9]+)?)", v)
    return int(m.group(1)) * 60 + float(m.group(2)) if m else float(v)


def is_value(v):
    """A published value: a number, or several readings joined by "/" (no stable value)."""
    return all(NUM.match(r) for r in v.split("/"))


def first_unit(units):
    return units.split("/")[0]


def secs(ms):
    return "%g" % (float(ms) / 1000)


class Published:
    """The data file as records. A table is keyed by its id= (else its N); its settings (VAR=VALUE) make its group:
    the tables of one group are one sweep over their N. A figure is kept as printed and, for comparing, as the lowest
    and highest of its readings in its dimension's base unit."""

    def __init__(self, text, tables="", on_line=None):
        self.about, self.run = {}, {}
        self.tables, self.groups = [], {}
        self.cols, self.measure, self.units, self.ctitle = [], {}, {}, {}
        self.rows, self.row = [], {}
        self.fig, self.funit, self.figwhy, self.rowunit = {}, {}, {}, {}
        self.lo, self.hi, self.shown, self.npub = {}, {}, {}, {}
        self.facts, self.nobuild, self.claims = [], {}, []
        picked = tables.split()
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith("#") or line == "":
                continue
            f = line.split("\t")
            nf = len(f)
            f += [""] * (8 - len(f))
            self.read(f, number, line, picked)
            if on_line:
                on_line(self, f, nf, number)

    def read(self, f, number, line, picked):
        """One line of the file, its fields F (padded with empty ones) and its number."""
        kind = f[0]
        if kind == "about":
            self.about[f[1]] = f[2]
        elif kind == "run":
            self.run[f[1]] = f[2]
        elif kind == "table":
            attrs = [a for a in line.split("\t")[3:]]
            key = f[1]
            for a in attrs:
                if a.startswith("id="):
                    key = a[3:]
            if picked and key not in picked:
                return
            scen = attrs[0] if attrs and "=" not in attrs[0] else "-"
            settings = " ".join(a for a in attrs if "=" in a and not a.startswith("id="))
            group = self.groups.setdefault(settings, len(self.groups) + 1)
            self.tables.append({"n": f[1], "title": f[2], "scen": scen, "key": key,
                                "set": settings, "line": number, "group": group,
                                "bad": ([None] + [a for a in attrs[1:] if "=" not in a])[-1]})
        elif kind == "column":
            self.cols.append(f[1])
            self.measure[f[1]], self.units[f[1]], self.ctitle[f[1]] = f[2], f[3], f[4]
        elif kind == "row":
            self.rows.append(f[1])
            self.row[f[1]] = {"scen": f[2], "prog": f[3], "variant": f[4], "threads": f[5], "label": f[6]}
        elif kind == "fig":
            k = (f[1], f[2], f[3])
            self.fig[k], self.funit[k] = f[4], f[5]
            if f[4] == "-":
                self.figwhy[k] = f[6]
            else:
                self.rowunit[f[1], f[3]] = f[5]
            if is_value(f[4]) and f[5] in UNITS:
                size = UNITS[f[5]][1]
                readings = [numeric(r) * size for r in f[4].split("/")]
                self.lo[k], self.hi[k], self.shown[k] = min(readings), max(readings), f[4]
                self.npub[f[2], f[3]] = self.npub.get((f[2], f[3]), 0) + 1
        elif kind == "fact":
            self.facts.append({"id": f[1], "key": f[2], "value": f[3], "words": f[4]})
        elif kind == "nobuild":
            self.nobuild[f[1]] = f[2]
        elif kind == "claim":
            self.claims.append({"expr": f[1], "answer": f[2], "words": f[3], "precise": f[4],
                                "pwords": f[5], "line": number})

    def label(self, id_):
        return self.row[id_]["label"] if id_ in self.row else ""

    def sleep_of(self, settings):
        """The SLEEP_MS a table's settings give, else the run lines'."""
        m = re.search(r"(?:^| )SLEEP_MS=([0-9]+)", settings)
        return m.group(1) if m else self.run.get("SLEEP_MS", "")


class Figures:
    """A set of figures to judge a claim on: the published ones, or those measured here, by (row, table key, column):
    lowest, highest and as shown."""

    def __init__(self, lo, hi, shown):
        self.lo, self.hi, self.shown = lo, hi, shown


class Judge:
    """A claim's verdict ("yes", "no", "cannot tell") on one set of figures, and the figures it was judged on. Several
    comparisons joined by " and " must all hold: one that does not decides "no", though another cannot be told. Where
    a figure has several readings, "A below B" holds only if every reading of A is below every reading of B."""

    def __init__(self, pub, labels):
        self.pub, self.labels = pub, labels

    def value(self, id_, t, col, figs, claim_col):
        """(lo, hi, shown) of row ID at table T in COL ("A+B": the sum of two columns), or None; shown with its unit
        where a column mixes units or a claim sums two."""
        if "+" in col:
            a, b = col.split("+")[:2]
            va = self.value(id_, t, a, figs, claim_col)
            if va is None:
                return None
            vb = self.value(id_, t, b, figs, claim_col)
            if vb is None:
                return None
            return va[0] + vb[0], va[1] + vb[1], va[2] + " + " + vb[2]
        k = (id_, t, col)
        if k not in figs.lo:
            return None
        shown = figs.shown[k]
        if "/" in self.pub.units.get(col, "") or "+" in claim_col:
            shown += " " + (self.pub.funit[k] if k in self.pub.funit else first_unit(self.pub.units.get(col, "")))
        return figs.lo[k], figs.hi[k], shown

    def judge(self, expr, figs):
        verdict, parts = "yes", []
        for one in expr.split(" and "):
            v, f = self.judge_one(one, figs)
            if v == "no":
                verdict = "no"
            elif v == "cannot tell" and verdict == "yes":
                verdict = v
            parts.append(f)
        return verdict, "; ".join(parts)

    def judge_one(self, c, figs):
        w = [""] + c.split()
        label = self.labels
        if w[1] in ("min", "max"):
            col, t, target, lowest = w[2], w[4], w[6], w[1] == "min"
            x = self.value(target, t, col, figs, col)
            if x is None:
                return "cannot tell", "-"
            best, b_v, b_shown, counted, ok = "", 0, "", 0, True
            for r in self.pub.rows:
                v = self.value(r, t, col, figs, col)
                if v is None:
                    continue
                counted += 1
                if best == "" or (v[0] < b_v if lowest else v[1] > b_v):
                    best, b_v, b_shown = r, v[0] if lowest else v[1], v[2]
                if r != target and (x[1] >= v[0] if lowest else x[0] <= v[1]):
                    ok = False
            figures = f"{label(best)} {b_shown}"
            if best != target:
                figures += f"; {label(target)} {x[2]}"
            if counted < self.pub.npub.get((t, col), 0):
                figures += f" (of the {counted} rows with a figure, where {self.pub.npub[t, col]} have one published)"
            return "yes" if ok else "no", figures
        if w[1] == "ratio":
            col, t = w[2], w[7]
            x = self.value(w[5], t, col, figs, col)
            if x is None or x[0] == 0:
                return "cannot tell", "-"
            v = self.value(w[3], t, col, figs, col)
            if v is None:
                return "cannot tell", "-"
            r, b_v = v[0] / x[1], v[1] / x[0]
            figures = "%s / %s = %.2f" % (label(w[3]), label(w[5]), r)
            if "%.2f" % b_v != "%.2f" % r:
                figures += "–%.2f" % b_v
            holds = r > numeric(w[9]) if w[8] == ">" else b_v < numeric(w[9])
            return "yes" if holds else "no", figures
        if w[1] == "chain":
            # Groups of terms ranked together ("~"), each wholly below ("<") or above (">") the next.
            col, figures, groups = w[2], "", []
            for i in range(3, len(w), 2):
                row, t = w[i].split("@")
                v = self.value(row, t, col, figs, col)
                if v is None:
                    return "cannot tell", "-"
                figures += (f" {w[i - 1]} " if i > 3 else "") + f"{label(row)}@{t} {v[2]}"
                if i == 3 or w[i - 1] != "~":
                    groups.append([v[0], v[1], w[i - 1]])
                else:
                    groups[-1][0], groups[-1][1] = min(groups[-1][0], v[0]), max(groups[-1][1], v[1])
            ok = all(not (g[2] == "<" and p[1] >= g[0]) and not (g[2] != "<" and p[0] <= g[1])
                     for p, g in zip(groups, groups[1:]))
            return "yes" if ok else "no", figures
        col, t = w[1], w[6]
        x = self.value(w[4], t, col, figs, col)
        if x is None:
            return "cannot tell", "-"
        v = self.value(w[2], t, col, figs, col)
        if v is None:
            return "cannot tell", "-"
        holds = v[1] < x[0] if w[3] == "<" else v[0] > x[1]
        return "yes" if holds else "no", f"{label(w[2])} {v[2]}, {label(w[4])} {x[2]}"


def quick_n(n, quick):
    n = int(n)
    return n // 10 if quick and n >= 10 else n


def point_values(points, measured):
    """Each point's figures, by (label, N): why it has none, or its runs' (the kept run and the means over all of them
    of the wall and max RSS)."""
    values = {}
    for p in points:
        key = (p["label"], str(p["n"]))
        why, runs = (p["why"], []) if "ref" not in p else measured.outcome(p["ref"])
        if why is not None:
            values[key] = {"why": why}
            continue
        b = stats.best(runs)
        values[key] = {"why": "-", "run": b, "alive": stats.alive(b),
                       "wall_mean": sum(r.wall_s for r in runs) / len(runs),
                       "max_rss_mean": sum(r.max_rss_kib for r in runs) / len(runs)}
    return values


class Section:
    """The section's tables, claims and differences, from the data file, the points' figures and the programs here
    (each row's runtime, variant, program and build state)."""

    def __init__(self, context, values):
        self.ctx = context
        self.pub = Published(context["published"], context.get("tables", ""))
        self.values = values
        self.quick = context.get("quick", "") != ""
        self.long_ms = context["long_ms"]
        self.here = {h[0]: {"label": h[1], "variant": h[2], "prog": h[3], "state": h[4]} for h in context["here"]}
        self.ours = [h[0] for h in context["here"] if h[0].startswith("ours:")]
        self.rscen = {r: self.pub.row[r]["scen"] for r in self.pub.rows}
        self.base, self.copies = {}, {}
        for h in context["here"]:
            id_ = h[0]
            if id_.startswith("ours:"):
                self.rscen[id_] = h[3]
            elif re.search(r"[+][0-9]+$", id_) and (h[4] == "ok" or h[4].startswith("build failed")):
                b = re.sub(r"[+][0-9]+$", "", id_)
                self.copies.setdefault(b, []).append(id_)
                self.base[id_] = b
                self.rscen[id_] = self.rscen.get(b, "")
        self.gset, self.long_of, self.long_n = {}, {}, {}
        for g in groups(self.pub, self.quick, self.long_ms):
            if len(g) == 4:
                if g[1] != "-":
                    self.gset[int(g[0])] = g[1]
            else:
                for of in g[4].split(","):
                    self.long_of[int(of), g[3]] = g[0]
                self.long_n[g[0]] = g[2]

    def base_of(self, id_):
        return self.base.get(id_, id_)

    def label(self, id_):
        """A row's label: the write-up's, or for ours the runtime here."""
        return self.here[id_]["label"] if id_.startswith("ours:") and id_ in self.here else self.pub.label(id_)

    def figure(self, l, n, m, u):
        """The figure measured here of label L (ROW@GROUP) at N, of measure M in unit U, as the table shows it; ""
        when there is none."""
        v = self.values.get((l, str(n)))
        if v is None or v["why"] != "-":
            return ""
        size, r = UNITS[u][1], v["run"]
        if "rss" in m:
            kib = {"max_rss": r.max_rss_kib, "avg_rss": r.avg_rss_kib, "rss_wait": num(r.get("rss_wait_kib")),
                   "avg_rss_window": r.window_avg_kib, "max_rss_mean": v["max_rss_mean"]}[m]
            if kib is None:
                return ""
            if u == "KiB,":
                return f"{int(kib):,}"
            if u == "GB":
                return "%.2f" % (kib / size)
            return "%.1f" % (kib / size) if size > 1 else "%d" % int(kib / size)
        if m == "cpu_pct":
            return "%d" % int(r.cpu_s / r.wall_s * 100 + 0.5) if r.wall_s > 0 else ""
        x = {"wall": r.wall_s, "user": r.user_s, "sys": r.sys_s, "wall_mean": v["wall_mean"]}[m]
        if u == "m:ss":
            return "%d:%02d" % (int(x / 60), int(x) % 60)
        if u == "ms":
            return "%.2f" % (x * 1000)
        return "%.2f" % x

    def unit_of(self, id_, t, c):
        """The unit row ID's figures are in, in column C: its published figure's there, else the row's in another
        table, else the column's first."""
        k = (id_, t, c)
        return self.pub.funit[k] if k in self.pub.funit else self.pub.rowunit.get((id_, c), first_unit(self.pub.units[c]))

    def row(self, t, n, id_, l, long, mine_figs):
        """The line of row ID in table T, its figures those of label L at N; LONG: the row again at
        --peers' sleep, with no published figure beside it. Keeps each figure for the claims."""
        pub, b = self.pub, self.base_of(id_)
        ours = id_.startswith("ours:")
        mine = ours or long
        v = self.values.get((l, str(n)))
        line = "| " + escape("-" if ours else pub.label(b)) + " | "
        if not ours and pub.row[b]["prog"] == "-":
            line += "not to be had here |"
        elif id_ not in self.here:
            line += "- |"
        else:
            line += escape(self.here[id_]["label"] + (f", at a {secs(self.long_ms)} s sleep" if long else "")) + " |"
        for c, col in enumerate(pub.cols):
            u = self.unit_of(b, t["key"], col)
            mixed = "/" in pub.units[col]
            h = self.figure(l, n, pub.measure[col], u)
            fk, hk = (b, t["key"], col), (id_, t["key"], col)
            p = pub.fig.get(fk, "")
            x = None if h == "" else numeric(h) * UNITS[u][1]
            if x is not None and not long:
                mine_figs.lo[hk] = mine_figs.hi[hk] = x
                mine_figs.shown[hk] = h
            if h == "" and c == 0:
                state = self.here.get(id_, {}).get("state", "")
                h = ("-" if not ours and pub.row[b]["prog"] == "-" else v["why"] if v is not None
                     else "-" if state in ("", "ok") else f"not run: {state}")
            elif h == "":
                h = "-"
            ra = "-"
            if x is not None and fk in pub.lo and pub.lo[fk] > 0:
                ra, hi_ra = "%.2f" % (x / pub.hi[fk]), "%.2f" % (x / pub.lo[fk])
                if hi_ra != ra:
                    ra += "–" + hi_ra
            if mixed and x is not None:
                h += " " + u
            if mixed and has(p):
                p += " " + pub.funit[fk]
            if self.quick:
                line += f" {escape(h)} |"
            else:
                line += f" {escape(h)} | " + ("" if mine else escape(p or "-")) + " | " + ("" if mine else ra) + " |"
        alive = v["alive"] if v is not None and "alive" in v and has(v["alive"]) else "-"
        return line + " " + escape(alive) + " |"

    def text(self):
        pub, out, said = self.pub, [], set()

        def say(line):  # rows of several tables under one label state one difference once
            if line not in said:
                said.add(line)
                out.append(line)

        mine = Figures({}, {}, {})
        order = []
        for r in pub.rows:
            order += [r] + self.copies.get(r, [])
        order += self.ours
        notes, noted, shorts = [], set(), []
        for t in pub.tables:
            n = quick_n(t["n"], self.quick)
            settings = t["set"].replace(" ", ", ")
            out.append(f"### {t['title']}" + (f" ({settings})" if settings else "")
                       + (f" (here N={n}, --quick)" if self.quick and n != int(t["n"]) else ""))
            out.append("")
            head, sep = "| runtime there | runtime here |", "|---|---|"
            for col in pub.cols:
                u = "KiB" if pub.units[col] == "KiB," else pub.units[col]
                # --quick measures at N / 10: no published figure stands beside it.
                if self.quick:
                    head += f" {pub.ctitle[col]} here {u} |"
                    sep += "--:|"
                else:
                    head += f" {pub.ctitle[col]} here {u} | published {u} | here / published |"
                    sep += "--:|--:|--:|"
            out += [head + " all alive |", sep + "---|"]
            for id_ in order:
                if t["scen"] != "-" and self.rscen.get(self.base_of(id_), "") != t["scen"]:
                    continue
                out.append(self.row(t, n, id_, f"{id_}@{t['group']}", False, mine))
                # At the group's largest N, the row again at --peers' sleep.
                lg = self.long_of.get((t["group"], self.rscen.get(self.base_of(id_), "")))
                if lg is not None and n == int(self.long_n[lg]) and (id_.startswith("ours:") or pub.row[self.base_of(id_)]["prog"] != "-"):
                    out.append(self.row(t, n, id_, f"{id_}@{lg}", True, mine))
                    ms = secs(pub.sleep_of(self.gset.get(t["group"], ""))) + " s"
                    if ms not in shorts:
                        shorts.append(ms)
            # A row with no published figure in several columns, for one reason: one line.
            for r in pub.rows:
                for col in pub.cols:
                    if (r, t["key"], col) in pub.figwhy:
                        line = f"- {pub.label(r)}, {t['title']}: published \"-\": {pub.figwhy[r, t['key'], col]}"
                        if line not in noted:
                            noted.add(line)
                            notes.append(line)
            out.append("")
        out += notes
        runs, about = self.ctx["runs_here"], pub.about
        if shorts:
            out.append(f"- \"at a {secs(self.long_ms)} s sleep\": the row's program again at that N, with --peers' sleep"
                       f" instead of the write-up's ({', '.join(shorts)}). A task that ends before the last one is"
                       " spawned frees memory that the max RSS then never holds, and spawning N tasks here can take"
                       " longer than the write-up's sleep (the fresh-memory line above says why), so only a row whose"
                       " tasks were all alive measures N tasks waiting at once. The published figure was measured at"
                       " the write-up's sleep, so none stands beside this row")
        if "figures" in about:
            out.append(f"- published: none here: {about['figures']}")
        if self.quick:
            out.append(f"- each figure here is the run with the lowest wall time of RUNS={runs}, max RSS and CPU from"
                       f" /usr/bin/time (CPU % = (user + sys) / wall), in the write-up's unit as it defined it: {about.get('unit', '')}")
        else:
            out.append("- here / published: the figure measured here over the one published (over its lowest and"
                       " highest reading where it printed several); each figure here is the run with the lowest wall"
                       f" time of RUNS={runs}, max RSS and CPU from /usr/bin/time (CPU % = (user + sys) / wall),"
                       f" converted to the write-up's unit as it defined it: {about.get('unit', '')}")
        out.append(f"- the write-up: \"{about.get('title', '')}\", {about.get('author', '')}, {about.get('published', '')}"
                   f" ({about.get('url', '')}), read {about.get('read', '')}; its machine: {about.get('machine', '')};"
                   f" its versions: {about.get('versions', '')}; its runs: {about.get('runs', '')}")
        out += self.ctx.get("notes", [])
        out.append("")
        judged_on = self.judged_on(mine)
        labels = self.label
        judge = Judge(pub, labels)
        if pub.claims and self.quick:
            out += ["- its claims: not judged with --quick, whose N are not the write-up's", ""]
        if pub.claims and not self.quick:
            out += ["### Its claims, checked", "", "| claim | published | holds there? | here | holds here? |",
                    "|---|---|---|---|---|"]
            published = Figures(pub.lo, pub.hi, pub.shown)
            for c in pub.claims:
                out.append(self.claim_row(judge, c["words"], c["expr"], published, mine))
                if c["precise"]:
                    out.append(self.claim_row(judge, "precisely: " + c["pwords"], c["precise"], published, mine))
            out.append("")
            for r in pub.rows:
                if r in judged_on:
                    say(f"- here, {pub.label(r)} is judged on its {self.here[judged_on[r]]['label']} row, the write-up's version")
            if judged_on:
                out.append("")
        out += ["### What differs between its runs and these", "",
                f"- the machine: {about.get('machine', '')} there; {self.ctx['machine_here']} here",
                f"- runs: {about.get('runs', '')} there; the best of RUNS={runs} here"]
        if self.quick:
            out.append("- N: the write-up's there; each N above 1 divided by 10 here (--quick)")
        done_all = set()
        for i, f in enumerate(pub.facts):
            for id_ in pub.rows:
                if f["id"] != id_ and f["id"] != "*":
                    continue
                prog = pub.row[id_]["prog"]
                if f["id"] == "*" and (prog == "-" or i in done_all):
                    continue
                who = "every program" if f["id"] == "*" else pub.label(id_)
                if f["id"] == "*":
                    done_all.add(i)
                here = self.here.get(id_, {})
                if f["key"] == "version" and prog != "-":
                    beside = ", ".join(self.here[c]["label"] for c in self.copies.get(id_, []))
                    if f["value"] == "-" or not self.same_version(id_, f["value"]):
                        say(f"- {who}: {f['words']} there; {here.get('label') or 'not run'} here"
                            + (f", and beside it {beside}" if beside else "")
                            + (f"; its claims are judged on {self.here[judged_on[id_]]['label']}" if id_ in judged_on and not self.quick else ""))
                elif f["key"] == "launcher" and f["value"] != "built":
                    say(f"- {who}: {f['words']} there; a built binary here")
                elif f["key"] == "shape" and prog != "-" and f["value"] not in here.get("variant", ""):
                    say(f"- {who}: {f['words']} there; {here.get('variant', '')} here")
                elif f["key"] == "missing":
                    say(f"- {who}: not run here: {f['words']}")
                elif f["key"] not in ("version", "launcher", "shape"):
                    say(f"- {who}: {f['words']} there ({f['key']})")
        for r in pub.rows:
            if r in pub.nobuild:
                out.append(f"- {pub.label(r)}, as published: {pub.nobuild[r]}")
        return out

    def judged_on(self, mine):
        """Where the write-up states a version that the row's build here is not and a copy of its program is
        (PEERS_PATCH, PEERS_DOTNET): the copy its claims are judged on, whose figures then stand for the row's."""
        pub, on = self.pub, {}
        for f in pub.facts:
            if f["key"] == "version" and f["id"] in pub.row and f["value"] != "-" and not self.same_version(f["id"], f["value"]):
                for c in self.copies.get(f["id"], []):
                    if self.here[c]["state"] == "ok" and self.same_version(c, f["value"]):
                        on[f["id"]] = c
                        break
        for b, c in on.items():
            for t in pub.tables:
                for col in pub.cols:
                    k, kc = (b, t["key"], col), (c, t["key"], col)
                    for d in (mine.lo, mine.hi, mine.shown):
                        d.pop(k, None)
                        if kc in d:
                            d[k] = d[kc]
        return on

    def same_version(self, id_, want):
        """The runtime here of row ID is version WANT ("1.41" holds 1.41.1, not 1.4.1)."""
        v = re.sub(r"^[^0-9]*", "", self.here.get(id_, {}).get("label", ""))
        v = re.sub(r"[^0-9.].*$", "", v)
        return (v + ".").startswith(want + ".")

    def claim_row(self, judge, words, expr, published, mine):
        there, there_figs = judge.judge(expr, published)
        here, here_figs = judge.judge(expr, mine)
        return f"| {escape(words)} (`{expr}`) | {escape(there_figs)} | {there} | {escape(here_figs)} | {here} |"


def groups(pub, quick, long_ms):
    """The write-up's tables by their settings, in their order: [number, settings ("-" for none),
    N list, scenarios ("-": every one)]. With --quick, each N above 1 is divided by 10, and a
    table's HITS too. Then, where a group's coro_timer or coro_shared tables sleep less than
    --peers does (LONG_MS), a group per such scenario that runs it again at the largest N of its
    tables with --peers' sleep, its fifth field the groups it serves (those that differ only in
    their sleep share one). A task that ends before the last one is spawned frees memory, so at a
    write-up's short sleep some rows hold fewer than N tasks at once; this row holds all."""
    out, ns, sc, sets, top = [], {}, {}, {}, {}
    for t in pub.tables:
        g = t["group"]
        ns.setdefault(g, []).append(quick_n(t["n"], quick))
        sc.setdefault(g, []).append(t["scen"])
        if g not in sets:
            s = t["set"]
            if quick:
                s = re.sub(r"(^| )HITS=([0-9]+)", lambda m: f"{m.group(1)}HITS={quick_n(m.group(2), True)}", s, count=1)
            sets[g] = s
        for s in (pub.run.get("scenarios", "").split() if t["scen"] == "-" else [t["scen"]]):
            if s in WAITING and quick_n(t["n"], quick) > top.get((g, s), 0):
                top[g, s] = quick_n(t["n"], quick)
    made, extra = {}, []
    for g in sorted(ns):
        out.append([str(g), sets[g] or "-", " ".join(str(n) for n in sorted(set(ns[g]))),
                    "-" if "-" in sc[g] else " ".join(sc[g])])
        ms = pub.sleep_of(sets[g])
        # --quick is a first look: its N are not the write-up's, and it adds no rows at 30 s.
        if quick or ms == "" or int(ms) >= int(long_ms):
            continue
        again = re.sub(r"(^| )SLEEP_MS=[0-9]+", "", sets[g]).lstrip(" ")
        again += ("" if again == "" else " ") + f"SLEEP_MS={long_ms}"
        for s in WAITING:
            if (g, s) not in top:
                continue
            k = (again, top[g, s], s)
            if k in made:
                made[k][4] += f",{g}"
            else:
                made[k] = [str(len(ns) + len(extra) + 1), again, str(top[g, s]), s, str(g)]
                extra.append(made[k])
    return out + extra


def values_of(context, records):
    return point_values(context["points"], render.Measured(records))


def section(context, records):
    """The replication's section: its lines before the tables, then the tables, claims and what differs, every figure
    computed from the records."""
    body = Section(context, values_of(context, records)).text()
    return "\n".join(list(context["head"]) + body + [""]) + "\n"


def bars(context, records):
    """The chart's bars, from the first of the write-up's tables at its largest N: a bar per row of it measured here,
    labelled with the write-up's label and the runtime here, its max RSS in MiB, the published figure in MiB (from the
    first column of max RSS, in its unit as the write-up defined it), and "no" where its tasks were not all alive at
    once; smallest first."""
    sec = Section(context, values_of(context, records))
    pub = sec.pub
    top = None
    for t in pub.tables:
        if top is None or int(t["n"]) > int(top["n"]):
            top = t
    col = next((c for c in pub.cols if pub.measure[c] == "max_rss"), "")
    n = quick_n(top["n"], sec.quick)
    out = []

    def bar(id_, name):
        if top["scen"] != "-" and sec.rscen.get(id_, "") != top["scen"]:
            return
        v = sec.values.get((f"{id_}@{top['group']}", str(n)))
        if v is None or v["why"] != "-":
            return
        k = (sec.base_of(id_), top["key"], col)
        p = "-" if col == "" or sec.quick or k not in pub.lo else "%.1f" % ((pub.lo[k] + pub.hi[k]) / 2 / 1024)
        mib = v["run"].max_rss_kib / 1024
        out.append((float("%.1f" % mib), f"{name}\t{'%.1f' % mib}\t{p}\t{'no' if v['alive'].startswith('no') else '-'}"))

    for r in pub.rows:
        bar(r, f"{pub.label(r)} ({sec.here.get(r, {}).get('label', '')})")
        for c in sec.copies.get(r, []):
            bar(c, f"{pub.label(r)} ({sec.here[c]['label']})")
    for id_ in sec.ours:
        bar(id_, sec.here[id_]["label"])
    return [line for _, line in sorted(out)]  # smallest first


MEASURES = ("max_rss", "max_rss_mean", "avg_rss", "avg_rss_window", "rss_wait", "cpu_pct", "wall",
            "wall_mean", "user", "sys")
FIELDS = {"about": 3, "run": 3, "column": 5, "row": 7, "fact": 5, "nobuild": 3}
RUN_VARS = SETTABLE + ("RUNS", "scenarios", "ns")
ABOUT = ("name", "author", "year", "title", "url", "read", "measured", "machine", "versions", "unit", "runs")


class Check:
    """Whether a data file parses, each problem a line "FILE:LINE: what": every line a comment or one of the kinds
    with its fields; the about lines the listing needs; the run lines known variables; at least one table, column and
    row, no row or column given twice; every figure of a known row, table and column, given once, a number, readings
    or "-" with why, in one of its column's units; every fact of a known row; every claim in the grammar, and its
    recorded answer the one its published figures give (its precise form, where it has one, holding on them). The
    values of the run lines' and tables' settings are run.sh's to check (settings)."""

    def __init__(self, path, text):
        self.path, self.problems, self.line = path, [], 0
        self.row_at, self.col_at, self.fig_at, self.keyline, self.anyscen = {}, {}, {}, {}, set()
        self.pub = Published(text, "", self.check_line)
        self.check_end()

    def bad(self, msg):
        self.problems.append(f"{self.path}:{self.line}: {msg}")

    def once(self, seen, key, what, number):
        """A second line of one key is refused, not let overwrite the first."""
        if key in seen:
            self.bad(f"second {what} (first at line {seen[key]})")
        else:
            seen[key] = number

    def at(self, id_, t):
        """ROW is a row of table T (a table of one scenario holds that scenario's rows only)."""
        pub = self.pub
        if id_ not in pub.row:
            return False
        keys = {(x["key"], x["scen"]) for x in pub.tables}
        return (t, pub.row[id_]["scen"]) in keys or (t, "-") in keys

    def check_line(self, pub, f, nf, number):
        self.pub, kind, bad = pub, f[0], self.bad
        self.line = number
        if kind == "fig":
            if nf not in (6, 7):
                bad(f"fig needs 6 or 7 fields, has {nf}")
        elif kind == "table":
            if nf < 3:
                bad(f"table needs 3 fields or more, has {nf}")
        elif kind == "claim":
            if nf not in (4, 6):
                bad(f"claim needs 4 or 6 fields, has {nf}")
        elif kind not in FIELDS:
            bad(f'unknown kind "{kind}"')
            return
        elif nf != FIELDS[kind]:
            bad(f"{kind} needs {FIELDS[kind]} fields, has {nf}")
        for i in range(nf):
            if f[i] == "":
                bad(f"field {i + 1} is empty")
        if "\r" in "".join(f):
            bad("a carriage return: save the file with LF line ends")
        if kind == "run" and f[1] not in RUN_VARS:
            bad(f"unknown run variable {f[1]}")
        if kind == "row":
            self.once(self.row_at, f[1], f"row {f[1]}", number)
            # A row's copies are ID+SET and its points ID@GROUP.
            if re.search(r"[+][0-9]+$", f[1]) or "@" in f[1]:
                bad(f"a row's id has no @ and does not end in +DIGITS: {f[1]}")
        if kind == "column":
            self.once(self.col_at, f[1], f"column {f[1]}", number)
            if f[2] not in MEASURES:
                bad(f"unknown measure {f[2]}")
            us = f[3].split("/") if f[3] else []
            for u in us:
                if u not in UNITS:
                    bad(f"unknown unit {u}")
                elif UNITS[u][0] != UNITS.get(us[0], ("",))[0]:
                    bad(f"a column in {us[0]} and {u}, which measure different things")
        if kind == "table":
            t = pub.tables[-1]
            # Tables of different scenarios may share an N: a row's scenario says which it is in.
            if (t["key"], t["scen"]) in self.keyline or (t["key"] in self.anyscen if t["scen"] == "-" else (t["key"], "-") in self.keyline):
                bad(f"a second table keyed {t['key']} for the same rows; give it an id=")
            self.keyline[t["key"], t["scen"]] = number
            self.anyscen.add(t["key"])
            if not re.fullmatch(r"[1-9][0-9]*", t["n"]):
                bad(f"a table's N is a whole number from 1, without a leading zero: {t['n']}")
            if t["bad"] is not None:
                bad(f"after a table's scenario come id= and settings, not {t['bad']}")
            if t["scen"] != "-" and t["scen"] not in pub.run.get("scenarios", "").split(" "):
                bad(f"a table of {t['scen']}, which is not one of run scenarios")
            if "ns" in pub.run and t["n"] not in pub.run["ns"].split(" "):
                bad(f"a table at N={t['n']}, which run ns does not list")
            for a in f[3:nf]:
                if "=" in a and not a.startswith("id="):
                    if a.split("=")[0] not in SETTABLE:
                        bad(f"unknown table setting {a} (id= or one of {' '.join(SETTABLE)} )")
                elif a.startswith("id=") and not re.fullmatch(r"id=[A-Za-z0-9_.-]+", a):
                    bad(f"a table's id is one word: {a}")
        if kind == "fig":
            self.once(self.fig_at, (f[1], f[2], f[3]), f"fig for {f[1]} {f[2]} {f[3]}", number)
            if f[1] not in pub.row:
                bad(f"fig of an unknown row {f[1]}")
            if f[2] not in {t["key"] for t in pub.tables}:
                bad(f"fig of no table: {f[2]}")
            elif f[1] in pub.row and not self.at(f[1], f[2]):
                bad(f"fig of {f[1]} in table {f[2]}, which holds another scenario's rows")
            if f[3] not in pub.units:
                bad(f"fig of an unknown column {f[3]}")
            elif f[5] not in pub.units[f[3]].split("/"):
                bad(f"fig in {f[5]}, its column is in {pub.units[f[3]]}")
            if f[4] == "-":
                if f[6] == "":
                    bad("a missing figure needs a reason")
            elif not is_value(f[4]):
                bad(f"not a number: {f[4]}")
        if kind in ("fact", "nobuild") and f[1] != "*" and f[1] not in pub.row:
            bad(f"of an unknown row {f[1]}")

    def check_end(self):
        pub, bad = self.pub, self.bad
        self.line = 0
        if not pub.fig and "figures" not in pub.about:
            bad("no figure, and no about line for figures saying why")
        for a in ABOUT:
            if a not in pub.about:
                bad(f"no about line for {a}")
        name = pub.about.get("name", "")
        if name and not (self.path == f"{name}.tsv" or self.path.endswith(f"/{name}.tsv")):
            bad(f"its name is {name}, not its file name")
        if "scenarios" not in pub.run:
            bad("run needs scenarios")
        if not pub.tables or not pub.cols or not pub.rows:
            bad("it needs a table, a column and a row")
        judge = Judge(pub, pub.label)
        published = Figures(pub.lo, pub.hi, pub.shown)
        for c in pub.claims:
            self.line = c["line"]
            fault = self.fault(c["expr"])
            if fault is not None:
                bad(f"a claim outside the grammar: {c['expr']} ({fault})")
                continue
            if c["answer"] not in ("yes", "no"):
                bad(f"a claim's answer is yes or no, not {c['answer']}")
                continue
            verdict, figures = judge.judge(c["expr"], published)
            if verdict != c["answer"]:
                bad(f"the claim \"{c['expr']}\" is recorded as {c['answer']}, and its published figures say {verdict}: {figures}")
            if c["precise"] == "":
                continue
            fault = self.fault(c["precise"])
            if fault is not None:
                bad(f"a precise form outside the grammar: {c['precise']} ({fault})")
                continue
            verdict, figures = judge.judge(c["precise"], published)
            if verdict != "yes":
                bad(f"the precise form \"{c['precise']}\" does not hold on the published figures ({verdict}: {figures})")

    def fault(self, expr):
        """None if EXPR is in the grammar (peers/README.md), else which of its terms is not."""
        for part in expr.split(" and "):
            fault = self.fault_one(part.split())
            if fault is not None:
                return fault
        return None

    def col_fault(self, c):
        units, ab = self.pub.units, c.split("+")
        if c in units or (len(ab) == 2 and ab[0] in units and ab[1] in units
                          and UNITS.get(first_unit(units[ab[0]]), ("",))[0] == UNITS.get(first_unit(units[ab[1]]), ("",))[0]):
            return None
        return f"{c} is not two columns of one kind summed" if "+" in c else f"no column {c}"

    def table_fault(self, id_, t):
        if self.at(id_, t):
            return None
        if id_ not in self.pub.row:
            return f"no row {id_}"
        if t not in {x["key"] for x in self.pub.tables}:
            return f"no table {t}"
        return f"row {id_} is not in table {t}, a table of another scenario's rows"

    def fault_one(self, w):
        k, w = len(w), [""] + w + [""] * 10

        def first(*faults):
            return next((f for f in faults if f is not None), None)

        if w[1] in ("min", "max"):
            if not (k == 6 and w[3] == "at" and w[5] == "="):
                return f"not of the form {w[1]} COLUMN at T = ROW"
            return first(self.col_fault(w[2]), self.table_fault(w[6], w[4]))
        if w[1] == "ratio":
            if not (k == 9 and w[4] == "/" and w[6] == "at" and w[8] in ("<", ">") and NUM.match(w[9])):
                return "not of the form ratio COLUMN ROW / ROW at T > X (or <)"
            return first(self.col_fault(w[2]), self.table_fault(w[3], w[7]), self.table_fault(w[5], w[7]))
        if w[1] == "chain":
            if not (k >= 5 and k % 2 == 1):
                return "not of the form chain COLUMN ROW@T < ROW@T ..."
            if self.col_fault(w[2]) is not None:
                return self.col_fault(w[2])
            op = ""
            for i in range(3, k + 1, 2):
                rt = w[i].split("@")
                if len(rt) != 2:
                    return f"a chain's terms are ROW@T, not {w[i]}"
                if self.table_fault(rt[0], rt[1]) is not None:
                    return self.table_fault(rt[0], rt[1])
                if i == 3 or w[i - 1] == "~":
                    continue
                if w[i - 1] not in ("<", ">"):
                    return f"a chain's terms are joined by <, > or ~, not {w[i - 1]}"
                if op not in ("", w[i - 1]):
                    return "a chain mixes < and >"
                op = w[i - 1]
            return None if op else "a chain needs a < or > between two of its terms"
        if not (k == 6 and w[3] in ("<", ">") and w[5] == "at"):
            return "not of the form COLUMN ROW < ROW at T (or >), nor min, max, ratio or chain"
        return first(self.col_fault(w[1]), self.table_fault(w[2], w[6]), self.table_fault(w[4], w[6]))


def rows(tables, pub):
    """The write-up's rows, as ID, scenario, program here, variant, threads and label, in its order, each followed by
    its program's copies built against a set of PEERS_PATCH or for a version of PEERS_DOTNET (program@SET: row
    ID+SET); then ours, one row per scenario, variant and threads among them ("ours" and those, joined by ":"),
    labelled as ours."""
    copies = {}
    for r in tables.catalogue:
        m = re.fullmatch("(.*)@[0-9]+", r["prog"])
        if m and r["prog"] not in copies.setdefault(m.group(1), []):
            copies[m.group(1)].append(r["prog"])
    out, ours = [], {}
    for id_ in pub.rows:
        w = pub.row[id_]
        f = (w["scen"], w["prog"], w["variant"], w["threads"], w["label"])
        out.append((id_,) + f)
        out += [(f"{id_}+{c.partition('@')[2]}", f[0], c) + f[2:] for c in copies.get(w["prog"], [])]
        ours.setdefault((f[0], f[2], f[3]), None)
    for scen, key, t in ours:
        id_ = "ours:" + scen + ("" if key == "-" else ":" + key) + ("" if t == "-" else f":{t}t")
        out.append((id_, scen, scen, key, t, OURS))
    return out


def check(path, text):
    """(problems, the data file read): every problem of Check, then those of the run lines' settings and of each
    table's over them, by run.sh's rules (settings.problem); the run lines' once."""
    c = Check(path, text)
    problems, first, run = list(c.problems), 0, []
    for number, line in enumerate(text.split("\n"), 1):
        f = line.split("\t")
        if f[0] == "run" and len(f) > 2 and f[1] in SETTABLE:
            first, run = first or number, run + [f"{f[1]}={f[2]}"]
    why = settings.problem(run) if first else None
    if why:
        problems.append(f"{path}:{first}: its run lines: {why}")
    else:
        for t in c.pub.tables:
            why = settings.problem(run + t["set"].split(" ")) if t["set"] else None
            if why:
                problems.append(f"{path}:{t['line']}: this table's settings, over the run lines': {why}")
    return problems, c.pub


def list_all(folder, estimate, out):
    """Every write-up --replicate knows, with how long its replication takes here (ESTIMATE(NAME))."""
    out.write("./run.sh --replicate NAME [--quick] runs one of these write-ups' tables again here:\n")
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".tsv"):
            continue
        with open(os.path.join(folder, f), encoding="utf-8", newline="") as fh:
            a = Published(fh.read()).about
        out.write(f"\n  {a.get('name', '')}: {a.get('author', '')} ({a.get('year', '')}), \"{a.get('title', '')}\"\n"
                  f"    {a.get('url', '')}\n    {a.get('measured', '')}\n    {estimate(a.get('name', f[:-4]))}\n")
        out.flush()


def here_rows(run):
    """Each row's program here: ID, the runtime column here (with its version), the variant cell, the program, and its
    build's state (ok, missing, "build failed: ...")."""
    t, s, out = run.t, run.s, []
    for id_, scen, prog, key, threads, _ in rows(t, published(s["pubfile"], s["TABLES"])):
        r = None if prog == "-" else next((x for x in t.catalogue if x["scen"] == scen and x["prog"] == prog
                                           and key in ("-", x["key"])), None)
        g, variant = (r["group"], r["variant"]) if r else ("-", "-")
        here = t.runtime_label(g, run.pw) if g != "-" else ""
        if g == "ours":  # ours has a row per scenario, variant and worker count: each says which
            here += (", a thread per task" if scen == "threads" else "") + (f", {key}" if key != "-" else "") \
                + (f", T={threads}" if threads.isdigit() else "")
        state = "" if g == "-" else "ok" if g == "ours" else run.builder.state.get(g, "")
        state = {"ok": "ok", "missing": "its toolchain is missing (see below)", "skip": "see the notes below",
                 "": "" if g == "-" else f"not in PEERS={s['PEERS']}"}.get(state, state if state.startswith("build failed")
                                                                          else f"not in PEERS={s['PEERS']}")
        out.append([id_, here, variant, prog, state])
    return out


def fields(run):
    """The replication's part of its section's record: the data file's text and which of its tables ran, --quick,
    --peers' sleep, RUNS, the machine here, each row's program here and each point (ID@GROUP, N, and the plan line
    that measured it or why none did)."""
    s, m = run.s, run.machine
    return {"published": read(s["pubfile"]), "tables": s["TABLES"],
            "quick": s["quick"], "long_ms": int(s["peers_sleep_ms"]), "runs_here": s["RUNS"],
            "machine_here": f"CPU: {m['cpu']}; cores: {m['cores']}; memory: {m['memory']}", "here": here_rows(run),
            "points": [dict(label=l, n=n, **({"ref": ref} if ref and why == "-" else {"why": why})) for l, n, why, _, ref in run.rep]}


def head(run, machine_lines):
    """The lines of a replication's section before its tables, and its notes."""
    s = run.s
    pub = published(s["pubfile"])
    quick = "; --quick: every N of the write-up above 1 divided by 10" + (", and HITS too" if s["HITS"] else "") + \
        ", so no figure is set against a published one and no claim is judged (keeping N and cutting the sleep instead" \
        " would change whether every task is alive at once)" if s["quick"] else ""
    out = [f"## {run.when} — replicate {pub.about.get('name', '')}{', tables ' + s['TABLES'] if s['TABLES'] else ''}"
           f"{' --quick, N / 10: nothing set against the published figures' if s['quick'] else ''}", ""] + machine_lines
    out.append(f"- N={s['sweep_ns'].replace(' ', ',')}, RUNS={s['RUNS']}{', SLEEP_MS=' + s['SLEEP_MS'] if s['SLEEP_MS'] else ''}"
               f"{settings.mode_settings(s, run.scenarios)}{quick}")
    if s["TABLES"]:
        out.append(f"- TABLES=\"{s['TABLES']}\": only these of its tables ran here (of {len(pub.tables)}); a claim on another"
                   " can be judged on its published figures only")
    if run.resumed:
        out.append(f"- resumed: {run.resumed} of the configurations were measured by an earlier run of this replication at"
                   f" commit {run.commit}, kept in PEERS_BUILD/replicate")
    if not run.cache:
        out.append("- not resumable: the tree has changes that are not committed, so no configuration's result is kept for a"
                   " later run")
    out += [line for line in run.peers_lines() if not line.startswith("- sleep: ")] + [""] + run.chart_lines
    notes = run.pw_lines("limits", "- ") + run.pw_lines("notes", "- ") + run.pw_lines("missing", "- not run: ")
    cores = run.machine["cores"].split(" ")[0]
    seen = set()
    for row in rows(run.t, pub):  # a worker count above the cores here runs oversubscribed
        t = row[4]
        if t.isdigit() and int(t) > int(cores) and t not in seen:
            seen.add(t)
            notes.append(f"- T={t} is more than the {cores} cores here: its rows are oversubscribed, {t} workers taking turns"
                         f" on {cores} cores")
    return out, notes
