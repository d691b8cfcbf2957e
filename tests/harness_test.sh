#!/usr/bin/env bash
# tests/harness_test.sh: harness/replicate.py's and harness/plan.py's parts on their own, in one
# python3 process (a process start is dear on some machines): a data file read, its claims judged on
# readings and ties, its checker's messages, the groups of tables (and the row again at --peers'
# sleep), a section's table, claims and differences computed from run records; a plan's lines from
# the tables and the settings, the default time limit, the estimate, a replication's rows.
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

results=$(python3 - <<'EOF' 2>&1
import sys
sys.path.insert(0, "harness")
import replicate as r

def say(name, ok, detail=""):
    print(("PASS\t" if ok else "FAIL\t") + name + ("" if ok else f" (got: {detail})"))

T = "\t"
def tsv(*lines):
    return "\n".join(T.join(l) for l in lines) + "\n"

about = [("about", k, "x") for k in r.ABOUT if k != "name"] + [("about", "name", "tiny")]
base = about + [
    ("run", "scenarios", "coro_timer"), ("run", "SLEEP_MS", "5000"),
    ("table", "1000", "1K", "-", "id=small"), ("table", "100000", "100K", "-", "id=big"),
    ("table", "100000", "100K again", "-", "id=slow", "SLEEP_MS=6000"),
    ("column", "memory", "max_rss", "MB", "Memory"),
    ("row", "go", "coro_timer", "go-coro_timer", "-", "-", "Go"),
    ("row", "cs", "coro_timer", "csharp-coro_timer", "-", "-", "C#"),
    ("row", "rs", "coro_timer", "-", "-", "-", "Rust"),
    ("fig", "go", "big", "memory", "100", "MB"), ("fig", "cs", "big", "memory", "50/150", "MB"),
    ("fig", "rs", "big", "memory", "10", "MB"), ("fig", "go", "small", "memory", "-", "MB", "not printed"),
]
pub = r.Published(tsv(*base))
j = r.Judge(pub, pub.label)
figs = r.Figures(pub.lo, pub.hi, pub.shown)
cases = [
    ("memory rs < go at big", "yes"),
    # C#'s readings straddle Go's figure: neither is wholly below the other.
    ("memory cs < go at big", "no"), ("memory cs > go at big", "no"),
    ("min memory at big = rs", "yes"), ("max memory at big = go", "no"),
    ("ratio memory go / rs at big > 9.9", "yes"), ("ratio memory cs / rs at big > 4", "yes"),
    ("ratio memory cs / rs at big < 10", "no"),
    ("chain memory rs@big < go@big ~ cs@big", "yes"), ("chain memory rs@big < cs@big < go@big", "no"),
    ("memory go < rs at small", "cannot tell"), ("memory rs < go at big and memory go < rs at small", "cannot tell"),
    ("memory go < rs at big and memory go < rs at small", "no"),
]
for expr, want in cases:
    v, f = j.judge(expr, figs)
    say(f"judge: {expr} is {want}", v == want, f"{v}: {f}")
v, f = j.judge("ratio memory cs / rs at big > 4", figs)
say("a ratio over readings gives its range", f == "C# / Rust = 5.00–15.00", f)
v, f = j.judge("min memory at small = go", figs)
say("a claim on a table without figures cannot be told", (v, f) == ("cannot tell", "-"), (v, f))

# The checker: each problem with its line, in the file's order.
bad = base + [("row", "go", "coro_timer", "go-coro_timer", "-", "-", "Go again"), ("fig", "rs", "small", "memory", "3", "KB"),
              ("bogus", "line"), ("claim", "min memory at big go", "yes", "words")]
problems = r.Check("dir/tiny.tsv", tsv(*bad)).problems
n = len(base)
want = [f"dir/tiny.tsv:{n + 1}: second row go (first at line {n - 6})",
        f"dir/tiny.tsv:{n + 2}: fig in KB, its column is in MB",
        f'dir/tiny.tsv:{n + 3}: unknown kind "bogus"',
        f"dir/tiny.tsv:{n + 4}: a claim outside the grammar: min memory at big go (not of the form min COLUMN at T = ROW)"]
say("the checker names each problem with its line", problems == want, problems)
say("a good file has no problem", r.Check("tiny.tsv", tsv(*base)).problems == [], r.Check("tiny.tsv", tsv(*base)).problems)
say("a file named for another write-up is refused", "x/other.tsv:0: its name is tiny, not its file name" in r.Check("x/other.tsv", tsv(*base)).problems)

# The groups: a table's settings make its group; a sleep shorter than --peers' adds a group at the
# largest N, shared by groups that differ only in their sleep.
groups = r.groups(pub, False, "30000")
say("groups, and the row again at 30 s", groups == [["1", "-", "1000 100000", "-"], ["2", "SLEEP_MS=6000", "100000", "-"],
                                                    ["3", "SLEEP_MS=30000", "100000", "coro_timer", "1,2"]], groups)
say("--quick divides N and adds no 30 s group", r.groups(pub, True, "30000") == [["1", "-", "100 10000", "-"], ["2", "SLEEP_MS=6000", "10000", "-"]],
    r.groups(pub, True, "30000"))
say("TABLES picks tables by id", [t["key"] for t in r.Published(tsv(*base), "big slow").tables] == ["big", "slow"])

# A section from records: the best of two runs by wall, the figure in the write-up's unit, the
# ratio to the published one, ours without either, and the point run again at 30 s.
def rec(label, n, row, wall, rss, summary=None):
    return {"record": "run", "run": "R", "row": str(row), "label": label, "n": str(n), "failure": None,
            "time": {"wall_s": wall, "user_s": "1.00", "sys_s": "0.50", "max_rss_kib": str(rss)},
            "samples": {"avg_rss_kib": None, "window_avg_kib": None},
            "summary": summary or {"scenario": "coro_timer", "n": str(n)}}
records = [rec("go@1", 100000, 1, "5.20", 204800), rec("go@1", 100000, 1, "5.10", 102400),
           rec("go@3", 100000, 2, "30.1", 307200), rec("ours:coro_timer@1", 100000, 3, "5.00", 10240),
           {"record": "run", "run": "R", "row": "4", "label": "cs@1", "n": "100000", "failure": "failed (exit 1): boom"}]
context = {"run": "R", "head": ["## head", ""], "published": tsv(*base), "tables": "big", "quick": "", "long_ms": "30000",
           "runs_here": "2", "machine_here": "CPU: here", "notes": ["- a note"],
           "here": [["go", "go 1.19", "-", "go-coro_timer", "ok"], ["cs", "c# .NET 10", "-", "csharp-coro_timer", "ok"],
                    ["rs", "", "-", "-", ""], ["ours:coro_timer", "c++20 (this repo)", "-", "coro_timer", "ok"]],
           "points": [{"label": "go@1", "n": "100000", "ref": "R/1"}, {"label": "go@2", "n": "100000", "ref": "R/2"},
                      {"label": "ours:coro_timer@1", "n": "100000", "ref": "R/3"}, {"label": "cs@1", "n": "100000", "ref": "R/4"}]}
# TABLES="big": its group is 1, and the 30 s group that serves it 2 (go@2, above).
text = r.section(context, records).split("\n")
rows = [l for l in text if l.startswith("| ")]
say("a section's rows: the best run, in MB, with the published figure and the ratio", "| Go | go 1.19 | 100.0 | 100 | 1.00 | - |" in rows, rows)
say("the row again at 30 s, without a published figure", "| Go | go 1.19, at a 30 s sleep | 300.0 |  |  | - |" in rows, rows)
say("a failed point says why", "| C# | c# .NET 10 | failed (exit 1): boom | 50/150 | - | - |" in rows, rows)
say("a row with no program here says so", "| Rust | not to be had here | - | 10 | - | - |" in rows, rows)
say("ours last, without a published figure, then again at 30 s", rows[-2:] == ["| - | c++20 (this repo) | 10.0 |  |  | - |",
                                                                            "| - | c++20 (this repo), at a 30 s sleep | - |  |  | - |"], rows)
say("the section ends with what differs, then a blank line", text[-3:] == ["- runs: x there; the best of RUNS=2 here", "", ""], text[-4:])
say("the notes follow the write-up's line", "- a note" in text and text.index("- a note") == [i for i, l in enumerate(text) if l.startswith("- the write-up:")][0] + 1, text)
means = r.point_values(context["points"][:1], r.render.Rows(records, {"R"}))[("go@1", "100000")]
say("the means over the runs, as awk printed them", (means["wmean"], means["rmean"]) == ("5.150", "153600"), means)
# Added in order, as awk adds: a compensated sum (Python 3.12's sum()) prints 456.663 here.
four = [rec("go@1", 1, 9, w, 1024) for w in ("283.91", "553.28", "951.39", "38.07")]
means = r.point_values([{"label": "go@1", "n": "1", "ref": "R/9"}], r.render.Rows(four, {"R"}))[("go@1", "1")]
say("the mean wall of four runs, added in order", means["wmean"] == "456.662", means)

# Odd data files: one line each, never a traceback.
odd = r.Check("tiny.tsv", tsv(*base, ("claim", "ratio memory go / rs at big > 1,000", "no", "words")).replace("1K\t", "1K\r\t", 1)).problems
say("a threshold with a thousands separator is a number", not any("ratio" in p for p in odd), odd)
say("a carriage return is refused, with its line", any(p.endswith("a carriage return: save the file with LF line ends") for p in odd), odd)
odd = r.Check("tiny.tsv", tsv(*base).replace("table\t1000\t", "table\t1K\t", 1)).problems
say("a table's N that is not a whole number is refused", any("a table's N is a whole number from 1, without a leading zero: 1K" in p for p in odd), odd)

# harness/plan.py: the plan from the tables and the settings, with nothing run.
import plan as p
tables = p.Tables(tsv(("go", "go", "go", "go @V@", "GOMAXPROCS=@T@", "-"), ("node", "node", "node", "node @V@", "-", "1 (one thread)"),
                      ("rs", "rust-std", "rust", "rust @V@ std", "-", "one per task"), ("go@1", "go", "go", "go @V@", "GOMAXPROCS=@T@", "-"))
                  + "@@\n" + tsv(*[(s, prog, g, "-", opts, "-", "-", "v " + prog) for s, prog, g, opts in (
                      ("coro_timer", "coro_timer", "ours", "-"), ("coro_timer", "go-coro_timer", "go", "-"),
                      ("coro_timer", "go-coro_timer@1", "go@1", "-"), ("coro_timer", "node-coro_timer", "node", "-"),
                      ("coro_timer", "rs-coro_timer", "rs", "-"), ("atomic_counter", "atomic_counter", "ours", "counter"))]))
def settings(**kw):
    s = dict.fromkeys(p.SETTINGS, "")
    s.update(scenarios="coro_timer", N="100", RUNS="2", THREAD_CAP="10", peers="yes", PEERS="go node rust-std", peers_sleep_ms="30000")
    s.update(kw)
    return s
# named(S): the plan's lines as run.sh reads them: NAME=VALUE fields, "-" for an empty value.
def named(s):
    return [dict(f.split("=", 1) for f in c.line().split("\t")) for c in p.Planner(tables, s).plan()]
def cells(s, k=("kind", "group", "n", "threads", "env")):
    return [tuple(c[i] for i in k) for c in named(s)]
got = cells(settings(THREADS="1 2"))
say("a peers plan: the limit, then ours and each peer at each T, a baseline before each row",
    got[:5] == [("limit", "ours", "-", "-", "-"), ("base", "ours", "1", "1", "-"), ("row", "ours", "100", "1", "-"),
                ("base", "go", "1", "1", "GOMAXPROCS=1"), ("row", "go", "100", "1", "GOMAXPROCS=1")], got)
say("a runtime without a threads knob runs once, at the first T, its threads cell its fixed threads",
    [c for c in got if c[1] == "node"] == [("base", "node", "1", "1 (one thread)", "-"), ("row", "node", "100", "1 (one thread)", "-")], got)
say("a thread per task is capped at THREAD_CAP, with a limit line that says so",
    [c for c in got if c[1] == "rs"][:2] == [("limit", "rs", "-", "-", "-"), ("base", "rs", "1", "one per task", "-")]
    and ("row", "rs", "10", "one per task", "-") in got, got)
say("a patched copy is a group of its own, planned beside its group", ("row", "go@1", "100", "2", "GOMAXPROCS=2") in got, got)
say("PEERS leaves out the others", not any(c[1] == "node" for c in cells(settings(PEERS="go"))))
rs = [c for c in cells(settings(N="", sweep="yes", sweep_ns="1 5 20"), ("kind", "n", "flags", "group")) if c[3] == "rs"]
say("a sweep: a point per N up to THREAD_CAP, the first flagged, then one skip line for the rest",
    rs == [("point", "1", "first", "rs"), ("point", "5", "-", "rs"), ("skip", "20", "-", "rs")], rs)
plain = cells(settings(peers="", THREADS="1 2", SLEEP_MS="50"), ("kind", "args"))
say("ours without --peers: its options, THREADS each", plain == [("row", "--sleep-ms 50 --threads 1"), ("row", "--sleep-ms 50 --threads 2")], plain)
once = cells(settings(scenarios="atomic_counter", MODE="once", HITS="50", SPAWN_FROM="task", BURST="3"), ("kind", "args", "variant"))
say("atomic_counter's variants: once mode takes no --hits, the baseline no more than the row",
    [c[:2] for c in once[1:]] == [("base", "--sleep-ms 1000 --mode once --spawn-from task --burst 3"),
                                  ("row", "--sleep-ms 1000 --mode once --spawn-from task --burst 3")], once)
loop = cells(settings(scenarios="atomic_counter", HITS="600"), ("kind", "args"))[1:]
say("in loop mode the row takes --hits, its baseline (one task) not", loop == [("base", "--sleep-ms 1000"), ("row", "--sleep-ms 1000 --hits 600")], loop)
say("and its variant cell says what ran", once[2][2] == "v atomic_counter; once mode: one sleep, one hit, no loop, spawned from a task, bursts of 3 then 1000 ms", once[2][2])
say("a plan line names every field, NAME=VALUE", [list(c) for c in named(settings())][0] ==
    ["kind", "scenario", "group", "program", "n", "threads", "args", "env", "runs", "limit", "variant", "label", "flags"])
try:
    p.Config("row", "coro_timer", args="a\tb").line()
    say("a value with a tab in it is refused, not written as two fields", False)
except ValueError as e:
    say("a value with a tab in it is refused, not written as two fields", "tab" in str(e), e)

# The default time limit: 60 s at least, else 10 x the time the run must take.
def timeout(scen, ms, n, **kw):
    return p.Planner(tables, settings(**kw)).timeout(scen, ms, n)
for want, scen, ms, kw, what in ((60, "coro_timer", 5000, {}, "60 s at least"), (200, "coro_shared", 20000, {}, "10 x the sleep"),
                                 (101, "atomic_counter", 1000, {}, "atomic_counter needs 10 rounds and a poll"),
                                 (601, "atomic_counter", 1000, {"HITS": "6000"}, "HITS / N rounds"),
                                 (110, "atomic_counter", 10000, {"MODE": "once", "POLL_MS": "1000"}, "once mode, one round; a 1 s poll"),
                                 (151, "atomic_counter", 10000, {"BURST": "10", "BURST_PAUSE_MS": "500", "MODE": "once"}, "the bursts' pauses")):
    got = timeout(scen, ms, 100, **kw)
    say(f"the default limit: {what}", got == want, got)

# The estimate: each run its sleep, start-up and spawning, at most its limit; a build as long as
# its last one here, or a guess.
import os, tempfile
plan = [p.Config("row", "coro_timer", program="./coro_timer", n="1000000", threads="1", args="--sleep-ms 1000", runs="2", variant="v"),
        p.Config("row", "coro_timer", group="python", program="python-coro_timer", n="1000000", threads="1", args="30000", runs="1", limit="20"),
        p.Config("row", "coro_timer", group="go", program="go-coro_timer", n="10", threads="1", args="30000", runs="1", limit="300"),
        p.Config("row", "coro_timer", group="tokio", program="tokio-coro_timer", n="10", threads="1", args="30000", runs="1", limit="300")]
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "go.build_s"), "w") as f:
        f.write("42\n")
    got = p.estimate(plan, d)
# ours 2 x (1 + 0.1 + 0.5); python 30 + 1 + 25 capped at 20; go and tokio 30 + 1 (and a little).
say("the estimate of runs and builds", got == (int(3.2 + 20 + 31.00006 + 31.00002 + 0.5), 42 + 60 + 240, 2), got)
say("minutes", [p.minutes(s) for s in (40, 720, 7500)] == ["40 s", "12 min", "2 h 05 min"])

# harness/scenarios.py: each scenario's description, read from harness/scenarios.txt.
import scenarios as sc
say("scenarios.txt: the six scenarios in their order, each with every key its row and the row * list",
    list(sc.SCENARIOS) == ["threads", "coro_timer", "coro_shared", "atomic_counter", "running_avg", "hash_collect"]
    and sc.SCENARIOS["running_avg"]["summary"][:2] == ["scenario", "n"] and sc.SCENARIOS["running_avg"]["summary"][-1] == "variance"
    and sc.SCENARIOS["running_avg"]["peer_args"] == "N KEY" and sc.SCENARIOS["atomic_counter"]["counter"], sc.SCENARIOS)
for bad, what in (("x | 1 | long | - | no | --sleep-ms | N MS\n", "7 columns, not 8"),
                  ("x | soon | long | - | no | --sleep-ms | N MS | a\n", "cannot"),
                  ("x | 10 | long | - | no | --sleep-ms | N MS | a\n", "disagree"),
                  ("x | - | - | a b | no | --threads | N KEY | a\n", "disagree")):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("# a comment\n" + bad)
    try:
        sc.load(f.name)
        say(f"scenarios.txt: a bad line is refused ({what})", False)
    except ValueError as e:
        say(f"scenarios.txt: a bad line is refused ({what}), naming its line", what in str(e) and ":2:" in str(e), e)
    os.unlink(f.name)

# A replication's rows: each row of the write-up, its patched copies after it, then ours.
got = p.rows(tables, pub)
say("a replication's rows, a copy after its row, ours last",
    [g[:3] for g in got] == [("go", "coro_timer", "go-coro_timer"), ("go+1", "coro_timer", "go-coro_timer@1"),
                             ("cs", "coro_timer", "csharp-coro_timer"), ("rs", "coro_timer", "-"), ("ours:coro_timer", "coro_timer", "coro_timer")], got)
EOF
)
while IFS=$'\t' read -r verdict name; do
  case $verdict in
    PASS) check "$name" true ;;
    FAIL) check "$name" false ;;
    *) check "harness/replicate.py's and plan.py's checks ran: $verdict $name" false ;;
  esac
done <<<"$results"
finish
