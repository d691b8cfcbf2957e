"""./run.sh --profile: one row of a --peers run or of a replication, run once as that run would run it, under `perf
record` with the software clock, into a short text file in profiles/: a header (what ran, how, where, the samples),
the top frames by self share, the call chains of the top few, and the top frames with what they call. run.py builds
and locks as a run does; this module chooses the plan line, runs it under perf and writes the file. A profile is never
a measured run: it writes no record and no section."""

import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from collections import namedtuple

from measure import last_error, stop
from settings import SETTABLE, need

PACKAGE = "linux-perf"  # Debian's perf
# The lines each part of the file keeps, so that it reads in one sitting (under 150 lines in all); a chain longer than
# WIDTH characters is cut.
TOP, CHAINS, EACH, CHILDREN, WIDTH = 25, 5, 3, 15, 240
# The environment that shapes a run, said in the file's run.sh line: the write-ups' variants, and the rest.
SHAPING = SETTABLE + ("THREADS", "THREAD_CAP", "PEER_TIMEOUT", "PEERS_PATCH", "PEERS_DOTNET", "PEERS_GO",
                      "PEERS_GOROOT", "PEERS_CARGO", "CXX")
# On its time limit, the program is stopped (TERM, KILL after TERM_S) and perf given WRITE_S to write what it recorded.
TERM_S, WRITE_S = 5, 120
USAGE = "./run.sh --profile ROW --replicate NAME TABLE, or ./run.sh --profile LABEL --peers N SCENARIO"


class Failed(Exception):
    """What kept the profile from being made, one line: run.sh exits 1."""


def split(argv):
    """(LABEL, the arguments for run.sh's own parser, TABLE or None) of ARGV, `--profile LABEL --replicate NAME TABLE`
    or `--profile LABEL --peers N SCENARIO`; Bad otherwise."""
    need(len(argv) >= 2 and argv[1] and not argv[1].startswith("-"), f"--profile needs a row (usage: {USAGE})")
    label, rest = argv[1], argv[2:]
    need(rest[:1] in (["--replicate"], ["--peers"]),
         f"--profile takes a row of --replicate or of --peers (usage: {USAGE})")
    one = "a write-up and one of its tables" if rest[0] == "--replicate" else "N and one scenario"
    need(len(rest) == 3 and not any(a.startswith("-") for a in rest[1:]),
         f"--profile runs one row: {one} after {rest[0]} (usage: {USAGE})")
    return (label, rest[:2], rest[2]) if rest[0] == "--replicate" else (label, rest, None)


def label_of(c):
    """A --peers row's label: its program as --plan lists it, then what tells it from that program's other rows, as
    its chart's label has it (the variant, threads=T, START), each after a colon: go-running_avg:mutex:2t."""
    tail = [p for p in c.label.partition(", ")[2].split(", ") if p]
    return ":".join([c.program.removeprefix("./")] + [p[8:] + "t" if p.startswith("threads=") else p for p in tail])


def pick(configs, label, pub=None, name=""):
    """(the plan line --profile runs, its row's id): under --peers, the row labelled LABEL (label_of); in a
    replication (PUB, the write-up NAME's data file read for its one table), the point at the table's N of row LABEL
    (its id, or the label the table prints where that names one row). Bad, naming the rows there are, otherwise."""
    if pub is None:
        rows = {label_of(c): c for c in configs if c.kind == "row"}
        need(label in rows, f"--profile: the run has no row '{label}' (its rows: {' '.join(rows)})")
        return rows[label], label
    t = pub.tables[0]
    rows = {c.label.rpartition("@")[0]: c for c in configs
            if c.kind == "point" and c.label.rpartition("@")[2] == str(t["group"]) and c.n == t["n"]}
    named = [r for r in pub.rows if pub.row[r]["label"] == label]
    id_ = label if label in rows or label in pub.row or len(named) != 1 else named[0]
    if id_ not in rows and id_ in pub.row:
        r = pub.row[id_]
        need(r["prog"] != "-", f"--profile: {name}'s row {id_} has no program here: {r['label']} is not to be had here")
        need(t["scen"] in ("-", r["scen"]), f"--profile: {name}'s row {id_} is not in table {t['key']}, whose rows are"
             f" {t['scen']}'s (its rows: {' '.join(rows)})")
        need(False, f"--profile: {name}'s row {id_} is not run here: its runtime is not in PEERS")
    need(id_ in rows, f"--profile: {name}'s table {t['key']} has no row '{label}' (its rows: {' '.join(rows)})")
    return rows[id_], id_


def switch(tables, group, env):
    """(VAR, VALUE) that GROUP's descriptor sets for perf to name the frames its runtime compiles as it runs, VALUE
    after what ENV gives VAR already (a threads knob may set it); None for a runtime whose frames its binary names."""
    kv = tables.profile.get(group.partition("@")[0])
    if not kv:
        return None
    var, _, value = kv.partition("=")
    return var, f"{env[var]} {value}" if env.get(var) else value


def find(env):
    """The perf command, PERF (a path, or a name on PATH; default perf), or None."""
    return shutil.which(env.get("PERF") or "perf", path=env.get("PATH"))


def paranoid(read):
    """(why perf may not record here, or None; whether it records user space only). A user who is not root may not
    where kernel.perf_event_paranoid is above 2, and at 2 records only the user's own processes in user space."""
    v = read("/proc/sys/kernel/perf_event_paranoid").strip()
    if os.getuid() == 0 or not re.fullmatch(r"-?[0-9]+", v) or int(v) < 2:
        return None, False
    if int(v) == 2:
        return None, True
    return (f"perf may not record as this user: kernel.perf_event_paranoid is {v}; run run.sh as root, or allow a"
            " user's own processes (user space only): sudo sysctl kernel.perf_event_paranoid=2"), False


# One run under perf: its exit status, wall seconds, stdout and stderr (perf's lines taken out), whether its time
# limit stopped it, the samples perf record said it wrote ("" if it said none), whether perf itself had to be
# killed, its data then perhaps cut short, and the signals the program was sent at its limit.
Ran = namedtuple("Ran", "status wall out err timed_out samples cut sent", defaults=(False, ()))


def program_of(pgid):
    """The live processes of process group PGID but its leader, perf: the program, and whatever it started."""
    out = []
    for d in (d for d in os.listdir("/proc") if d.isdigit() and int(d) != pgid):
        try:
            with open(f"/proc/{d}/stat", encoding="ascii", errors="replace") as f:
                state, _, group = f.read().rpartition(")")[2].split()[:3]  # after the name, which may hold anything
        except (OSError, ValueError):  # ended meanwhile
            continue
        if group == str(pgid) and state != "Z":  # a zombie has ended: perf has yet to reap it
            out.append(int(d))
    return out


def stop_program(p):
    """The time limit: TERM the program, perf's child (and what it started), KILL it TERM_S later, then give perf
    WRITE_S to write what it recorded, as it does once its program ends; KILL perf's whole group only after that. (The
    signals sent, as their names; whether perf ended by itself.)"""
    sent = []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in program_of(p.pid):
            try:
                os.kill(pid, sig)
            except OSError:  # ended meanwhile
                continue
            if sig.name[3:] not in sent:
                sent.append(sig.name[3:])
        end = time.monotonic() + TERM_S
        while program_of(p.pid) and time.monotonic() < end:
            time.sleep(0.05)
        if not program_of(p.pid):
            break
    try:
        p.wait(timeout=WRITE_S)
        return sent, True
    except subprocess.TimeoutExpired:
        stop(p)
        return sent, False


def record(perf, data, program, args, env, limit, lock_fd, work):
    """PROGRAM ARGS run once under `perf record -e cpu-clock -g -o DATA`, as measure.once runs a program under time: in
    a process group of its own, holding the run lock; after LIMIT seconds the program is stopped and perf given time to
    write (stop_program). A Ran."""
    out_f, err_f = os.path.join(work, "out"), os.path.join(work, "err")
    with open(out_f, "wb") as out, open(err_f, "wb") as err:
        began = time.monotonic()
        p = subprocess.Popen([perf, "record", "-e", "cpu-clock", "-g", "-o", data, "--", program] + args, env=env,
                             stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True,
                             pass_fds=(lock_fd,))
    timed_out, cut, sent = False, False, []
    try:
        status = p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        sent, ended = stop_program(p)
        status, timed_out, cut = p.returncode, True, not ended
    except BaseException:
        stop(p)
        raise
    wall = time.monotonic() - began
    with open(out_f, encoding="utf-8", errors="replace") as o, open(err_f, encoding="utf-8", errors="replace") as e:
        out, err = o.read(), e.read()
    # "[ perf record: Captured and wrote 0.5 MB FILE (1234 samples) ]"
    counts = re.findall(r"^\[ perf record: Captured and wrote .*\(([0-9]+) samples\) \]$", err, re.M)
    err = "\n".join(line for line in err.split("\n") if not line.startswith("[ perf record: "))
    return Ran(status, wall, out, err, timed_out, counts[-1] if counts else "", cut, tuple(sent))


def header(what, command_line, cmd, data, version, sw, commit, m, ran, total, limit, user_only, timeout_set=False):
    """The file's header: WHAT ran (the row, its runtime and variant), run.sh's COMMAND_LINE, the program's CMD, perf's
    command (its DATA) and VERSION, the runtime's switch SW, the COMMIT and machine M, the date, the samples (perf
    record's count, else TOTAL as perf report gives it), how the program ended (RAN) and its time LIMIT (the measured
    run's, or PEER_TIMEOUT's where TIMEOUT_SET)."""
    sent = {(): "no signal: it had ended, perf had not", ("TERM",): "TERM",
            ("TERM", "KILL"): f"TERM, then KILL {TERM_S} s later"}.get(ran.sent, ", ".join(ran.sent))
    ended = (f"stopped after its time limit of {limit} s ({sent}, and perf given {WRITE_S} s to write its data"
             + ("; perf itself had to be killed, so its data may be cut short)" if ran.cut else ")")
             if ran.timed_out else f"exit {ran.status}")
    said = ran.out.strip().split("\n")[-1] if ran.out.strip() else ""
    return [f"# Profile: {what}", "",
            f"- run.sh: {command_line}",
            f"- the command, as that run runs it (under /usr/bin/time there, under perf here): {cmd}",
            f"- perf: perf record -e cpu-clock -g -o {data} -- (the command); {version or 'perf'}",
            "- runtime switch: " + (f"{sw[0]}={sw[1]}, so that perf names the frames the runtime compiles as it runs"
                                    if sw else "none: the program's own symbols name its frames"),
            f"- commit: {commit}; date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
            f"- machine: CPU: {m['cpu']}; cores: {m['cores']}; memory: {m['memory']}; {m['os']}, {m['kernel']}",
            f"- samples: {ran.samples or total or 'none'} of cpu-clock, the kernel's software clock (perf's default:"
            " 4000 a second of CPU time), which a VM without hardware counters has too"
            + ("; as a user at kernel.perf_event_paranoid 2, user space only" if user_only else ""),
            f"- the program: {ended}, {ran.wall:.2f} s of wall under perf"
            + (f"; it printed: {said}" if said else f"; its last words: {last_error(ran.err)}"),
            f"- time limit: {limit or 'none'}" + (" s, PEER_TIMEOUT's" if timeout_set else
                                                  " s, the measured run's (perf slows a program: PEER_TIMEOUT=S sets a"
                                                  " longer one)" if limit else ", as the measured run has none"),
            "- a profile, never a measured run: no figure of it is in a table, RESULTS or the store"]


def report(perf, data, shown):
    """The file's parts, from `perf report` on DATA: each its title, the command (as SHOWN shows a path) and perf's
    lines as it printed them; and the sample count its header gives. Failed where perf report fails."""
    base = [perf, "report", "-i", data, "--stdio", "--sort", "dso,sym"]
    parts = [("Top frames by self share: the samples whose innermost frame each is", TOP, 0,
              base + ["--no-children", "-g", "none"]),
             (f"Call chains of the top {CHAINS} frames, each frame first, then its callers, the {EACH} most sampled"
              " (a chain's share of all samples; cut at 16 frames)", CHAINS, EACH,
              base + ["--no-children", "-g", "folded,0.5,callee", "--max-stack", "16"]),
             ("Top frames with what they call (children): the samples in which each is on the stack", CHILDREN, 0,
              base + ["--children", "-g", "none"])]
    out, total = [], ""
    for title, entries, each, cmd in parts:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            raise Failed(f"perf report failed: {(p.stderr.strip().splitlines() or ['no output'])[-1]}")
        total = total or next(iter(re.findall(r"^# Samples: (\S+)", p.stdout, re.M)), "")
        lines, kept, chains = [], 0, 0
        for line in p.stdout.split("\n"):
            line = line.rstrip()
            if re.match(r"# +(Overhead|Children)\b", line) and not lines:
                lines.append(line)
            elif re.match(r"\s+[0-9.]+%", line):
                kept += 1
                if kept > entries:
                    break
                lines.append(line)
                chains = 0
            elif each and kept and re.match(r"[0-9.]+% ", line):
                chains += 1
                if chains <= each:
                    lines.append(line if len(line) <= WIDTH else line[:WIDTH - 3] + "...")
        out.append((title, " ".join(["perf"] + [shlex.quote(shown(w)) for w in cmd[1:]]),
                    lines or ["(no sample)"]))
    return out, total


def write(path, header, parts):
    """The profile's file: its header, then each part under its title and command; written whole as PATH.tmp, then
    renamed, so that an interrupt leaves no file cut short (nor the temporary one)."""
    text = header + [""]
    for title, cmd, lines in parts:
        text += [f"## {title}", "", f"$ {cmd}", ""] + lines + [""]
    try:
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write("\n".join(text))
        os.replace(path + ".tmp", path)
    except BaseException:
        if os.path.exists(path + ".tmp"):
            os.remove(path + ".tmp")
        raise


def place(folder, base):
    """FOLDER/BASE.txt, BASE made a file name (what is not a letter, digit, '.', '_', '+' or '-' becomes '_') and made
    new against the files there: a profile a section cites is never overwritten."""
    base, i = re.sub(r"[^A-Za-z0-9._+-]+", "_", base), 1
    name = base
    while os.path.exists(os.path.join(folder, name + ".txt")):
        i += 1
        name = f"{base}-{i}"
    return os.path.join(folder, name + ".txt"), name


def command_line(argv, env):
    """run.sh's command line, after the settings of ENV that shape the run."""
    sets = [f"{k}={shlex.quote(env[k])}" for k in SHAPING if env.get(k)]
    return " ".join(sets + ["./run.sh"] + [shlex.quote(a) for a in argv])
