"""The plan of a run: a line per configuration, before anything is built or run.

run.sh plans first, then runs. The plan is a list of configurations (Config), which run.sh reads as one line each of
named fields, NAME=VALUE separated by tabs, "-" for an empty value.

run.sh calls it with the build groups' and the catalogue's lines on stdin (PEERS_PATCH's and PEERS_DOTNET's copies
among them) and its settings as NAME=VALUE arguments; nothing here calls back."""

import os
import re
import sys
from dataclasses import dataclass

import replicate
from scenarios import SCENARIOS  # each scenario's description: harness/scenarios.txt

SETTINGS = ("scenarios", "N", "sweep", "sweep_ns", "peers", "replicate", "quick", "pubfile", "TABLES",
            "RUNS", "THREADS", "START", "SLEEP_MS", "THREAD_CAP", "PEER_TIMEOUT", "PEERS", "peers_sleep_ms",
            "HITS", "MODE", "SPAWN_FROM", "POLL_MS", "BURST", "BURST_PAUSE_MS",
            "build_dir", "versions_dir", "command_line")


@dataclass
class Config:
    """One configuration of the plan. KIND is one of
        base   PROGRAM at N = 1, one run: the baseline of the row after it
        row    a row of the table: RUNS runs of ENV PROGRAM N ARGS (ENV: VAR=value words)
        point  one N of a sweep's series LABEL: its points are consecutive, in increasing N, the
               first flagged "first" (a sweep's starts at N = 1, its baseline)
        skip   the N of series LABEL above THREAD_CAP, comma-separated: a note, no run
        limit  a line of the section's limits, VARIANT its text
    GROUP: ours, or a peer's build group (a descriptor's family_runtime line); THREADS: the threads
    cell; LIMIT: the seconds after which a run is stopped; VARIANT: the variant cell; LABEL: the
    program's line or bar in the chart. @R@, in LABEL and in a limit line's text, stands for the
    runtime column. FLAGS: capped (the settings name THREAD_CAP), threads_capped (a note says every
    runtime ran THREAD_CAP), first (a series' first point)."""
    kind: str
    scenario: str
    group: str = "ours"
    program: str = ""
    n: str = ""
    threads: str = ""
    args: str = ""
    env: str = ""
    runs: str = ""
    limit: str = ""
    variant: str = ""
    label: str = ""
    flags: str = ""



class Planner:
    """The plan of one run's settings S (a dict of run.sh's variables, every one a string)."""

    def __init__(self, tables, s, configs=None):
        self.t, self.s, self.configs = tables, s, [] if configs is None else configs

    def add(self, kind, scenario, **named):
        self.configs.append(Config(kind, scenario, **{k: str(v) for k, v in named.items()}))

    # The write-ups' variants, the same options for ours and every peer that has them.
    def mode_opts(self, scen, start, base=False):
        """atomic_counter's options from HITS, MODE, SPAWN_FROM, POLL_MS, BURST and BURST_PAUSE_MS, each only when set
        (HITS not for a baseline, whose one task would take HITS seconds, nor in once mode, which ends at N hits);
        running_avg's and hash_collect's --start START (none for "-")."""
        s, o = self.s, []
        if SCENARIOS[scen]["counter"]:
            if s["HITS"] and s["MODE"] != "once" and not base:
                o.append(f"--hits {s['HITS']}")
            for var, opt in (("MODE", "--mode"), ("SPAWN_FROM", "--spawn-from"), ("POLL_MS", "--poll-ms"),
                             ("BURST", "--burst"), ("BURST_PAUSE_MS", "--burst-pause-ms")):
                if s[var]:
                    o.append(f"{opt} {s[var]}")
        elif SCENARIOS[scen]["start"] and start != "-":
            o.append(f"--start {start}")
        return " ".join(o)

    @staticmethod
    def ours_args(t, key, sleep, opts=""):
        """Our binary's options: --sync KEY, --sleep-ms SLEEP, --threads T (none for a T or KEY of "-", or a T of
        "default"), then OPTS."""
        o = [f"--sync {key}"] if key != "-" else []
        o += [f"--sleep-ms {sleep}"] if sleep else []
        o += [f"--threads {t}"] if t not in ("-", "default") else []
        return " ".join(o + ([opts] if opts else []))

    def variant_cell(self, scen, variant, start, opts):
        """A program's variant cell, with the variant it ran: atomic_counter's mode when a variable sets one; in
        running_avg and hash_collect "KEY: ..." becomes "KEY, gated: ...", "KEY, eager: ..." or, for a program with
        one shape only (no start in its OPTS), "KEY, one shape: ..."."""
        s = self.s
        if SCENARIOS[scen]["counter"]:
            if s["HITS"] + s["MODE"] + s["SPAWN_FROM"] + s["POLL_MS"] + s["BURST"]:
                once = s["MODE"] == "once"
                variant += "; once mode: one sleep, one hit, no loop" if once else "; loop mode"
                variant += ", spawned from a task" if s["SPAWN_FROM"] == "task" else ""
                variant += f", bursts of {s['BURST']} then {s['BURST_PAUSE_MS'] or 1000} ms" if s["BURST"] else ""
                variant += f", polled every {s['POLL_MS']} ms" if s["POLL_MS"] else ""
                variant += f", {s['HITS']} hits" if s["HITS"] and not once else ""
            return variant
        if SCENARIOS[scen]["start"]:
            word = (start if start != "-" else "gated") if opts == "start" else "one shape"
            key, sep, what = variant.partition(": ")
            return f"{key}, {word}: {what if sep else variant}"
        return variant

    def series_tail(self, key, t, start="-"):
        """What tells a program's chart line from its others: ", KEY" and, when THREADS or START holds several values,
        ", threads=T" and ", START"."""
        tail = f", {key}" if key not in ("-", "") else ""
        tail += f", threads={t}" if t not in ("-", "", "default", self.s["THREADS"]) else ""
        return tail + (f", {start}" if start not in ("-", self.s["START"]) else "")

    def thread_cap(self, scen, group):
        """THREAD_CAP for a program that runs a thread per task (the threads scenario, a runtime whose fixed threads
        are "one per task"), which runs min(N, THREAD_CAP) tasks; "" for the others."""
        per_task = group != "ours" and self.t.groups[group]["fixed"] == "one per task"
        return self.s["THREAD_CAP"] if SCENARIOS[scen]["threads"] or per_task else ""

    def knob(self, group, t):
        """The environment that sets GROUP's worker count to T, "" for a runtime without one."""
        k = self.t.groups[group]["knob"]
        return "" if k == "-" else k.replace("@T@", t)

    def timeout(self, scen, sleep_ms, n):
        """The default time limit of a run at N tasks, in seconds: the larger of 60 and 10 x the time the run must
        take: the rounds of sleep the scenario needs (atomic_counter's loop mode: HITS / N, by default 10; its once
        mode and the others: 1) and, in atomic_counter, its bursts' pauses and one poll. A run that takes ten times
        that is not going to finish."""
        s, rounds, extra = self.s, 1, 0
        if SCENARIOS[scen]["counter"]:
            once = s["MODE"] == "once"
            rounds = 1 if once else -(-int(s["HITS"]) // n) if s["HITS"] else 10
            extra = n // int(s["BURST"]) * int(s["BURST_PAUSE_MS"] or 1000) if s["BURST"] else 0
            extra += int(s["POLL_MS"] or 100)
        return max(60, (10 * (int(sleep_ms) * rounds + extra) + 999) // 1000)

    def sleep_of(self, scen):
        """A peers run's sleep: SLEEP_MS, else the scenario's (SCENARIOS); "" for one without."""
        want = SCENARIOS[scen]["peers_sleep"]
        if want is None:
            return ""
        return self.s["SLEEP_MS"] or (self.s["peers_sleep_ms"] if want == "long" else want)

    def variants(self, scen):
        """The scenario's variant keys and its STARTs ("-": none)."""
        sc = SCENARIOS[scen]
        return sc["keys"], (self.s["START"].split() or ["-"]) if sc["start"] else ["-"]

    def limit_of(self, scen, sleep, n):
        """The scenario's time limit, and its line."""
        s = self.s
        limit = s["PEER_TIMEOUT"] or str(self.timeout(scen, sleep or 0, n))
        note = f"{scen}: a run is stopped after {limit} s" + (" (PEER_TIMEOUT)" if s["PEER_TIMEOUT"] else "")
        return limit, note

    def plan(self):
        """The plan of the whole run, scenario by scenario."""
        s = self.s
        if s["replicate"]:
            self.plan_replicate()
        else:
            for scen in s["scenarios"].split():
                self.plan_peers(scen) if s["peers"] else self.plan_ours(scen)
        return self.configs

    def series(self, scen, cap, flags="", **fields):
        """A sweep's series: a point line per N of the sweep up to CAP, then a skip line for the N above it (no silent
        cap: a capped run would put a second point at the cap's N); FIELDS, in Config's names, are what its lines
        share, and the first point's flags begin with "first"."""
        s, over, first = self.s, [], "first"
        for n in s["sweep_ns"].split():
            if cap and int(n) > int(cap):
                over.append(n)
                continue
            self.add("point", scen, n=n, runs=s["RUNS"], flags=first + (" " + flags if flags else ""), **fields)
            first = ""
        if over:
            self.add("skip", scen, n=",".join(over), runs=0, flags=flags, **fields)

    def plan_ours(self, scen):
        """Without --peers: each T of THREADS (the threads scenario takes none, and runs min(N, THREAD_CAP) threads),
        each variant, with the options it accepts (no sleep in running_avg and hash_collect)."""
        s = self.s
        (keys, starts), tlist, cap, flags = self.variants(scen), s["THREADS"].split() or ["-"], "", ""
        sleep = "" if SCENARIOS[scen]["sleep"] is None else s["SLEEP_MS"]
        if SCENARIOS[scen]["threads"]:
            tlist, flags, cap = ["-"], "capped", self.thread_cap(scen, "ours")
        for t in tlist:
            for key in keys:
                for st in starts:
                    args = self.ours_args(t, key, sleep, self.mode_opts(scen, st))
                    tail = self.series_tail(key, t, st).removeprefix(", ")
                    if s["sweep"]:
                        self.series(scen, cap, flags, program=f"./{scen}", threads=t, args=args, variant=tail,
                                    label=f"{scen} ({tail})" if tail else scen)
                    elif cap and int(s["N"]) > int(cap):
                        self.add("row", scen, program=f"./{scen}", n=cap, threads=t, args=args, runs=s["RUNS"],
                                 variant=(args + " " if args else "") + f"(capped at THREAD_CAP={cap})", flags=flags)
                    else:
                        self.add("row", scen, program=f"./{scen}", n=s["N"], threads=t, args=args, runs=s["RUNS"],
                                 variant=args, flags=flags)

    def plan_peers(self, scen):
        """Under --peers: for each variant (running_avg's and hash_collect's mutex and channel), each START and each T
        of THREADS, ours first, then each chosen peer of the catalogue; the scenario's time limit first. A program
        with one shape only (no start among its options) runs at the first START only."""
        s = self.s
        keys, starts = self.variants(scen)
        sleep = self.sleep_of(scen)
        limit, note = self.limit_of(scen, sleep, int(s["N"] or s["sweep_ns"].split()[-1]))
        self.add("limit", scen, variant=note)
        # A thread per task takes no T; without THREADS every runtime keeps its default.
        tlist = ["-"] if SCENARIOS[scen]["threads"] else s["THREADS"].split() or ["default"]
        for key in keys:
            for st in starts:
                first = "yes"
                for t in tlist:
                    for r in self.t.catalogue:
                        if r["scen"] != scen or key not in ("-", r["key"]) or not self.t.chosen(r["group"], s["PEERS"]):
                            continue
                        if st != "-" and r["opts"] != "start" and st != starts[0]:
                            continue
                        self.plan_peer(scen, r, key, t, first, sleep, limit, st)
                    first = ""

    def plan_peer(self, scen, r, key, t, first, sleep, limit, st, label=""):
        """The lines of catalogue row R at T ("default", or "-" in the threads scenario): at N after a 1-task run, its
        baseline (none at N = 1, a row that is its own baseline), or in a sweep its series. Ours takes --threads T; a
        peer, its knob's environment; a peer without one, its fixed threads, at the first T only (FIRST). Each takes
        the write-ups' variants it has. A runtime that runs a thread per task is capped at THREAD_CAP, like the
        threads scenario. A sweep's series is labelled LABEL when given (a replication's row), else by its runtime."""
        s, g, prog, opts, suffix = self.s, r["group"], r["prog"], r["opts"], r["suffix"]
        env, tcell, n, flags, extra, base_extra = "", t, s["N"], "", "", ""
        if opts in ("counter", "start"):
            extra, base_extra = self.mode_opts(scen, st), self.mode_opts(scen, st, base=True)
        else:
            st = "-"
        variant = self.variant_cell(scen, r["variant"], st, opts)
        if g == "ours":
            prog = f"./{prog}"
            args = self.ours_args(t, key, sleep, extra)
            tail = self.series_tail(key, t, st)
            base_args = self.ours_args(t, key, sleep, base_extra)
            tcell = "1" if t == "default" else tcell
        else:
            args = key if SCENARIOS[scen]["peer_args"] == "N KEY" else sleep
            base_args, args = args + (" " + base_extra if base_extra else ""), args + (" " + extra if extra else "")
            if t == "default":
                tcell = tcell if self.knob(g, "1") else self.t.groups[g]["fixed"]
            elif t != "-":
                env = self.knob(g, t)
                if not env:
                    if not first:
                        return
                    tcell = self.t.groups[g]["fixed"]
            tail = self.series_tail(key, t if env else "", st)
            tail = f" {suffix}{tail}" if suffix != "-" else tail
        cap = self.thread_cap(scen, g)
        if cap and not s["sweep"] and int(s["N"]) > int(cap):
            n, flags = cap, "capped"
            if SCENARIOS[scen]["threads"]:
                flags = "capped threads_capped"
            else:
                variant += f" (capped at THREAD_CAP={cap})"
                what = "" if suffix == "-" else f" {suffix}"
                self.add("limit", scen, group=g, variant=f"{scen}: @R@{what} ran min(N, THREAD_CAP={cap}) threads,"
                         " a thread per task; the other runtimes ran N tasks")
        shared = dict(group=g, program=prog, threads=tcell, env=env, limit=limit, variant=variant)
        if s["sweep"]:
            self.series(scen, cap, args=args, label=label or f"@R@{tail}", **shared)
            return
        if int(n) != 1:
            self.add("base", scen, n=1, args=base_args, runs=1, label=f"@R@{tail}", flags=flags, **shared)
        self.add("row", scen, n=n, args=args, runs=s["RUNS"], label=f"@R@{tail}", flags=flags, **shared)

    def plan_replicate(self):
        """A replication: for each group of the write-up's tables, with its settings, for each row of its scenarios
        with a program here, a series over the group's N list labelled ID@GROUP; a limit line per scenario and group."""
        s = self.s
        pub = published(s)
        rows_ = replicate.rows(self.t, pub)
        for grp in replicate.groups(pub, s["quick"] != "", s["peers_sleep_ms"]):
            gs = dict(s, sweep_ns=grp[2])
            for kv in ([] if grp[1] == "-" else grp[1].split()):
                k, _, v = kv.partition("=")
                gs[k] = v
            Planner(self.t, gs, self.configs).plan_group(grp[0], grp[3], rows_)

    def plan_group(self, number, scens, rows_):
        """One group's series (SCENS: "-" for all)."""
        s, seen = self.s, set()
        for id_, scen, prog, key, t, _ in rows_:
            if prog == "-" or (scens != "-" and scen not in scens.split()):
                continue
            r = self.t.row(prog, key)
            if r is None:
                print(f"run.sh: --replicate: no program {prog} for {scen} in the catalogue", file=sys.stderr)
                continue
            if not self.t.chosen(r["group"], s["PEERS"]):
                continue
            sleep = self.sleep_of(scen)
            limit, note = self.limit_of(scen, sleep, int(s["sweep_ns"].split()[-1]))
            if scen not in seen:
                self.add("limit", scen, variant=note)
                seen.add(scen)
            t = "-" if SCENARIOS[scen]["threads"] else "default" if t == "-" else t
            self.plan_peer(scen, r, key, t, "yes", sleep, limit, s["START"] or "-", label=f"{id_}@{number}")


def published(s):
    with open(s["pubfile"], encoding="utf-8", newline="") as f:
        return replicate.Published(f.read(), s["TABLES"])


def estimate(plan, build_dir):
    """What PLAN will take here, in seconds: (runs, builds, unbuilt). Each run lasts its sleep (atomic_counter: times
    the rounds it needs, plus its bursts' pauses and a poll; running_avg and hash_collect: none), its start-up and its
    spawning, at most its time limit. Each peer's group adds its last build's time here (BUILD_DIR/GROUP.build_s), or,
    never built here, a guess: UNBUILT counts those. --plan, the --replicate list and a finished run's comparison all
    use it."""
    def opt(words, name):
        return next((words[i + 1] for i in range(len(words) - 1) if words[i] == name), "")

    total, groups = 0.0, []
    for c in plan:
        if c.kind not in ("base", "row", "point"):
            continue
        scen, g, n, limit, words = c.scenario, c.group, int(c.n), c.limit, c.args.split()
        if g != "ours" and g not in groups:
            groups.append(g)
        ms = opt(words, "--sleep-ms")
        default = SCENARIOS[scen]["sleep"]
        if ms == "" and g != "ours" and default is not None and words and re.fullmatch("[0-9]+", words[0]):
            ms = words[0]
        if ms == "":
            ms = default or 0
        need = int(ms) / 1000
        if SCENARIOS[scen]["counter"]:
            h, k, p, q = (opt(words, o) for o in ("--hits", "--burst", "--burst-pause-ms", "--poll-ms"))
            rounds = 1 if opt(words, "--mode") == "once" else (int(h) + n - 1) // n if h else 10
            need = need * rounds + ((n - 1) // int(k) * int(p or 1000) / 1000 if k else 0) + (int(q) / 1000 if q else 0.1)
        # Spawning a million tasks took from 0.1 s (ours) to 24 s (Python) here (RESULTS.md, 2026-12-03 09:51): ours
        # and the slow spawners at their rate, every other at 2 s a million; a peer takes about a second to start,
        # ours a tenth.
        rate = 0.5 if g == "ours" else next((r for p, r in SPAWN_RATES if g.startswith(p)), 2)
        each = need + (0.1 if g == "ours" else 1) + rate * n / 1000000
        if re.fullmatch("[0-9]+", limit) and each > int(limit):
            each = int(limit)
        total += int(c.runs) * each
    builds, unbuilt = 0, 0
    for g in groups:
        last = build_time(build_dir, g)
        if last is None:
            unbuilt += 1
            last = 240 if re.match("(rust|tokio|asyncstd|rayon|csharpaot)", g) else 60
        builds += last
    return int(total + 0.5), builds, unbuilt


def build_time(build_dir, group):
    """GROUP's last build time here in seconds (peers.py writes BUILD_DIR/GROUP.build_s), or None."""
    if not build_dir:
        return None
    try:
        with open(os.path.join(build_dir, group + ".build_s"), encoding="utf-8") as f:
            return int(f.readline())
    except (OSError, ValueError):
        return None


SPAWN_RATES = (("python", 25), ("elixir", 20), ("pypy", 12), ("go", 6), ("erlang", 6), ("haskell", 6), ("deno", 6))


def minutes(s):
    """S seconds as "40 s", "12 min" or "2 h 05 min"."""
    m = (s + 59) // 60
    return f"{s} s" if s < 60 else f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


def listing(tables, s, plan):
    """--plan's listing: what the plan adds up to, then a line per configuration, its columns aligned (and a line for
    the N a sweep leaves out), then the estimate."""
    head = ["kind", "scenario", "runtime", "program", "N", "threads", "options", "environment", "runs", "limit s", "variant"]
    lines, runs, configs = [head], 0, 0
    for c in plan:
        if c.kind not in ("skip", "base", "row", "point"):
            continue
        variant = f"not run, above THREAD_CAP={s['THREAD_CAP']}" if c.kind == "skip" else c.variant
        runs += int(c.runs)
        configs += c.kind in ("row", "point")
        lines.append([c.kind, c.scenario, tables.runtime_label(c.group, s["versions_dir"]), c.program.removeprefix("./")]
                     + [v or "-" for v in (c.n, c.threads, c.args, c.env, c.runs, c.limit, variant)])
    width = [max(len(l[i]) for l in lines) for i in range(len(head) - 1)]
    out = [f"{s['command_line']}: {configs} configurations, {runs} runs", ""]
    out += ["".join(c.ljust(w + 2) for c, w in zip(l, width)) + l[-1] for l in lines]
    out += ["", "Nothing was built or run." + (" When it runs, a runtime whose toolchain is missing is left out,"
                                               " and one whose build fails gets a row that says so." if s["peers"] else "")]
    runs_s, builds_s, unbuilt = estimate(plan, s["build_dir"])
    builds_s = builds_s if s["peers"] else 0
    est = f"Estimated time here: about {minutes(runs_s + builds_s)}: {minutes(runs_s)} of runs (each its sleep, start-up and spawning)"
    if s["peers"]:
        guess = f"; {unbuilt} never built here, guessed at 1 to 4 min each" if unbuilt else ""
        est += f", {minutes(builds_s)} of builds (each group as long as its last build here{guess})"
    return "\n".join(out + [est + "."]) + "\n"
