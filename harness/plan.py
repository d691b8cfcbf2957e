"""The plan of a run: the configurations (Config) its settings give, in the order they run, made before anything is
built or run; --plan's listing of them, and the time they will take here (estimate). run.py plans with a Planner from
the settings and the build groups' and catalogue's tables (PEERS_PATCH's and PEERS_DOTNET's copies among them)."""

import itertools
import os
import re
import sys
from dataclasses import dataclass, field

import replicate
from machine import read
from scenarios import SCENARIOS
from settings import pause_ms, sleep1, value
from stats import minutes

SETTINGS = ("scenarios", "N", "sweep", "sweep_ns", "peers", "replicate", "quick", "pubfile", "TABLES", "RUNS",
            "THREADS", "START", "SLEEP_MS", "THREAD_CAP", "PEER_TIMEOUT", "PEERS", "peers_sleep_ms", "HITS", "MODE",
            "SPAWN_FROM", "POLL_MS", "BURST", "BURST_PAUSE_MS", "BURST_PAUSE", "build_dir", "versions_dir",
            "command_line")
# atomic_counter's settings, in the order of the options that pass them.
COUNTER = (("HITS", "--hits"), ("MODE", "--mode"), ("SPAWN_FROM", "--spawn-from"), ("POLL_MS", "--poll-ms"),
           ("BURST", "--burst"), ("BURST_PAUSE_MS", "--burst-pause-ms"), ("BURST_PAUSE", None))
# Spawning a million tasks took from 0.1 s (ours) to 24 s (Python) here (RESULTS.md, 2026-12-03 09:51): ours and these
# slow spawners at their rate in seconds a million, every other runtime at 2 (spawn_rate).
SPAWN_RATES = (("python", 25), ("elixir", 20), ("pypy", 12), ("go", 6), ("erlang", 6), ("haskell", 6), ("deno", 6))


def spawn_rate(group):
    """The seconds build group GROUP's runtime takes to spawn a million tasks here, by SPAWN_RATES: ours 0.5."""
    return 0.5 if group == "ours" else next((r for p, r in SPAWN_RATES if group.startswith(p)), 2)


@dataclass
class Config:
    """One configuration of the plan. KIND is one of
        base   PROGRAM at N = 1, one run: the baseline of the row after it
        row    a row of the table: RUNS runs of ENV PROGRAM N ARGS (ENV: VAR=value words)
        point  one N of a sweep's series LABEL: its points are consecutive, in increasing N, the first flagged
               "first" (a sweep's starts at N = 1, its baseline)
        skip   the N of series LABEL above THREAD_CAP, comma-separated: a note, no run
        limit  a line of the section's limits, VARIANT its text
    GROUP: ours, or a peer's build group (a descriptor's family_runtime line); THREADS: the threads cell; LIMIT: the
    seconds after which a run is stopped; VARIANT: the variant cell; LABEL: the program's line or bar in the chart. @R@,
    in LABEL and in a limit line's text, stands for the runtime column. FLAGS: capped (the settings name THREAD_CAP),
    threads_capped (a note says every runtime ran THREAD_CAP), first (a series' first point). SLEEP: the sleep in ms
    ARGS give ("": the program's own); COUNTER: the atomic_counter settings ARGS give, by name."""
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
    sleep: str = ""
    counter: dict = field(default_factory=dict)


def wait_ms(scen, sleep_ms, n, counter):
    """The time a run at N tasks must take, in ms: its sleep times the rounds it needs (atomic_counter's loop mode:
    HITS / N, by default 10; its once mode and the other scenarios: 1) and, in atomic_counter, its bursts' pauses and
    one poll. COUNTER: the atomic_counter settings it is given, by name."""
    if not SCENARIOS[scen]["counter"]:
        return sleep_ms
    rounds = 1 if counter.get("MODE") == "once" else -(-int(counter["HITS"]) // n) if counter.get("HITS") else 10
    # The programs pause (N − 1) // BURST times ("but the last"): N // BURST is one more where BURST divides N, an upper
    # bound, as a time limit should be, which the plan listings have always counted.
    pauses = n // int(counter["BURST"]) * pause_ms(counter) if counter.get("BURST") else 0
    return sleep_ms * rounds + pauses + value(counter, "POLL_MS")


class Planner:
    """The plan of one run's settings S (a dict of run.sh's variables, every one a string)."""

    def __init__(self, tables, s, configs=None):
        self.t, self.s, self.configs = tables, s, [] if configs is None else configs

    def add(self, kind, scenario, **named):
        self.configs.append(Config(kind, scenario, **named))

    def variant_opts(self, scen, start, base=False, tool="ours"):
        """The options of the write-ups' variants, the same for ours and every peer that has them but BURST_PAUSE's
        (the option of TOOL's runtime: settings.sleep1), and the atomic_counter settings among them: each of those that
        is set (HITS not for a baseline, whose one task would take HITS seconds, nor in once mode, which ends at N
        hits); running_avg's and hash_collect's --start START (none for "-")."""
        s = self.s
        if not SCENARIOS[scen]["counter"]:
            return (f"--start {start}" if SCENARIOS[scen]["start"] and start != "-" else ""), {}
        given = {var: s[var] for var, _ in COUNTER if s[var] and (var != "HITS" or not base and s["MODE"] != "once")}
        opts = [f"{opt} {given[var]}" if opt else sleep1(tool)[0] for var, opt in COUNTER if var in given]
        return " ".join(opts), given

    @staticmethod
    def ours_args(t, key, sleep, opts=""):
        """Our binary's options: --sync KEY, --sleep-ms SLEEP, --threads T (none for a T or KEY of "-", or a T of
        "default"), then OPTS."""
        return " ".join(filter(None, [f"--sync {key}" if key != "-" else "", f"--sleep-ms {sleep}" if sleep else "",
                                      f"--threads {t}" if t not in ("-", "default") else "", opts]))

    def variant_cell(self, scen, variant, start, opts, tool="ours"):
        """A program's variant cell, with the variant it ran: atomic_counter's mode when a variable sets one (its
        pause, with BURST_PAUSE=sleep1, in TOOL's runtime's unit); in
        running_avg and hash_collect "KEY: ..." becomes "KEY, gated: ...", "KEY, eager: ..." or, for a program with
        one shape only (no start in its OPTS), "KEY, one shape: ..."."""
        s = self.s
        if SCENARIOS[scen]["counter"] and s["HITS"] + s["MODE"] + s["SPAWN_FROM"] + s["POLL_MS"] + s["BURST"]:
            once = s["MODE"] == "once"
            variant += "; once mode: one sleep, one hit, no loop" if once else "; loop mode"
            variant += ", spawned from a task" if s["SPAWN_FROM"] == "task" else ""
            pause = f"a sleep(1), {sleep1(tool)[1]}" if s["BURST_PAUSE"] else f"{value(s, 'BURST_PAUSE_MS')} ms"
            variant += f", bursts of {s['BURST']} then {pause}" if s["BURST"] else ""
            variant += f", polled every {s['POLL_MS']} ms" if s["POLL_MS"] else ""
            variant += f", {s['HITS']} hits" if s["HITS"] and not once else ""
        elif SCENARIOS[scen]["start"]:
            word = (start if start != "-" else "gated") if opts == "start" else "one shape"
            key, sep, what = variant.partition(": ")
            variant = f"{key}, {word}: {what if sep else variant}"
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

    def timeout(self, scen, sleep_ms, n, group="ours"):
        """The default time limit of a run of GROUP's at N tasks, in seconds: the larger of 60 and 10 x the time the
        run must take (wait_ms) and its spawning, at its runtime's rate (spawn_rate) and never under the 2 s a million
        of most (a limit errs long; at 25M tasks and pauses of 1 ms, spawning is most of a run), each in whole
        seconds. A run that takes ten times that is not going to finish."""
        spawning = 10 * max(2, spawn_rate(group)) * n // 1000000
        return max(60, (10 * wait_ms(scen, int(sleep_ms), n, self.s) + 999) // 1000 + int(spawning))

    def limit(self, scen, n, note=True):
        """A peers run's sleep (SLEEP_MS, else the scenario's; "" for one without) and the scenario's time limit at N
        tasks (a runtime's that spawns at 2 s a million or faster, ours's), with its line when NOTE."""
        s, want = self.s, SCENARIOS[scen]["peers_sleep"]
        sleep = "" if want is None else s["SLEEP_MS"] or (s["peers_sleep_ms"] if want == "long" else want)
        limit = s["PEER_TIMEOUT"] or str(self.timeout(scen, sleep or 0, n))
        if note:
            self.add("limit", scen, variant=f"{scen}: a run is stopped after {limit} s"
                     + (" (PEER_TIMEOUT)" if s["PEER_TIMEOUT"] else ""))
        return sleep, limit

    def limit_of(self, scen, n, group, sleep, limit):
        """GROUP's time limit at N tasks: the scenario's LIMIT, or where its slower spawning makes it longer, its own,
        with a line saying so (a runtime's, once)."""
        if self.s["PEER_TIMEOUT"]:
            return limit
        mine = str(self.timeout(scen, sleep or 0, n, group))
        said = Config("limit", scen, group=group, variant=f"{scen}: @R@ is stopped after {mine} s, its spawning"
                      f" counted at {spawn_rate(group):g} s a million tasks")
        if mine != limit and said not in self.configs:
            self.configs.append(said)
        return mine

    def variants(self, scen):
        """The scenario's variant keys and its STARTs ("-": none)."""
        return SCENARIOS[scen]["keys"], (self.s["START"].split() or ["-"]) if SCENARIOS[scen]["start"] else ["-"]

    def plan(self):
        """The plan of the whole run, scenario by scenario."""
        if self.s["replicate"]:
            self.plan_replicate()
        else:
            for scen in self.s["scenarios"].split():
                self.plan_peers(scen) if self.s["peers"] else self.plan_ours(scen)
        return self.configs

    def series(self, scen, cap, flags="", **fields):
        """A sweep's series: a point line per N of the sweep up to CAP, then a skip line for the N above it (no silent
        cap: a capped run would put a second point at the cap's N); FIELDS, in Config's names, are what its lines
        share, and the first point's flags begin with "first"."""
        ns = self.s["sweep_ns"].split()
        over = [n for n in ns if cap and int(n) > int(cap)]
        for i, n in enumerate([n for n in ns if n not in over]):
            first = "" if i else "first"
            self.add("point", scen, n=n, runs=self.s["RUNS"], flags=first + (" " + flags if flags else ""), **fields)
        if over:
            self.add("skip", scen, n=",".join(over), runs="0", flags=flags, **fields)

    def plan_ours(self, scen):
        """Without --peers: each T of THREADS (the threads scenario takes none, and runs min(N, THREAD_CAP) threads),
        each variant, with the options it accepts (no sleep in running_avg and hash_collect)."""
        s, threads = self.s, SCENARIOS[scen]["threads"]
        sleep = "" if SCENARIOS[scen]["sleep"] is None else s["SLEEP_MS"]
        cap, flags = (self.thread_cap(scen, "ours"), "capped") if threads else ("", "")
        for t, key, st in itertools.product(["-"] if threads else s["THREADS"].split() or ["-"], *self.variants(scen)):
            opts, given = self.variant_opts(scen, st)
            args = self.ours_args(t, key, sleep, opts)
            tail = self.series_tail(key, t, st).removeprefix(", ")
            shared = dict(program=f"./{scen}", threads=t, args=args, flags=flags, sleep=sleep, counter=given)
            if s["sweep"]:
                self.series(scen, cap, variant=tail, label=f"{scen} ({tail})" if tail else scen, **shared)
            else:
                capped = cap and int(s["N"]) > int(cap)
                variant = (args + " " if args else "") + f"(capped at THREAD_CAP={cap})" if capped else args
                self.add("row", scen, n=cap if capped else s["N"], runs=s["RUNS"], variant=variant, **shared)

    def plan_peers(self, scen):
        """Under --peers: for each variant (running_avg's and hash_collect's mutex and channel), each START and each T
        of THREADS, ours first, then each chosen peer of the catalogue; the scenario's time limit first. A program
        with one shape only (no start among its options) runs at the first START only."""
        s = self.s
        keys, starts = self.variants(scen)
        top = int(s["N"] or s["sweep_ns"].split()[-1])
        sleep, limit = self.limit(scen, top)
        rows = [r for r in self.t.catalogue if r["scen"] == scen and self.t.chosen(r["group"], s["PEERS"])]
        # A thread per task takes no T; without THREADS every runtime keeps its default.
        tlist = ["-"] if SCENARIOS[scen]["threads"] else s["THREADS"].split() or ["default"]
        for key, st in itertools.product(keys, starts):
            for i, t in enumerate(tlist):
                for r in rows:
                    if key in ("-", r["key"]) and (st == "-" or r["opts"] == "start" or st == starts[0]):
                        self.plan_peer(scen, r, key, t, i == 0, sleep,
                                       self.limit_of(scen, top, r["group"], sleep, limit), st)

    def plan_peer(self, scen, r, key, t, first, sleep, limit, st, label=""):
        """The lines of catalogue row R at T ("default", or "-" in the threads scenario): at N after a 1-task run, its
        baseline (none at N = 1, a row that is its own baseline), or in a sweep its series. Ours takes --threads T; a
        peer, its knob's environment; a peer without one, its fixed threads, at the first T only (FIRST). Each takes
        the write-ups' variants it has. A runtime that runs a thread per task is capped at THREAD_CAP, like the
        threads scenario. A sweep's series is labelled LABEL when given (a replication's row), else by its runtime."""
        s, g, prog, suffix = self.s, r["group"], r["prog"], r["suffix"]
        env, tcell, n, flags = "", t, s["N"], ""
        tool = "ours" if g == "ours" else self.t.groups[g]["tool"]
        if r["opts"] in ("counter", "start"):
            (opts, given), (base_opts, base_given) = (self.variant_opts(scen, st, False, tool),
                                                      self.variant_opts(scen, st, True, tool))
        else:
            st, opts, given, base_opts, base_given = "-", "", {}, "", {}
        variant = self.variant_cell(scen, r["variant"], st, r["opts"], tool)
        if g == "ours":
            prog, tcell = f"./{prog}", "1" if t == "default" else t
            args, base_args = self.ours_args(t, key, sleep, opts), self.ours_args(t, key, sleep, base_opts)
            tail = self.series_tail(key, t, st)
        else:
            args = key if SCENARIOS[scen]["peer_args"] == "N KEY" else sleep
            base_args, args = args + (" " + base_opts if base_opts else ""), args + (" " + opts if opts else "")
            # The environment that sets the worker count to T, if the runtime has one.
            group = self.t.groups[g]
            knob = "" if group["knob"] == "-" else group["knob"]
            env = knob.replace("@T@", t) if t not in ("-", "default") else ""
            if t != "-" and not knob:
                if t != "default" and not first:
                    return
                tcell = group["fixed"]
            tail = self.series_tail(key, t if env else "", st)
            tail = f" {suffix}{tail}" if suffix != "-" else tail
        cap = self.thread_cap(scen, g)
        if cap and not s["sweep"] and int(s["N"]) > int(cap):
            n, flags = cap, "capped threads_capped" if SCENARIOS[scen]["threads"] else "capped"
            if not SCENARIOS[scen]["threads"]:
                variant += f" (capped at THREAD_CAP={cap})"
                what = "" if suffix == "-" else f" {suffix}"
                self.add("limit", scen, group=g, variant=f"{scen}: @R@{what} ran min(N, THREAD_CAP={cap}) threads,"
                         " a thread per task; the other runtimes ran N tasks")
        shared = dict(group=g, program=prog, threads=tcell, env=env, limit=limit, variant=variant, sleep=sleep)
        if s["sweep"]:
            self.series(scen, cap, args=args, label=label or f"@R@{tail}", counter=given, **shared)
            return
        if int(n) != 1:
            self.add("base", scen, n="1", args=base_args, runs="1", label=f"@R@{tail}", flags=flags,
                     counter=base_given, **shared)
        self.add("row", scen, n=n, args=args, runs=s["RUNS"], label=f"@R@{tail}", flags=flags, counter=given, **shared)

    def plan_replicate(self):
        """A replication: for each group of the write-up's tables, with its settings, for each row of its scenarios
        with a program here, a series over the group's N list labelled ID@GROUP; a limit line per scenario and group."""
        s = self.s
        pub = replicate.published(s["pubfile"], s["TABLES"])
        rows = replicate.rows(self.t, pub)
        for number, sets, ns, scens in (g[:4] for g in replicate.groups(pub, s["quick"] != "", s["peers_sleep_ms"])):
            gs = {**s, "sweep_ns": ns, **dict(kv.partition("=")[::2] for kv in ([] if sets == "-" else sets.split()))}
            Planner(self.t, gs, self.configs).plan_group(number, scens, rows)

    def plan_group(self, number, scens, rows):
        """One group's series (SCENS: "-" for all)."""
        s, seen = self.s, set()
        for id_, scen, prog, key, t, _ in rows:
            if prog == "-" or (scens != "-" and scen not in scens.split()):
                continue
            r = self.t.row(prog, key)
            if r is None:
                print(f"run.sh: --replicate: no program {prog} for {scen} in the catalogue", file=sys.stderr)
            elif self.t.chosen(r["group"], s["PEERS"]):
                top = int(s["sweep_ns"].split()[-1])
                sleep, limit = self.limit(scen, top, note=scen not in seen)
                limit = self.limit_of(scen, top, r["group"], sleep, limit)
                seen.add(scen)
                t = "-" if SCENARIOS[scen]["threads"] else "default" if t == "-" else t
                self.plan_peer(scen, r, key, t, True, sleep, limit, s["START"] or "-", label=f"{id_}@{number}")


def estimate(plan, build_dir):
    """What PLAN will take here, in seconds: (runs, builds, unbuilt). Each run lasts the time it must take (wait_ms),
    its start-up (a peer about a second, ours a tenth) and its spawning (SPAWN_RATES), at most its time limit. Each
    peer's group adds its last build's time here (BUILD_DIR/GROUP.build_s), or, never built here, a guess: UNBUILT
    counts those. --plan, the --replicate list and a finished run's comparison all use it."""
    runs = [c for c in plan if c.kind in ("base", "row", "point")]
    groups, total = list(dict.fromkeys(c.group for c in runs if c.group != "ours")), 0.0
    for c in runs:
        g, n = c.group, int(c.n)
        each = (wait_ms(c.scenario, int(c.sleep or SCENARIOS[c.scenario]["sleep"] or 0), n, c.counter) / 1000
                + (0.1 if g == "ours" else 1) + spawn_rate(g) * n / 1000000)
        total += int(c.runs) * (min(each, int(c.limit)) if re.fullmatch("[0-9]+", c.limit) else each)
    last = [build_time(build_dir, g) if build_dir else None for g in groups]
    guess = [240 if re.match("(rust|tokio|asyncstd|rayon|csharpaot)", g) else 60 for g in groups]
    return int(total + 0.5), sum(b if b is not None else x for b, x in zip(last, guess)), last.count(None)


def build_time(build_dir, group):
    """GROUP's last build time here in seconds (peers.py writes BUILD_DIR/GROUP.build_s), or None."""
    v = read(os.path.join(build_dir, group + ".build_s")).strip()
    return int(v) if v.isdigit() else None


def listing(tables, s, plan):
    """--plan's listing: what the plan adds up to, then a line per configuration, its columns aligned (and a line for
    the N a sweep leaves out), then the estimate."""
    lines = [["kind", "scenario", "runtime", "program", "N", "threads", "options", "environment", "runs", "limit s",
              "variant"]]
    for c in plan:
        if c.kind != "limit":
            cells = (c.n, c.threads, c.args, c.env, c.runs, c.limit,
                     f"not run, above THREAD_CAP={s['THREAD_CAP']}" if c.kind == "skip" else c.variant)
            lines.append([c.kind, c.scenario, tables.runtime_label(c.group, s["versions_dir"]),
                          c.program.removeprefix("./")] + [v or "-" for v in cells])
    width = [max(map(len, column)) for column in zip(*lines)]
    configs, runs = sum(c.kind in ("row", "point") for c in plan), sum(int(c.runs) for c in plan if c.kind != "limit")
    out = [f"{s['command_line']}: {configs} configurations, {runs} runs", ""]
    out += ["".join(c.ljust(w + 2) for c, w in zip(line[:-1], width)) + line[-1] for line in lines]
    out += ["", "Nothing was built or run." + (" When it runs, a runtime whose toolchain is missing is left out, and"
                                               " one whose build fails gets a row that says so." if s["peers"] else "")]
    runs_s, builds_s, unbuilt = estimate(plan, s["build_dir"])
    builds_s = builds_s if s["peers"] else 0
    est = (f"Estimated time here: about {minutes(runs_s + builds_s)}: {minutes(runs_s)} of runs (each its sleep,"
           " start-up and spawning)")
    if s["peers"]:
        guess = f"; {unbuilt} never built here, guessed at 1 to 4 min each" if unbuilt else ""
        est += f", {minutes(builds_s)} of builds (each group as long as its last build here{guess})"
    return "\n".join(out + [est + "."]) + "\n"
