"""./run.sh: plans the runs (plan.py), makes them under /usr/bin/time (measure.py, each a record in the store as it
ends) and appends a section to RESULTS.md from their records (render.py, replicate.py, charts.py): the store first,
then RESULTS.md, renamed into place. `./run.sh --help` says it all; README.md and METHODOLOGY.md say why."""

import fcntl
import functools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import zlib

import charts
import compare
import export
import machine
import measure
import peers
import plan
import profiling
import render
import replicate
import settings
import stats
import store
from measure import Interrupted
from settings import need
from scenarios import SCENARIOS

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = peers.LIB
LOCK = os.environ.get("BENCH_TEST_LOCK", "/tmp/bench-run.lock")  # only the tests set it
OFFLINE = ("--export", "--render", "--gaps", "--compare", "--check-store")  # they read the store and run nothing


def fail(message, code=2):
    print(f"run.sh: {message}", file=sys.stderr)
    sys.exit(code)


def usage(tables):
    return f"""usage: ./run.sh N [scenario ...]
       ./run.sh --sweep [scenario ...]
       ./run.sh --peers N [scenario ...]
       ./run.sh --sweep --peers [scenario ...]
       ./run.sh --replicate [NAME [--quick]]
       ./run.sh --profile ROW --replicate NAME TABLE
       ./run.sh --profile LABEL --peers N SCENARIO
       ./run.sh --plan ARGS...
       ./run.sh --render SECTION
       ./run.sh --gaps SECTION
       ./run.sh --export csv|json|md [SECTION]
       ./run.sh --compare A B [md|csv|json]
       ./run.sh --check-store [--repair]
  N              tasks (threads) per scenario, digits only: RUNS runs of each scenario (and variant)
                 under /usr/bin/time, the one with the lowest wall time a row of a section
                 appended to RESULTS; scenarios: {' '.join(SCENARIOS)} (default: all)
  --sweep        every N of SWEEP, a table of memory against N and an SVG chart in charts/
  --peers        ours and every other runtime whose toolchain is here (peers/README.md), each
                 built in PEERS_BUILD, at N and at N=1: one table, a bar chart a scenario; the
                 scenarios with peers: {' '.join(tables.scenarios)}
  --replicate    the public write-ups kept in peers/published; NAME runs one's tables in its own
                 shape, its figures beside ours, its claims judged on both (--quick: N / 10, nothing
                 compared); at a commit, a replication or a peers run stopped halfway resumes on the
                 same machine, its results kept in PEERS_BUILD
  --profile      one row, built as its run builds it and run once as it runs it, under perf record
                 -e cpu-clock -g, into a file in profiles/ (perf's data in PEERS_BUILD/profiles): ROW
                 of a replication's TABLE (its id or label in the data file), or LABEL of a --peers
                 run (its program as --plan lists it, then :VARIANT, :Tt or :START where the run has
                 several); never a measured run: nothing goes to RESULTS or STORE
  --plan         every run the rest would make and the time they will take here; runs nothing
  --render       SECTION again (its heading's time as RESULTS prints it, or its run id) from the
                 store's records, byte for byte for one written since the harness moved to Python;
                 a section before 2026-12-07 01:55 has no record, or one without its tables
  --gaps         a replication's SECTION: each headline figure whose here / published is past 1.5
                 or 0.67, and each claim answered otherwise here, with the cause line that covers
                 it (peers/README.md), a line each; exit 1 if one has none
  --export       the store's run records of every run or of SECTION as CSV or JSON, each with its
                 "schema" version (1: written before records carried one; results.schema.json
                 describes every field), or SECTION as Markdown (md), on stdout
  --compare      run B against run A (each a run id or a section's heading time): for each
                 configuration both hold, the best and range of wall, CPU and max RSS, B / A, the
                 noise rule's verdict and, from 5 runs a side, a U test's p; md (default), csv, json
  --check-store  each line of STORE that is no record, named with its number and why (a run
                 passes over such lines); --repair moves them into STORE.bad-DATE beside it
environment (a bad value is refused before anything runs):
  RUNS=5              runs per configuration
  THREADS="1 2 4"     each scenario, and each runtime with a knob for its workers, at each T
  SLEEP_MS=MS         each task's sleep (--peers: {peers.LONG_MS} ms by default, atomic_counter 1000)
  THREAD_CAP=10000    the threads scenario (and a thread per task) runs min(N, THREAD_CAP)
  RESULTS=RESULTS.md  the file a section is appended to, written whole or not at all
  STORE=results.jsonl every execution's record, beside RESULTS: appended as each program ends
  PERF=perf           --profile's perf (Debian's linux-perf: installed as root unless PEERS_INSTALL=no)
  SWEEP="{settings.DEFAULT_SWEEP}"
                      the task counts of --sweep (N=1 always: the baseline of bytes/task)
  START=gated         running_avg, hash_collect: gated, eager (each task runs as it is spawned) or both
  MODE=loop           atomic_counter: loop (until HITS, default 10 x N) or once (a sleep, a hit)
  HITS, SPAWN_FROM=main|task, POLL_MS=100, BURST=K, BURST_PAUSE_MS=1000
                      atomic_counter's target, spawner, poll, and the pause after every K spawns
  BURST_PAUSE=sleep1  the pause each runtime's sleep(1) gives, in its own unit (Go 1 ns, the others 1 ms)
  JDK_JAVA_OPTIONS, GOGC, DOTNET_GC... and the other switches a runtime reads itself: passed on as they are,
                      and each one that is set is named in the section's settings line
{peers.usage(tables)}One run.sh measures on a machine at a time: a second one refuses, naming the first. The lock
({LOCK}.flock) is held by run.sh and the program it measures, and the kernel gives it back when
both have ended, however they end.
"""


# ---- The command line and the settings. ---------------------------------------------------------

def parse(argv, env, tables, out, here):
    """run.sh's settings (the planner's s, every value a string) from its arguments and environment, and the peers'
    (paths in them relative to HERE, where run.sh was started); or exit 2."""
    s = dict.fromkeys(plan.SETTINGS + ("plan",), "")
    s["command_line"], args, name = " ".join(["./run.sh"] + argv), list(argv), ""
    while args and args[0] in ("--plan", "--sweep", "--peers", "--replicate"):
        need(not s[args[0][2:]], f"{args[0]} is given twice")
        s[args.pop(0)[2:]] = "yes"
    if any(a in ("-h", "--help") for a in args):
        out.write(usage(tables))
        sys.exit(0)
    if s["replicate"]:
        need(not (s["sweep"] or s["peers"]), "--replicate runs a write-up's own configuration: no --sweep or --peers"
             " with it")
        for a in args:
            need(a == "--quick" or not a.startswith("-"), f"unknown option '{a}' (usage: ./run.sh --replicate [NAME"
                 " [--quick]])")
            need(not (a == "--quick" and s["quick"]), "--quick is given twice")
            need(a == "--quick" or not name, f"--replicate takes one write-up, got '{name}' and '{a}'")
            s["quick"], name = ("yes", name) if a == "--quick" else (s["quick"], a)
        if not name:
            need(not env.get("TABLES"), "TABLES picks tables of one write-up: ./run.sh --replicate NAME")
            need(not (s["quick"] or s["plan"]), "--replicate needs a write-up's name with --quick or --plan (./run.sh"
                 " --replicate lists them)")
            env["BENCH_HERE"] = here  # each estimate's paths as this run's
            replicate.list_all(os.path.join(SRC, "peers", "published"), lambda n: estimate_of(n, env), out)
            sys.exit(0)
        args, s["peers"], s["sweep"] = [], "yes", "yes"
    for a in args:
        need(a not in ("--sweep", "--peers", "--plan"), {
            "--sweep": "--sweep comes first (usage: ./run.sh --sweep [--peers] [scenario ...])",
            "--peers": "--peers comes first (usage: ./run.sh --peers N [scenario ...] or ./run.sh --sweep --peers"
                       " [scenario ...])",
            "--plan": "--plan comes first (usage: ./run.sh --plan ARGS ...)"}.get(a))
        need(a != "--profile", f"--profile comes first (usage: {profiling.USAGE})")
        need(a not in OFFLINE, f"{a} comes first, alone (usage: ./run.sh --export csv|json|md [SECTION], ./run.sh"
             " --render SECTION, ./run.sh --gaps SECTION, ./run.sh --compare A B [md|csv|json], ./run.sh --check-store"
             " [--repair])")
        need(not a.startswith("-"), f"unknown option '{a}' (allowed: --plan, --sweep, --peers, --replicate [NAME"
             " [--quick]], --profile, --export, --render, --gaps, --compare, --check-store, --help; settings go in the"
             " environment, see --help)")
    need(not env.get("TABLES") or s["replicate"], "TABLES is for --replicate NAME: it picks which of a write-up's"
         " tables run")
    if s["sweep"] and not s["replicate"]:
        s["sweep_ns"] = settings.sweep(env.get("SWEEP") or settings.DEFAULT_SWEEP, sys.stderr)
        now = s["sweep_ns"]
        need(not (args and args[0].isdigit()), f"--sweep takes no N: the task counts come from SWEEP (now \"{now}\")")
    elif not s["replicate"]:
        need(args, f"missing N (usage: ./run.sh {'--peers ' if s['peers'] else ''}N [scenario ...])")
        s["N"] = str(settings.count("N", args.pop(0)))
    s.update(settings.variants(env), RUNS=env.get("RUNS", ""))
    if s["replicate"]:
        replicate_settings(s, name, env, tables)
    s["RUNS"] = str(settings.count("RUNS", s["RUNS"] or "5"))
    s["THREAD_CAP"] = str(settings.count("THREAD_CAP", env.get("THREAD_CAP") or "10000"))
    s["THREADS"] = settings.threads(env.get("THREADS", "")) if not s["replicate"] else ""
    need(not (s["HITS"] and s["sweep"] and not s["replicate"]), "HITS is a target for one N: a sweep's"
         " atomic_counter stops at 10 x N hits")
    ps = peers.settings(env, tables, here)
    s["build_dir"] = peers.build_dir(env, here, SRC) if s["peers"] else ""
    s.update(PEERS=ps["PEERS"], PEER_TIMEOUT=ps["PEER_TIMEOUT"], peers_sleep_ms=str(peers.LONG_MS))
    if not s["replicate"]:
        allowed = tables.scenarios if s["peers"] else list(SCENARIOS)
        for a in args:
            need(a in SCENARIOS, f"unknown scenario '{a}' (allowed: {' '.join(SCENARIOS)})")
            need(a in allowed, f"no peers for '{a}' (--peers runs: {' '.join(tables.scenarios)})")
        s["scenarios"] = " ".join(args or allowed)
    return s, ps


def replicate_settings(s, name, env, tables):
    """The write-up's run, from its data file: the scenarios, the N list (with --quick, each N above 1 divided by 10,
    and HITS too), the variables its run lines set (RUNS only where the user has set none), PEERS (the runtimes of its
    rows, unless the user chose). A variable the write-up fixes, set by the user, is refused: the run would not be the
    write-up's."""
    folder = os.path.join(SRC, "peers", "published")
    path = os.path.join(folder, name + ".tsv")
    known = " ".join(f[:-4] for f in sorted(os.listdir(folder)) if f.endswith(".tsv"))
    need(os.path.isfile(path), f"--replicate: unknown write-up '{name}' (known: {known}; ./run.sh --replicate lists"
         " them)")
    text = replicate.read(path)
    problems, pub = replicate.check(path, text)
    need(not problems, problems[0] if problems else "")
    s["pubfile"], picked, keys = path, [], list(dict.fromkeys(t["key"] for t in pub.tables))
    need(all(c.isalnum() or c in "_.- " for c in env.get("TABLES", "")),
         f"TABLES is a list of table ids (letters, digits, '_', '.', '-'), got '{env.get('TABLES')}'")
    for v in env.get("TABLES", "").split():
        need(v in keys, f"TABLES: {name} has no table '{v}' (its tables: {' '.join(keys)})")
        need(v not in picked, f"TABLES names '{v}' twice")
        picked.append(v)
    s["TABLES"] = " ".join(picked)
    for v in ("THREADS", "SWEEP") + settings.SETTABLE:
        need(not env.get(v), f"{v} cannot be set with --replicate: {name} fixes its own ({v}={pub.run.get(v, '')})")
    s.update({v: pub.run[v] for v in settings.SETTABLE + ("RUNS",)
              if pub.run.get(v) and not (v == "RUNS" and s["RUNS"])})
    pub, s["scenarios"] = replicate.Published(text, s["TABLES"]), pub.run.get("scenarios", "")
    groups = replicate.groups(pub, s["quick"] != "", peers.LONG_MS)
    s["sweep_ns"] = " ".join(str(n) for n in sorted({int(n) for g in groups for n in g[2].split()}))
    if s["quick"] and s["HITS"] and int(s["HITS"]) >= 10:
        s["HITS"] = str(int(s["HITS"]) // 10)  # as replicate.py divides N
    if "PEERS" not in env:
        rows = [tables.row(r[2], "-") for r in replicate.rows(tables, pub) if r[2] != "-"]
        env["PEERS"] = " ".join(dict.fromkeys(tables.groups[r["group"]]["name"] for r in rows
                                              if r and r["group"] != "ours"))


def estimate_of(name, env):
    """The estimate --plan --replicate NAME ends with, for the listing of write-ups."""
    p = subprocess.run([sys.executable, "-B", __file__, "--plan", "--replicate", name], capture_output=True,
                       text=True, env=env)
    for line in (p.stdout + p.stderr).split("\n"):
        if line.startswith("Estimated time here: about "):
            return f"about {line.split('about ', 1)[1].split(':', 1)[0]} here, its builds included"
        if line.startswith("run.sh: "):
            return f"cannot plan it: {line[8:]}"
    return "cannot plan it: its --plan gave no estimate"


def place(env, here):
    """RESULTS and STORE as absolute paths: RESULTS.md beside run.sh, the store beside RESULTS."""
    need(env.get("RESULTS") != "", "RESULTS is empty: unset it to append to RESULTS.md beside run.sh, or name a file")
    need(env.get("STORE") != "", "STORE is empty: unset it to keep the records in results.jsonl beside RESULTS, or"
         " name a file")
    res = os.path.join(here, env.get("RESULTS") or os.path.join(SRC, "RESULTS.md"))
    return res, os.path.join(here, env.get("STORE") or os.path.join(os.path.dirname(res), "results.jsonl"))


def writable_dir(d):
    try:
        with tempfile.NamedTemporaryFile(dir=d, prefix=".run_sh."):
            return True
    except OSError:
        return False


def check_files(res, st, charts_dir, need_charts):
    """RESULTS, STORE and charts/ can be written, before anything is built or measured."""
    d, sd, there = os.path.dirname(res), os.path.dirname(st), os.path.exists
    need(os.path.isdir(d), f"RESULTS directory {d} does not exist")
    need(not os.path.islink(res), f"RESULTS must be a regular file, not a symbolic link: {res}")
    need(not there(res) or os.path.isfile(res), f"RESULTS must be a regular file (or absent), and {res} is not one")
    need(not there(res) or os.access(res, os.W_OK), f"RESULTS is not writable: {res}")
    need(writable_dir(d), f"cannot write in {d}, where RESULTS is ({res}): run.sh writes the new RESULTS there")
    need(os.path.isdir(sd), f"STORE directory {sd} does not exist")
    need(not there(st) or os.path.isfile(st), f"STORE must be a regular file (or absent), and {st} is not one")
    need(os.path.realpath(st) != os.path.realpath(res), f"STORE and RESULTS are one file ({st}): the records go in a"
         " file of their own")
    need(not there(st) or os.access(st, os.W_OK), f"STORE is not writable: {st}")
    need(there(st) or writable_dir(sd), f"cannot write in {sd}, where STORE is ({st})")
    if need_charts and there(charts_dir):
        need(os.path.isdir(charts_dir), f"charts go in {charts_dir}, which is not a directory")
        need(writable_dir(charts_dir), f"cannot write in {charts_dir}, where the charts go")


def take_lock(command_line):
    """One run.sh measures on a machine at a time: two at once spoil each other's numbers. The lock is an flock on
    LOCK.flock, which the kernel releases when every process holding it has ended: a killed run.sh's lock is never
    stale, and the program it was measuring, which holds it too, keeps it until it ends. A run.sh from before the
    flock held a directory LOCK: while its owner runs, this one refuses too."""
    pid, _, cmd = machine.read(os.path.join(LOCK, "owner")).strip().partition(" ")
    if pid.isdigit() and "run.sh" in machine.read(f"/proc/{pid}/cmdline"):  # /proc: Linux only
        fail(f"another run.sh is measuring on this machine (pid {pid}: {cmd}); two at once spoil each other's"
             f" numbers, so wait for it (the lock: {LOCK})")
    try:  # the lock file of another user's run.sh is opened as it is: a sticky /tmp refuses O_CREAT on it
        fd = os.open(LOCK + ".flock", os.O_RDWR)
    except FileNotFoundError:
        fd = os.open(LOCK + ".flock", os.O_RDWR | os.O_CREAT, 0o666)
        os.fchmod(fd, 0o666)  # whatever the umask: every user's run.sh takes the same lock
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pid, _, cmd = os.pread(fd, 4096, 0).decode(errors="replace").strip().partition(" ")
        fail(f"another run.sh is measuring on this machine (pid {pid}: {cmd}); two at once spoil each other's"
             f" numbers, so wait for it (the lock: {LOCK}.flock)")
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()} {command_line}\n".encode(), 0)
    return fd



# ---- The run. -----------------------------------------------------------------------------------

class Run:
    """One run of run.sh: its plan made, its rows, points and notes gathered, its section written."""

    def __init__(self, s, tables, env, res, st, pb):
        self.s, self.t, self.env, self.res, self.st, self.pb = s, tables, env, res, st, pb
        self.charts_dir = os.path.join(os.path.dirname(res), "charts")
        self.kind = "replicate" if s["replicate"] else "_".join(k for k in ("peers", "sweep") if s[k]) or "plain"
        self.rep_name = os.path.basename(s["pubfile"])[:-4]
        self.scenarios = s["scenarios"].split()
        self.rows, self.notes, self.points, self.bars, self.chart_notes = [], [], {}, {}, {}
        self.rep, self.records, self.sittings, self.charts, self.chart_lines = [], [], [], [], []
        self.failures = self.resumed = self.configs = self.done = self.planned = self.lost = 0
        self.capped, self.threads_capped, self.builder = False, False, None

    def start(self):
        self.work = tempfile.mkdtemp(prefix="run_sh.", dir=self.env.get("TMPDIR") or None)
        self.pw = os.path.join(self.work, "peers")
        os.makedirs(self.pw)
        self.lock = take_lock(self.s["command_line"])
        if os.path.exists(self.st):
            for number, why in store.problems(self.st, quick=True):
                print(f"run.sh: {self.st}:{number}: passed over: {why} (./run.sh --check-store --repair moves such"
                      " lines aside)", file=sys.stderr)
        if not os.access(measure.TIME[0], os.X_OK):
            if os.getuid() == 0 and shutil.which("apt-get"):
                print(f"run.sh: {measure.TIME[0]} is missing; installing the time package", file=sys.stderr)
                subprocess.run(["bash", LIB, "apt_install", "time"], capture_output=True)
            if not os.access(measure.TIME[0], os.X_OK):
                fail(f"{measure.TIME[0]} is missing; install it with: sudo apt-get install time (Debian/Ubuntu; macOS"
                     " has it built in)", 1)
        self.began = time.monotonic()
        print("run.sh: building with make", file=sys.stderr)
        p = subprocess.run(["make", "-C", SRC], capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            sys.stderr.write(p.stdout + p.stderr)
            fail(f"make failed; nothing was run and {self.res} is unchanged", 1)
        self.commit, self.machine = machine.commit(SRC), machine.describe(SRC)
        self.run_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{os.getpid()}"
        self.head = {"run": self.run_id, "commit": self.commit, "machine": self.machine}
        self.cache = self.cache_dir()

    def cache_dir(self):
        """A replication or a peers run keeps each configuration's result, so that a run stopped halfway resumes: only
        at a commit (whose code the results belong to) and on the machine that measured them (its CPU, cores and
        memory name the folder: a run resumed on another VM starts over, and says so). A replication's cache stays; a
        peers run's goes once its section is written."""
        if self.commit.endswith("-dirty") or self.commit == "unknown" or not (self.s["replicate"] or self.s["peers"]):
            return None
        m, what = self.machine, "\n".join(self.env.get(k, "") for k in ("CXX", "PEERS_PATCH", "PEERS_DOTNET"))
        what += "".join(f"\n{k}={self.env[k]}" for k in ("PEERS_GO", "PEERS_GOROOT") if self.env.get(k))  # older keys kept
        what += settings.runtime_env(self.env)  # "" where none is set: the keys of runs without one stay as they were
        top = os.path.join(self.pb, "replicate", self.commit, f"{self.rep_name}-{zlib.crc32(what.encode())}") \
            if self.s["replicate"] else os.path.join(self.pb, "resume", self.commit,
                                                     str(zlib.crc32((self.s["command_line"] + what).encode())))
        here = f"{m['cpu']}, {m['cores']} cores, {m['memory']}"
        d = os.path.join(top, "%08x" % zlib.crc32(here.encode()))
        if not os.path.isdir(d) and os.path.isdir(top) and set(os.listdir(top)) - {os.path.basename(d)}:
            print(f"run.sh: an earlier run of this at commit {self.commit} ran on another machine: its results are"
                  f" not taken on this one ({here}), so this run starts over", file=sys.stderr)
        os.makedirs(d, exist_ok=True)  # its failure is main's one line
        return d

    def measure_config(self, c, row, program, n, args, times):
        """Runs config C (plan line ROW) TIMES times, or takes what an earlier run of it left in the cache at this
        commit on this machine. Returns (ref, (why, runs)): why it failed, or its runs."""
        self.configs += 1
        key, ref = None, f"{self.run_id}/{row}"
        what = f"run.sh: {os.path.basename(program)} {' '.join([str(n)] + args)}"
        if self.cache:
            key = os.path.join(self.cache, "%08x" % zlib.crc32(
                (repr(vars(c)) + self.t.runtime_label(c.group, self.pw)).encode()))
            kept = cached_ref(key)
            recs = self.kept.get(kept, [])
            if recs:
                self.sittings.append(kept.rpartition("/")[0])
                self.records += recs
                print(f"{what}: from the cache of an earlier run at this commit", file=sys.stderr)
                self.done += times
                self.resumed += 1
                return kept, render.Measured(recs).outcome(kept)
            if kept:
                print(f"{what}: kept by an earlier run, but its records are not in {self.st}: measured again",
                      file=sys.stderr)
        why, runs = self.execute(c, row, program, n, args, times, what)
        if key and (not why or self.s["replicate"]):  # a peers run keeps a failure out: its resume tries again
            with open(key + ".tmp", "w") as f:
                json.dump({"ref": ref}, f)
            os.replace(key + ".tmp", key)
        return ref, (why, runs)

    @functools.cached_property
    def kept(self):
        """The store's records of the plan lines the cache names, read in one pass, by plan line."""
        kept, refs = {}, [r for r in (cached_ref(os.path.join(self.cache, f)) for f in os.listdir(self.cache)) if r]
        if refs and os.path.exists(self.st):
            for r in store.runs_of(self.st, {x.rpartition("/")[0] for x in refs}):
                kept.setdefault(f"{r['run']}/{r.get('row')}", []).append(r)
        return kept

    def execute(self, c, row, program, n, args, times, what):
        env = {**self.env, "LC_ALL": "C", **dict(w.split("=", 1) for w in c.env.split())}
        first, runs, why = self.done, [], None
        for i in range(1, times + 1):
            print(f"{what} (run {i}/{times}; {self.progress(self.done + 1)})", file=sys.stderr)
            self.done += 1
            r, status, figures = measure.once(program, [str(n)] + args, env, self.work,
                                              int(c.limit) if c.limit else None, self.lock)
            measure.check(r, c.scenario, n)
            f = r.fields()
            self.keep([dict(record="run", schema=store.SCHEMA, **self.head,
                            date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), kind=c.kind, scenario=c.scenario,
                            runtime=self.t.runtime_label(c.group, self.pw), variant=c.variant, threads=c.threads,
                            label=c.label, row=row, program=os.path.basename(program), n=n, options=" ".join(args),
                            env=c.env, **{"try": i}, of=times, status=status, failure=f["failure"], time=f["time"],
                            time_output=figures, summary=f["summary"], samples=f["samples"])])
            if r.failure:
                why = r.failure
                break
            runs.append(r)
        self.done = first + times  # runs skipped after a failure count as done
        return why, runs

    def keep(self, recs):
        """Records into the store as they are made, and into this run's own copy: the section is written from the
        copy, and should the store not take them, the copy stays where the error names it (RESULTS is then not
        written: a section never stands without its records)."""
        self.records += recs
        copy = os.path.join(self.work, "records")
        with open(copy, "a", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
        try:
            store.append(self.st, recs)
        except OSError as e:
            if not self.lost:
                print(f"run.sh: cannot append to the store {self.st} ({e.strerror}): this run's records are kept in"
                      f" {copy}", file=sys.stderr)
            self.lost += len(recs)

    def progress(self, k):
        t, left = int(time.monotonic() - self.run_start), self.planned - k + 1
        line = f"{k} of {self.planned} runs"
        if k > 1 and left >= 1:
            line += f", about {t * left // (k - 1)} s left" if t * left < 90 * (k - 1) else \
                f", about {(t * left + 30 * (k - 1)) // (60 * (k - 1))} min left"
        return line

    def guard(self, n, base, last_n, last_rss):
        """The memory guard: the max RSS at N estimated from the program's cost per task at its last N, BASE + (LAST −
        BASE) × N / LAST_N; refused when that exceeds the memory available now: a run the OOM killer ends is no
        measurement, and on a machine without swap it takes others with it."""
        have, per_task = machine.available(), stats.per_task(last_rss, base, last_n)
        est = base + per_task * n / 1024
        if not have or est <= have[0]:
            return None
        return (f"not run: about {est / 1048576:.1f} GiB at its cost per task at N={last_n} ({per_task:.1f} bytes),"
                f" more than the {have[0] / 1048576:.1f} GiB {have[1]}")

    def replicate_guard(self, label, n):
        """The guard where a replication's series has no cost per task of its own yet: from the same row's outcomes in
        the groups run before it (refused where one was refused at N; else from its largest N up to N with a figure,
        and its N = 1)."""
        ident = label.rpartition("@")[0]
        base, last_n, last_rss = 0, None, None
        for lab, pn, why, rss, _ in self.rep:
            if lab.rpartition("@")[0] != ident:
                continue
            if pn == n and why.startswith("not run: about "):
                return why
            if why == "-":
                if pn == 1:
                    base = rss
                elif pn <= n and (last_n is None or pn > last_n):
                    last_n, last_rss = pn, rss
        return self.guard(n, base, last_n, last_rss) if last_n else None

    def row(self, scen, runtime, variant, n, tcell, ref=None, why=None, base=None):
        if self.kind != "replicate":
            cells = {"scenario": scen, "runtime": runtime, "variant": variant, "n": str(n), "tcell": tcell}
            self.rows.append({"cells": cells, **({"ref": ref} if ref else {"why": why}),
                              **({"base": base} if base else {})})

    def point(self, label, n, why, rss=None, ref=None):
        """Under --replicate, the outcome of one point for its tables."""
        if self.s["replicate"]:
            self.rep.append((label, n, why, rss if why == "-" else None, ref))

    def run_plan(self, configs):
        """Runs the plan's configurations in order, into the table's rows, the charts' bars and points and the
        section's notes. A group that was not built (a toolchain missing, a JDK too old) is passed over; one whose
        build failed gets a row that says so (in a sweep, one for the series). A sweep's series keeps its baseline,
        the max RSS at N = 1, for the memory guard and bytes/task, and stops after a timeout: a program that could not
        finish at N will not at 10 N."""
        self.planned = sum(int(c.runs) for c in configs if c.kind in ("base", "row", "point")
                           and (c.group == "ours" or self.builder.state.get(c.group) == "ok"))
        self.run_start = time.monotonic()
        base = sbase = last_n = last_rss = stop_why = None
        for k, c in enumerate(configs, 1):
            state = "ok" if c.group == "ours" else self.builder.state.get(c.group, "")
            if not (state == "ok" or state.startswith("build failed")):
                continue
            runtime = self.t.runtime_label(c.group, self.pw) if self.s["peers"] else ""
            label, flags, args = c.label.replace("@R@", runtime), c.flags.split(), c.args.split()
            if c.kind == "limit":
                peers.note(self.pw, c.variant.replace("@R@", runtime), "limits")
                continue
            self.capped |= "capped" in flags
            self.threads_capped |= "threads_capped" in flags
            c.threads, c.label, c.variant = c.threads or "-", c.label or "-", c.variant or "-"
            variant = c.variant + machine.read(os.path.join(self.pw, c.program + ".caveat")).rstrip("\n")  # a peer's
            if state != "ok":  # a failed build: one row, in a sweep at the series' first point for all its N
                if c.kind == "point":
                    self.point(label, int(c.n), state)
                if c.kind == "row" or c.kind == "point" and "first" in flags:
                    ns = c.n if c.kind == "row" else self.s["sweep_ns"].replace(" ", ",")
                    self.row(c.scenario, runtime, variant, ns, c.threads, why=state)
                    self.failures += 1
                continue
            if c.kind == "skip":
                ns = c.n.split(",")
                self.notes.append(f"{label}: N={', '.join(ns)} not run, above THREAD_CAP={self.s['THREAD_CAP']}"
                                  " (raise THREAD_CAP to run them)")
                for x in ns:
                    self.point(label, int(x), f"not run: above THREAD_CAP={self.s['THREAD_CAP']}, a thread per task")
                continue
            n, why, ref, b = int(c.n), None, None, None
            if c.kind == "point":
                if "first" in flags:
                    sbase = last_n = last_rss = stop_why = None
                why = stop_why or (self.guard(n, sbase[1] if sbase else 0, last_n, last_rss) if last_n
                                   else self.replicate_guard(label, n) if self.s["replicate"] else None)
            if why:  # a point not run: the guard, or a timeout at a smaller N
                self.done += int(c.runs)
            else:
                prog = os.path.join(SRC, c.program[2:]) if c.group == "ours" else \
                    os.path.join(self.pb, "bin", c.program)
                ref, (why, runs) = self.measure_config(c, k, prog, n, args, 1 if c.kind == "base" else int(c.runs))
                self.failures += bool(why)
                b = None if why or c.kind == "base" else stats.best(runs)
            if why:
                name = " ".join(x for x in (runtime, c.scenario, c.args, c.env) if x)
                who = {"base": f"{name} N=1", "row": name, "point": f"{label} N={n}"}[c.kind]
                print(f"run.sh: {who}: {why}", file=sys.stderr)
            if c.kind == "base":
                base = {"ref": ref}
                continue
            self.row(c.scenario, runtime, variant, n, c.threads, ref, why,
                     base if c.kind == "row" else sbase and {"ref": sbase[0]})
            if c.kind == "row":
                base = None
                if b and self.s["peers"]:  # a bar of the scenario's chart; one that held fewer than N at once says so
                    self.bars.setdefault(c.scenario, []).append(
                        (label, stats.mib(b.max_rss_kib), "-", "yes" if stats.all_alive(b) else "no"))
            else:
                where = c.scenario if self.s["peers"] else ""
                self.point(label, n, why or "-", b and b.max_rss_kib, ref)
                if why:
                    self.chart_notes.setdefault(where, []).append(f"{label} at N={n}: {why}")
                    if why.startswith("timed out"):
                        stop_why = f"not run: it timed out at N={n}"
                elif n == 1:
                    sbase = (ref, b.max_rss_kib)
                else:
                    last_n, last_rss = n, b.max_rss_kib
                if b:
                    self.points.setdefault(where, []).append((label, n, stats.mib(b.max_rss_kib)))
            if b and self.s["peers"]:
                self.builder.facts(runtime, b)

    def settings_line(self):
        s, out = self.s, [f"RUNS={self.s['RUNS']}"]
        out += [f"THREAD_CAP={s['THREAD_CAP']}"] if self.capped else []
        out += [f"{k}={s[k]}" for k in ("THREADS", "SLEEP_MS") if s[k]]
        return ", ".join(out) + settings.mode_settings(s, self.scenarios) + self.copies_set() + \
            settings.runtime_env(self.env)

    def copies_set(self):
        """The settings that add copies of the peers built another way, as ", VAR=value" each: PEERS_PATCH's sets
        with each crate's directory left out (no path of this machine goes into a section), PEERS_DOTNET, PEERS_GO."""
        sets = self.t.sets if self.s["peers"] else []
        patch = [" ".join(w.partition("=")[0] + "=…" for w in x.split()) for x in sets if peers.set_tool(x) == "rust"]
        out = f", PEERS_PATCH={'; '.join(patch)}" if patch else ""
        for tool, var in (("dotnet", "PEERS_DOTNET"), ("go", "PEERS_GO")):
            versions = [x.partition("=")[2] for x in sets if peers.set_tool(x) == tool]
            out += f", {var}={' '.join(versions)}" if versions else ""
        return out

    def pw_lines(self, name, prefix=""):
        """The lines of a file the descriptors write, each @R:GROUP@ in them GROUP's runtime column."""
        text = re.sub(r"@R:(\S+)@", lambda m: self.t.runtime_label(m.group(1), self.pw), machine.read(
            os.path.join(self.pw, name)))
        return [prefix + line for line in text.split("\n") if line]

    def peers_lines(self):
        """The lines of a peers section before its table: the run's settings, the tools."""
        s = self.s
        out = [f"- PEERS={s['PEERS']}"] if s["PEERS"] != " ".join(self.t.names) else []
        sleep = f"{s['SLEEP_MS']} ms" if s["SLEEP_MS"] else (
            f"{peers.LONG_MS} ms (atomic_counter: 1000 ms per iteration), chosen to outlast spawning 1M tasks (the"
            " all alive column says whether it did)")
        return out + [f"- sleep: {sleep}; running_avg and hash_collect have none"] + self.pw_lines("tools")

    def variant_notes(self):
        """What the variants of the chosen scenarios did, a line each."""
        s, out = self.s, []
        if "atomic_counter" in self.scenarios:
            poll, hits = settings.value(s, "POLL_MS"), f": HITS={s['HITS']} was not passed" if s["HITS"] else ""
            if s["MODE"] == "once":
                out.append("atomic_counter, once mode (MODE=once): each task sleeps once, increments the counter once"
                           f" and ends; the run ends when the monitor, polling every {poll} ms, has seen N hits, so"
                           " wall s includes up to one poll after the last hit. HITS applies to loop mode"
                           f" only{hits}. Each program checks that the first hit came no earlier than one sleep after"
                           " the start, and the last no earlier than one sleep after the last spawn.")
            else:
                out.append("atomic_counter, loop mode: each task loops { counter++; sleep }, and the monitor, polling"
                           f" every {poll} ms, raises a stop flag at {s['HITS'] or '10 × N'}"
                           f" hits{' (HITS)' if s['HITS'] else ''}, which each task sees when it next wakes; hits/s"
                           " counts up to that poll. Each program checks that no task ended before the stop.")
            if s["SPAWN_FROM"] == "task":
                pause = (f"a sleep(1) in its runtime's unit (Go's time.Sleep(1) {settings.sleep1('go')[1]}, every"
                         f" other {settings.sleep1('')[1]})" if s["BURST_PAUSE"] else f"{settings.pause_ms(s)} ms")
                var = "BURST_PAUSE" if s["BURST_PAUSE"] else "BURST_PAUSE_MS"
                bursts = (f"; it pauses {pause} after every {s['BURST']} spawns (BURST, {var}), but the last"
                          if s["BURST"] else "")
                out.append("atomic_counter, SPAWN_FROM=task: one task (a goroutine, a Task.Run, a tokio::spawn, an"
                           " unawaited async function, our spawner coroutine) spawns the N while main only"
                           f" polls{bursts}; spawn s runs until the last spawn.")
        if {"running_avg", "hash_collect"} & set(self.scenarios):
            out.append("running_avg, hash_collect: gated (START=gated, the default): every task exists before any"
                       " runs, what N live tasks cost; eager (START=eager): each starts as it is spawned, as the 2023"
                       " programs' tasks do, what spawning N short tasks costs (ours: each spawn runs the ready tasks"
                       " of its loop, so a task that ends gives its frame to the next). A program with one shape only"
                       " (rayon's par_iter, Java's fixed pool) says \"one shape\" and runs once.")
        return out

    def peers_notes(self, first):
        s = self.s
        out = ["- bytes/task: (max RSS at N − max RSS at N=1) × 1024 / N, both from /usr/bin/time, the same way for"
               f" every runtime, ours included (it is not our binaries' own bytes_per_task). {first}",
               "- Every program gets N and the sleep (ours: --sleep-ms MS; a peer: PROGRAM N MS), or in running_avg"
               " and hash_collect the variant (ours: --sync V; a peer: PROGRAM N V), then the write-ups' variants it"
               " has, the same options for ours and for a peer (--start; atomic_counter's --hits, --mode,"
               " --spawn-from, --poll-ms, --burst, --burst-pause-ms), checks that every task completed and exits 1"
               " otherwise. wall s is the whole process, start-up included.",
               "- RSS at wait: the program's own resident set once every task exists and waits (its rss_wait_kib=,"
               " VmRSS from /proc/self/status), reported by every coro_timer and coro_shared program and by ours in"
               " every scenario; \"-\" where a program does not say.",
               f"- Threads: each runtime at each T of THREADS={s['THREADS']}, the threads column: {self.t.knobs}; a"
               " runtime without a knob runs once, at the first T." if s["THREADS"] else
               f"- Threads: ours runs one event loop; each peer keeps its runtime's default ({self.t.threads})."]
        if self.threads_capped:
            out.append(f"- threads: every runtime ran min(N, THREAD_CAP={s['THREAD_CAP']}) threads.")
        if {"coro_timer", "coro_shared"} & set(self.scenarios):
            out.append("- spawn s: ours, from the first spawn until every task waited (spawn and start_all, the"
                       " binary's waiting_ms); a peer, until its spawn loop returned (its own spawn_ms; Python's and"
                       " Boost.Asio's, until every task had begun its wait). all alive: the program's own count of"
                       " tasks that had already ended by then (ended_at_spawn): \"no\" when any had, since their"
                       " memory could be reused and the max RSS then understates the runtime; \"spawning outlasted"
                       " the sleep\" when every task existed but the first were already due. A row that is not"
                       " \"yes\" is no measure of N tasks waiting at once.")
        out += self.pw_lines("limits", "- ") + self.pw_lines("notes", "- ") + [f"- {n}" for n in self.notes]
        return out + self.pw_lines("missing", "- not run: ") + ["- Peers built in PEERS_BUILD, outside this tree."]

    def table_notes(self):
        notes = [f"- {n}" for n in self.notes]
        if self.kind == "sweep":
            notes = ["- bytes/task from max RSS: (max RSS at N − max RSS at N=1) × 1024 / N, measured outside the"
                     " binary, the same way for every program; the N=1 row is the baseline.",
                     "- bytes/task from binary: the binary's own bytes_per_task, (RSS at wait − RSS before the first"
                     " task) × 1024 / N."] + notes
        elif self.kind == "peers":
            notes = self.peers_notes("N=1 is one run; N is the run with the lowest wall time of RUNS, whose spread of"
                                     " max RSS the last column gives.")
        elif self.kind == "peers_sweep":
            notes = self.peers_notes("Each program's N=1 row is its baseline; every row is the run with the lowest"
                                     " wall time of RUNS, whose spread of max RSS the last column gives.")
            notes.append("- Charts: one per scenario, a line per runtime, ours drawn thicker with filled markers;"
                         " memory on a log axis, so that 50 MiB and 2.5 GiB both read.")
        return notes + [f"- {n}" for n in self.variant_notes()]

    def draw(self, rows, notes, name, title, alt, said=None, empty="no run succeeded"):
        """A chart of ROWS (a sweep's points, or a peers section's bars) as WORK/NAME.svg (NAME made unique against
        charts/ and the charts drawn before), and the section's line for it, or for why it was not drawn (EMPTY, where
        there is no row). SAID: the measure's name on the axis and what each bar is, where that is not max RSS (a
        replication's)."""
        if not rows:
            self.chart_lines += [f"Chart ({alt}): not drawn, {empty}.", ""]
            return
        m, s, bars = self.machine, self.s, self.kind in ("peers", "replicate")
        sub = (f"{m['cpu']}, {m['cores']} cores, {m['memory']} · {m['os']}, {m['kernel']} · {m['compiler']} ·"
               f" {self.when} · commit {self.commit}")
        opts = "".join(f", {k}={s[k]}" for k in ("SLEEP_MS", "THREADS") if s[k])
        axis, each = said or ("max RSS (MiB)", "the process's max RSS as /usr/bin/time reports it, in the run with"
                                                f" the lowest wall time of RUNS={s['RUNS']}")
        note = f"Each {'bar' if bars else 'point'}: {each}{opts}.\n" + "\n".join(self.notes + notes)
        try:
            svg = charts.draw(rows, bars, title, sub, axis, note,
                              "" if self.kind == "sweep" else peers.OURS, self.kind == "peers_sweep")
        except charts.Bad as e:
            print(f"run.sh: chart ({alt}) not drawn, harness/charts.py failed: {e}", file=sys.stderr)
            self.chart_lines += [f"Chart ({alt}): not drawn, harness/charts.py failed: {e}", ""]
            return
        f, i = name + ".svg", 1
        while os.path.exists(os.path.join(self.charts_dir, f)) or f in self.charts:  # never overwrite an older chart
            i += 1
            f = f"{name}-{i}.svg"
        with open(os.path.join(self.work, f), "w", encoding="utf-8") as out:
            out.write(svg)
        self.charts.append(f)
        self.chart_lines += [f"![{alt}](charts/{f})", ""]

    def draw_charts(self, context=None):
        """A bar chart a scenario under --peers (smallest first), a line chart a scenario under --sweep --peers, one
        for a sweep of ours, and for a replication its key figure: memory at its largest N."""
        self.chart_lines, self.charts, n, stamp, name = [], [], self.s["N"], self.stamp, self.rep_name
        if self.kind == "peers":
            for scen in self.scenarios:
                bars = sorted(self.bars.get(scen, []), key=lambda b: (float(b[1]), b[0]))
                self.draw(bars, [], f"peers-{stamp}-{scen}", f"Max RSS of N={n} tasks: {scen}",
                          f"{scen}: max RSS (MiB) of each runtime at N={n}")
        elif self.kind == "peers_sweep":
            for scen in self.scenarios:
                self.draw(self.points.get(scen, []), self.chart_notes.get(scen, []), f"sweep-{stamp}-{scen}",
                          f"Max RSS against concurrent tasks: {scen}",
                          f"{scen}: max RSS (MiB) against task count, one line per runtime")
        elif self.kind == "sweep":
            self.draw(self.points.get("", []), self.chart_notes.get("", []), f"sweep-{stamp}",
                      "Max RSS against concurrent tasks", "Max RSS (MiB) against task count, one line per scenario")
        elif self.kind == "replicate":
            try:
                c = replicate.chart(context, self.records)
            except (KeyError, ValueError, LookupError) as e:  # then the section goes without its chart
                print(f"run.sh: chart of {name} not drawn: its bars could not be computed: {e}", file=sys.stderr)
                c = replicate.Chart([], "", f"{name}: the memory of each runtime at its largest N", "", "", [],
                                    "its bars could not be computed")
            self.draw(c.bars, c.notes, f"replicate-{stamp}-{name}", c.title, c.alt, (c.axis, c.each), c.empty)

    def context(self, head, notes):
        """The section's own record: its runs, heading, command and charts, its text around the table, its rows."""
        c = {"record": "section", "schema": store.SCHEMA, "run": self.run_id, "heading": self.when,
             "command": self.s["command_line"], "charts": " ".join(self.charts), "resumed": self.resumed,
             "runs": [self.run_id] + list(dict.fromkeys(x for x in self.sittings if x != self.run_id)),
             "kind": self.kind, "head": head, "rows": self.rows, "notes": notes}
        if self.kind == "replicate":
            c.update(replicate.fields(self))
        return c

    def write(self):
        """The section: its record into the store first, then RESULTS, a new copy renamed over it."""
        s, stamp = self.s, time.gmtime()
        self.when, self.stamp = time.strftime("%Y-%m-%d %H:%M UTC", stamp), time.strftime("%Y%m%d-%H%M", stamp)
        lines = machine.lines(self.machine, self.commit)
        if self.kind == "replicate":
            self.draw_charts(self.context([], []))  # the chart's bars come from the record's points
            head, notes = replicate.head(self, lines)
        else:
            self.draw_charts()
            ns = f"N={s['sweep_ns'].replace(' ', ',')}" if s["sweep"] else f"N={s['N']}"
            head = [f"## {self.when} — {'peers ' if s['peers'] else ''}{'sweep ' if s['sweep'] else ''}{ns},"
                    f" RUNS={s['RUNS']}{settings.mode_settings(s, self.scenarios)}", ""] + lines
            head += [f"- {'SWEEP=' + s['sweep_ns'] if s['sweep'] else 'N=' + s['N']}, {self.settings_line()}"]
            head += (self.peers_lines() if s["peers"] else []) + [""] + self.chart_lines
            notes = self.table_notes()
        context = self.context(head, notes)
        try:
            text = export.text(context, self.records)
        except Exception as e:  # the figures are in the store: its record too, so that --render can give it later
            self.keep([context])
            fail(f"the section could not be rendered ({type(e).__name__}: {e}); {self.res} left unchanged, the"
                 f" section's record is in {self.st}: ./run.sh --render {self.run_id} prints it", 1)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # one append, shielded from signals
            signal.signal(sig, signal.SIG_IGN)
        self.keep([context])
        if self.lost:
            sys.stdout.write(text)
            fail(f"{self.lost} records could not be written to {self.st}: they are in {self.work}/records, and"
                 f" {self.res} is left as it was (the section is above)", 1)
        why = None
        try:
            for f in self.charts:
                os.makedirs(self.charts_dir, exist_ok=True)
                shutil.copyfile(os.path.join(self.work, f), os.path.join(self.charts_dir, f))
        except OSError:
            why = f"cannot write {self.charts_dir}/{f}; {self.res} left unchanged, the section follows"
        if not why and not append(self.res, text):
            why = f"cannot write {self.res} (a full disk?): it is left as it was, and the section follows"
        if why:  # no chart without its section: the charts copied so far go (their names were new)
            for f in self.charts:
                if os.path.exists(os.path.join(self.charts_dir, f)):
                    os.unlink(os.path.join(self.charts_dir, f))
            print(f"run.sh: {why}", file=sys.stderr)
        sys.stdout.write(text)
        if why:
            sys.exit(1)
        where = f"; charts in {self.charts_dir}: {' '.join(self.charts)}" if self.charts else ""
        print(f"run.sh: appended to {self.res}{where}; every run's record in {self.st} (run {self.run_id})",
              file=sys.stderr)


def cached_ref(path):
    """The plan line whose records a cache file names, or None."""
    try:
        return json.loads(machine.read(path))["ref"]
    except (ValueError, KeyError, TypeError):
        return None


def append(path, text):
    """PATH with TEXT appended (after RESULTS's title, were it empty or absent), written as a new copy beside it and
    renamed over it, so that a disk that fills, a failed write or a kill leaves PATH byte for byte as it was."""
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".RESULTS.")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as out:
            if os.path.exists(path):
                with open(path, "rb") as f:
                    shutil.copyfileobj(f, out)
                shutil.copymode(path, tmp)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
            if not out.tell():
                text = "# Results\n\nGenerated by run.sh, append-only: each run adds one section below.\n\n" + text
            out.write(text.encode("utf-8"))
        os.replace(tmp, path)
        return True
    except OSError:
        os.unlink(tmp)
        return False


# ---- The commands that run nothing, and main. ----------------------------------------------------

def offline(argv, env, here):
    """--export, --render, --gaps, --compare, --check-store."""
    _, st = place(env, here)
    what, args = argv[0], argv[1:]
    form, ok = {"--render": ("SECTION (its heading's time, as RESULTS prints it, or its run id)", len(args) == 1),
                "--gaps": ("SECTION (a replication's heading time, as RESULTS prints it, or its run id)",
                           len(args) == 1),
                "--export": ("csv|json|md [SECTION]", 1 <= len(args) <= 2),
                "--compare": ("A B [md|csv|json] (each a run id, or a section's heading time)", len(args) in (2, 3)),
                "--check-store": ("[--repair]", args in ([], ["--repair"]))}[what]
    need(ok, f"usage: ./run.sh {what} {form}")
    if what == "--export":
        need(args[0] in export.EXPORTERS, f"--export takes csv, json or md, got '{args[0]}'")
    if what == "--compare":
        need(args[2:3] in ([], ["md"], ["csv"], ["json"]), f"--compare writes md, csv or json, got '{args[-1]}'")
    try:
        store.regular(st)
        if what == "--check-store":
            bad = store.problems(st)
            for number, why in bad:
                print(f"{st}:{number}: {why}")
            if bad and args:
                take_lock("./run.sh --check-store --repair")  # no run.sh may append while the store is rewritten
                aside, n = store.repair(st)
                print(f"run.sh: moved {n} line{'s' if n != 1 else ''} into {aside}; the store holds the rest",
                      file=sys.stderr)
            elif not bad:
                print(f"{st}: every line is a record")
            return 1 if bad and not args else 0
        if what == "--gaps":
            return gaps(st, args[0])
        if what == "--compare":
            compare.FORMATS[args[2] if len(args) == 3 else "md"](st, args[0], args[1], sys.stdout)
        else:
            args = ["md"] + args if what == "--render" else args
            export.EXPORTERS[args[0]](st, args[1] if len(args) == 2 else None, sys.stdout)
        sys.stdout.flush()
    except store.StoreError as e:
        fail(str(e), e.code)
    except (LookupError, ValueError, AttributeError, TypeError) as e:  # a record unlike any run.sh writes
        fail(f"the {'comparison could not be made' if what == '--compare' else 'section could not be rendered'}:"
             f" {type(e).__name__}: {e}", 1)
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    except OSError as e:
        fail(f"cannot read {st}: {e.strerror}", 1)
    return 0


def gaps(st, key):
    """--gaps: each gap of a replication's section, a line each on stdout, with the cause that covers it in the data
    file the section was written with (its rows, tables and first words: a line number there would not name it in the
    file as it is now), or none (and then the cause of the file as it is now that would: the section prints no cause
    until it is written again); 1 where a gap has none."""
    context = store.find_section(st, key)
    said = context.get("heading", context["run"])
    if context.get("kind") != "replicate":
        raise store.StoreError(f"section {said} is no replication: only a replication sets figures against published"
                               " ones")
    if "points" not in context:
        raise store.StoreError(f"section {said} was written before run.sh kept its tables in the store")
    found = replicate.gaps(context, store.runs_of(st, set(store.sittings(context))))
    name = replicate.Published(context["published"]).about.get("name", "")
    path = os.path.join(SRC, "peers", "published", f"{name}.tsv")
    now = replicate.published(path) if os.path.isfile(path) else None
    for g, c in found:
        later = None if c or now is None else replicate.covering(g, now.causes)
        print(f"covered by {replicate.cause_said(c)}: {g.text}" if c else f"no cause: {g.text}"
              + (f" ({replicate.cause_said(later)}, in peers/published/{name}.tsv now, covers it; this section was"
                 " written before it)" if later else ""))
    if not found:
        print("no gap" + (": --quick sets nothing against the published figures" if context.get("quick") else ""))
    return 1 if any(c is None for _, c in found) else 0


def main(argv, env):
    for f in (sys.stdout, sys.stderr):  # output is UTF-8, whatever the locale or PYTHONIOENCODING
        f.reconfigure(encoding="utf-8", errors="replace")
    here = env.pop("BENCH_HERE", os.getcwd())
    os.environ["LC_ALL"] = env["LC_ALL"] = "C"  # every tool's messages, and so every section, in one language
    os.chdir(SRC)
    try:
        if argv and argv[0] == "--profile":
            return profile(argv, env, here)
        return offline(argv, env, here) if argv and argv[0] in OFFLINE else command(argv, env, here)
    except settings.Bad as e:  # a bad request or setting, found before anything is built, measured or read
        fail(str(e))
    except OSError as e:  # a call that failed where nothing more particular was said: which, and why
        where = traceback.extract_tb(e.__traceback__)[-1].name
        fail(f"{where} failed: {e.strerror or e}" + (f" ({e.filename})" if e.filename else ""), 1)


def command(argv, env, here):
    """A run, or its --plan."""
    try:
        tables = peers.Tables.load(LIB)
    except settings.Bad as e:
        fail(f"peers/: {e}", 1)
    s, ps = parse(argv, env, tables, sys.stdout, here)
    tables = tables.with_sets(ps["sets"]) if ps["sets"] else tables
    res, st, pb = *place(env, here), s["build_dir"]
    configs = plan.Planner(tables, s).plan()
    if s["plan"]:
        sys.stdout.write(plan.listing(tables, s, configs))
        return 0
    r = Run(s, tables, env, res, st, pb)
    check_files(res, st, r.charts_dir, bool(s["sweep"] or s["peers"]))
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, measure.on_signal)
    try:
        r.start()
        est = plan.estimate(configs, pb)
        r.builder = peers.Builder(LIB, tables, ps, pb, r.pw, r.scenarios, {"N": s["N"], "sweep_ns": s["sweep_ns"]})
        s["versions_dir"] = r.pw
        if s["peers"]:
            r.builder.prepare()
        r.run_plan(configs)
        if r.resumed and not s["replicate"]:
            r.notes.append(f"resumed: {r.resumed} of the {r.configs} configurations (the N=1 baselines among them)"
                           f" were measured by an earlier run of this command at commit {r.commit} that was stopped,"
                           " kept in PEERS_BUILD/resume")
        r.write()
        took = round(time.monotonic() - r.began)
        kept = f", for the whole run: {r.resumed} configurations were kept from an earlier one" if r.resumed else ""
        print(f"run.sh: took {stats.minutes(took)}; estimated"
              f" {stats.minutes(est[0] + (est[1] if s['peers'] else 0))}{kept}", file=sys.stderr)
        if r.cache and not s["replicate"]:
            shutil.rmtree(r.cache, ignore_errors=True)
        return 1 if r.failures else 0
    except Interrupted as e:
        print(f"run.sh: interrupted; {res} left unchanged (the records of the runs that ended are in {st})",
              file=sys.stderr)
        return e.args[0]
    finally:
        if hasattr(r, "work") and not r.lost:
            shutil.rmtree(r.work, ignore_errors=True)


def profile(argv, env, here):
    """--profile: one row of a --peers run or of a replication, planned from the same settings, built as that run
    builds it and run once as it runs it, under perf (profiling.py), into a file in profiles/; no record, no section."""
    try:
        tables = peers.Tables.load(LIB)
    except settings.Bad as e:
        fail(f"peers/: {e}", 1)
    if any(a in ("-h", "--help") for a in argv):
        sys.stdout.write(usage(tables))
        return 0
    label, args, table = profiling.split(argv)
    shaping, pub = dict(env), None
    if table is not None:  # the table's settings and rows, as TABLES=TABLE would run them
        need(not env.get("TABLES"), f"TABLES is not for --profile: its table comes after the write-up (usage:"
             f" {profiling.USAGE})")
        path = os.path.join(SRC, "peers", "published", args[1] + ".tsv")
        if os.path.isfile(path):  # else parse names the write-ups there are
            keys = list(dict.fromkeys(t["key"] for t in replicate.published(path).tables))
            need(table in keys, f"--profile: {args[1]} has no table '{table}' (its tables: {' '.join(keys)})")
        env["TABLES"] = table
    s, ps = parse(args, env, tables, sys.stdout, here)
    s["command_line"] = profiling.command_line(argv, shaping)
    pub = replicate.published(s["pubfile"], table) if table is not None else None
    tables = tables.with_sets(ps["sets"]) if ps["sets"] else tables
    c, id_ = profiling.pick(plan.Planner(tables, s).plan(), label, pub, args[1] if pub else "")
    perf = profiling.find(env)
    if perf is None and not env.get("PERF") and os.getuid() == 0 and shutil.which("apt-get") \
            and ps["PEERS_INSTALL"] == "auto":
        print(f"run.sh: --profile: perf is missing; installing {profiling.PACKAGE} with apt-get (PEERS_INSTALL=no"
              " turns this off)", file=sys.stderr)
        subprocess.run(["bash", LIB, "apt_install", profiling.PACKAGE], capture_output=True)
        perf = profiling.find(env)
    if perf is None:
        fail(f"--profile needs perf ({env.get('PERF') or 'not found'}): " + (
             "Linux's perf, which macOS does not have" if sys.platform == "darwin" else
             f"install it with {'' if os.getuid() == 0 else 'sudo '}apt-get install {profiling.PACKAGE} (Debian; on"
             " another Linux, its perf package)"), 1)
    why, user_only = profiling.paranoid(machine.read)
    if why:
        fail(f"--profile: {why}", 1)
    pb, work = s["build_dir"], tempfile.mkdtemp(prefix="run_sh.", dir=env.get("TMPDIR") or None)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, measure.on_signal)
    try:
        lock = take_lock(s["command_line"])
        print("run.sh: building with make", file=sys.stderr)
        p = subprocess.run(["make", "-C", SRC], capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            sys.stderr.write(p.stdout + p.stderr)
            fail("make failed; nothing was profiled", 1)
        pw = os.path.join(work, "peers")
        os.makedirs(pw)
        if c.group != "ours":  # its group alone (and the group a copy is built beside), as the run would build it
            ps["PEERS"] = tables.groups[c.group]["name"]
            b = peers.Builder(LIB, tables, ps, pb, pw, [c.scenario], {"N": s["N"], "sweep_ns": s["sweep_ns"]})
            b.prepare()
            state = b.state.get(c.group, "")
            if state != "ok":
                said = " ".join(machine.read(os.path.join(pw, f)).strip() for f in ("missing", "notes")).strip()
                fail(f"--profile: {tables.runtime_label(c.group, pw)} was not built: "
                     + {"missing": "its toolchain is missing", "skip": "it was passed over"}.get(state, state)
                     + (f" ({said})" if said else ""), 1)
        prog = os.path.join(SRC, c.program[2:]) if c.group == "ours" else os.path.join(pb, "bin", c.program)
        argv_ = [c.n] + c.args.split()
        run_env = {**env, "LC_ALL": "C", **dict(w.split("=", 1) for w in c.env.split())}
        sw = profiling.switch(tables, c.group, run_env)
        if sw:
            run_env[sw[0]] = sw[1]
            print(f"run.sh: --profile: set {sw[0]}={sw[1]}, so that perf names the frames"
                  f" {tables.runtime_label(c.group, pw)} compiles as it runs", file=sys.stderr)
        folder = os.path.join(SRC, "profiles")
        os.makedirs(folder, exist_ok=True)
        os.makedirs(os.path.join(pb, "profiles"), exist_ok=True)
        txt, name = profiling.place(folder, f"{args[1]}-{table}-{id_}" if pub else f"peers-{c.scenario}-{s['N']}-{id_}")
        data = os.path.join(pb, "profiles", name + ".data")

        def shown(w):  # a path as the file shows it: PEERS_BUILD/..., ./PROGRAM
            return "PEERS_BUILD" + w[len(pb):] if w.startswith(pb + "/") else \
                "./" + w[len(SRC) + 1:] if w.startswith(SRC + "/") else w
        cmd = " ".join(shlex.quote(w) for w in c.env.split() + [shown(prog)] + argv_)
        print(f"run.sh: --profile: {cmd}, once, under perf record", file=sys.stderr)
        ran = profiling.record(perf, data, prog, argv_, run_env, int(c.limit) if c.limit else None, lock, work)
        if not os.path.isfile(data):
            fail(f"--profile: perf record wrote no data: {measure.last_error(ran.err) or f'exit {ran.status}'}", 1)
        try:
            parts, total = profiling.report(perf, data, shown)
        except profiling.Failed as e:
            fail(f"--profile: {e} (perf's data: {shown(data)})", 1)
        what = (f"replicate {args[1]}, table {table} ({pub.tables[0]['title']}), row {id_}" if pub
                else f"--peers {s['N']} {c.scenario}, row {id_}")
        what += f": {tables.runtime_label(c.group, pw)}, {c.variant}"
        header = profiling.header(what, s["command_line"], cmd, shown(data), machine.run(perf, "--version").strip(),
                                  sw, machine.commit(SRC), machine.describe(SRC, rate=False), ran, total, c.limit,
                                  user_only, bool(s.get("PEER_TIMEOUT")))
        profiling.write(txt, header, parts)
        print(f"run.sh: --profile: wrote {shown(txt)} (perf's data: {shown(data)})", file=sys.stderr)
        print(txt)
        return 0 if ran.status == 0 and not ran.timed_out else 1
    except Interrupted as e:
        print("run.sh: interrupted; no profile written", file=sys.stderr)
        return e.args[0]
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], dict(os.environ)))
