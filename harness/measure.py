"""One execution under /usr/bin/time, as every row and point of a section is measured: in a process group of its own
(an interrupt or a time limit stops the program with time), with the run lock's descriptor open (a program a killed
run.sh leaves behind still holds the lock), while a thread samples the program's resident set every 100 ms."""

import os
import platform
import re
import signal
import subprocess
import threading
import time

from machine import read
from result import BadReport, Run, as_json, parse_time, summary_of
from stats import spawn_ms

TIME = ["/usr/bin/time", "-l" if platform.system() == "Darwin" else "-v"]
PROC = os.path.isdir("/proc")


class Interrupted(BaseException):  # not an Exception: no "except Exception" may take it for a failure
    """SIGINT, SIGTERM or SIGHUP: the exit status (130, 143, 129) in args[0]."""


def on_signal(sig, _frame):
    raise Interrupted(128 + sig)


def last_error(err):
    """The program's last non-empty stderr line: time's report, which follows, is cut off."""
    last = ""
    for line in err.split("\n"):
        if re.match(r"^(Command (exited with non-zero status|terminated by signal) |\s*Command being timed: "
                    r"| *[0-9.]+ real |time: command terminated)", line):
            break
        last = line.strip(" \t") or last
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "", last)  # a terminal's escapes have no place in a section


class Sampler(threading.Thread):
    """The resident set of time's child, the program itself, every 100 ms: (KiB, seconds) each; from /proc, else
    (macOS) from pgrep and ps."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.samples, self.done = pid, [], threading.Event()

    def read(self, path, command):
        return read(path) if PROC else subprocess.run(command, capture_output=True, text=True).stdout

    def run(self):
        child = None
        while not self.done.wait(0.1 if child else 0.01):
            if not child:
                child = (self.read(f"/proc/{self.pid}/task/{self.pid}/children", ["pgrep", "-P", str(self.pid)]).split()
                         or [None])[0]
            text = self.read(f"/proc/{child}/status", ["ps", "-o", "rss=", "-p", str(child)]) if child else ""
            m = re.search(r"^(?:VmRSS:)?\s*([0-9]+)", text, re.M)
            if m:
                self.samples.append((int(m.group(1)), time.monotonic()))


def means(samples, run):
    """(AVG, WINDOW), whole KiB, None without a sample: the mean of every sample, and of those from the end of
    spawning to the poll that saw the target (atomic_counter's reached_ms), the window the scoreboard's own AvgRSS
    averaged over. A sample's time counts from the first, taken as the program's own time zero."""
    if not samples:
        return None, None
    avg = round(sum(k for k, _ in samples) / len(samples))
    try:
        lo, hi = -(-float(spawn_ms(run)) // 1), float(run.get("reached_ms")) // 1
    except ValueError:
        return avg, None
    inside = [k for k, t in samples if lo <= round((t - samples[0][1]) * 1000) <= hi]
    return avg, round(sum(inside) / len(inside)) if inside else None


def once(program, args, env, workdir, limit, lock_fd):
    """One execution: (Run, exit status, time's figures). A failure is the Run's failure: a time limit (TERM, and KILL
    5 s later, to the program's group), a non-zero exit, a report without a figure."""
    out_f, err_f = os.path.join(workdir, "out"), os.path.join(workdir, "err")
    with open(out_f, "wb") as out, open(err_f, "wb") as err:
        p = subprocess.Popen(TIME + [program] + args, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             start_new_session=True, pass_fds=(lock_fd,) if lock_fd is not None else ())
    sampler, timed_out = Sampler(p.pid), None
    sampler.start()
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
    try:
        *times, figures = parse_time(err)
        r = Run(*times, summary=summary_of(read(out_f)))
    except BadReport as e:
        r, figures = Run(failure=f"failed: {e}"), {}
    if timed_out is not None:
        r = Run(failure=f"timed out after {limit} s" + (f" (last: {timed_out})" if timed_out else ""))
    elif status != 0:
        r = Run(failure=f"failed (exit {status})" + (f": {last_error(err)}" if last_error(err) else ""))
    r.avg_rss_kib, r.window_avg_kib = means(sampler.samples, r)
    return r, status, {k: as_json(v) for k, v in figures.items()}


def stop(p):
    """TERM to the program's group, KILL 5 s later; returns once all of it has ended (a leftover holds the lock)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        end = time.monotonic() + 5
        try:
            os.killpg(p.pid, sig)
            while time.monotonic() < end:
                p.poll()  # time reaped: a zombie leader would keep its group alive
                os.killpg(p.pid, 0)
                time.sleep(0.01)
        except OSError:  # no process of the group is left
            return


def check(run, scenario, n):
    """A summary line of another scenario, or one whose completed= is not N, is a failure too."""
    if run.failure:
        return
    if not run.summary:
        run.failure = "failed: no scenario= line on stdout"
    elif run.get("scenario") != scenario:
        run.failure = f"failed: it printed scenario={run.get('scenario')}"
    elif run.get("completed") not in ("-", str(n)):
        run.failure = f"failed: completed={run.get('completed')} of {n}"
