"""Runs a program RUNS times under /usr/bin/time, as every row and point of a section is measured.

Each execution runs in a process group of its own (so that an interrupt or a time limit stops the
program with time), with the run lock's descriptor open (so that a program a killed run.sh leaves
behind still holds the lock), while a thread samples the program's resident set every 100 ms. Its
result (result.Run) goes into the store as a record at once.
"""

import os
import platform
import re
import signal
import subprocess
import threading
import time

from result import BadReport, Run, as_json, parse_time, summary_of

DARWIN = platform.system() == "Darwin"
TIME = ["/usr/bin/time", "-l" if DARWIN else "-v"]


class Interrupted(Exception):
    """SIGINT, SIGTERM or SIGHUP: the exit status (130, 143, 129) in args[0]."""


def on_signal(sig, _frame):
    raise Interrupted(128 + sig)


def last_error(err):
    """The program's last non-empty stderr line: time's report, which follows, is cut off."""
    last = ""
    for line in err.split("\n"):
        if re.match(r"^(Command (exited with non-zero status|terminated by signal) |\s*Command being timed: )", line) \
                or re.match(r"^ *[0-9.]+ real |^time: command terminated", line):
            break
        if line.strip():
            last = line
    return last.strip(" \t")


class Sampler(threading.Thread):
    """The resident set of time's child, the program itself, every 100 ms: (KiB, seconds) each."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.samples, self.done = pid, [], threading.Event()

    def child(self):
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as f:
                return (f.read().split() or [None])[0]
        except OSError:
            if os.path.isdir("/proc"):
                return None
        out = subprocess.run(["pgrep", "-P", str(self.pid)], capture_output=True, text=True).stdout.split()
        return out[0] if out else None

    def rss(self, pid):
        try:
            with open(f"/proc/{pid}/status") as f:
                m = re.search(r"^VmRSS:\s+([0-9]+)", f.read(), re.M)
                return int(m.group(1)) if m else None
        except OSError:
            if os.path.isdir("/proc"):
                return None
        out = subprocess.run(["ps", "-o", "rss=", "-p", pid], capture_output=True, text=True).stdout.strip()
        return int(out) if out.isdigit() else None

    def run(self):
        child = None
        while not self.done.wait(0.1 if child else 0.01):
            child = child or self.child()
            kib = self.rss(child) if child else None
            if kib is not None:
                self.samples.append((kib, time.monotonic()))


def means(samples, run):
    """(AVG, WINDOW): the mean of every sample, and of those from the end of spawning to the poll
    that saw the target (our waiting_ms or a peer's spawn_ms, and atomic_counter's reached_ms), the
    window the scoreboard's own AvgRSS averaged over; whole KiB, None without a sample. A sample's
    time counts from the first, taken as the program's own time zero."""
    if not samples:
        return None, None
    avg = round(sum(k for k, _ in samples) / len(samples))
    spawn, reached = run.get("waiting_ms"), run.get("reached_ms")
    spawn = spawn if spawn != "-" else run.get("spawn_ms")
    try:
        lo, hi = -(-float(spawn) // 1), float(reached) // 1
    except ValueError:
        return avg, None
    t0 = samples[0][1]
    inside = [k for k, t in samples if lo <= round((t - t0) * 1000) <= hi]
    return avg, round(sum(inside) / len(inside)) if inside else None


def once(program, args, env, workdir, limit, lock_fd):
    """One execution: (Run, status, time's figures). A failure is the Run's failure: a time limit
    (TERM, and KILL 5 s later, to the program's group), a non-zero exit, a report without a figure."""
    out_f, err_f = os.path.join(workdir, "out"), os.path.join(workdir, "err")
    with open(out_f, "wb") as out, open(err_f, "wb") as err:
        p = subprocess.Popen(TIME + [program] + args, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             start_new_session=True, pass_fds=(lock_fd,) if lock_fd is not None else ())
    sampler = Sampler(p.pid)
    sampler.start()
    timed_out = None
    try:
        try:
            status = p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = last_error(read(err_f))
            stop(p)
            status = p.returncode
    except BaseException:
        stop(p)
        raise
    finally:
        sampler.done.set()
        sampler.join()
    err = read(err_f)
    figures = {}
    if timed_out is not None:
        r = Run(failure=f"timed out after {limit} s" + (f" (last: {timed_out})" if timed_out else ""))
    elif status != 0:
        why = last_error(err)
        r = Run(failure=f"failed (exit {status})" + (f": {why}" if why else ""))
    else:
        try:
            wall, user, sys_, rss, figures = parse_time(err)
            r = Run(wall, user, sys_, rss, summary=summary_of(read(out_f)))
        except BadReport as e:
            r = Run(failure=f"failed: {e}")
    if not figures:
        figures = parse_figures(err)
    r.avg_rss_kib, r.window_avg_kib = means(sampler.samples, r)
    return r, status, figures


def parse_figures(err):
    try:
        return parse_time(err)[4]
    except BadReport:
        return {}


def stop(p):
    """TERM to the program's group, KILL 5 s later if it is still there."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
        try:
            os.killpg(p.pid, sig)
        except OSError:
            pass
        try:
            p.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def check(run, scenario, n):
    """A summary line of another scenario, or one whose completed= is not N, is a failure too."""
    if run.failure:
        return
    shown = run.get("scenario")
    if not run.summary:
        run.failure = "failed: no scenario= line on stdout"
    elif shown != scenario:
        run.failure = f"failed: it printed scenario={shown}"
    elif run.get("completed") not in ("-", str(n)):
        run.failure = f"failed: completed={run.get('completed')} of {n}"


def figures_json(figures):
    return {k: as_json(v) for k, v in figures.items()}
