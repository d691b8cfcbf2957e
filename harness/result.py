"""One execution's result, the one type every table, chart, export and replication reads: made once, as the program
ends, from /usr/bin/time's report (GNU `time -v`, macOS's `time -l`), run.sh's own resident-set samples and the
program's summary line, and kept in the store as a record."""

import math
import re
from dataclasses import dataclass, field
from typing import Optional


class BadReport(ValueError):
    """A time report that lacks a figure: a wrong number must never look like a result."""


GNU = {"Elapsed (wall clock) time (h:mm:ss or m:ss)": "wall", "User time (seconds)": "user",
       "System time (seconds)": "sys", "Maximum resident set size (kbytes)": "rss"}
BSD = {"real user sys": "wall", "maximum resident set size": "rss"}  # one line gives wall, user and sys


def parse_time(text):
    """(wall_s, user_s, sys_s, max_rss_kib, every figure) from the time report at the end of TEXT (time's stderr)."""
    figures, got, on = {}, {}, ""
    for line in text.split("\n"):
        m = re.match(r"^\s*([0-9.]+) real\s+([0-9.]+) user\s+([0-9.]+) sys", line)
        if "Command being timed: " in line or m:
            on = "gnu" if not m else "bsd"
            got = dict(zip(("wall", "user", "sys"), m.groups())) if m else {}
        elif on == "gnu" and ": " in line:
            key, _, value = line.strip(" \t").rpartition(": ")
            figures[key] = value
            got.update({GNU[key]: value} if key in GNU else {})
        elif on == "bsd" and re.match(r"^\s*[0-9]+\s+\S", line):
            value, key = line.split(None, 1)
            figures[key.strip()] = value
            got.update({"rss": str(int(value) // 1024)} if key.strip() == "maximum resident set size" else {})  # bytes
    lacks = [label for label, k in (BSD if on == "bsd" else GNU).items() if k not in got]
    if lacks:
        raise BadReport(f"time -{'l' if on == 'bsd' else 'v'} output lacks \"{lacks[0]}\"")
    return clock_s(got["wall"]), number(got["user"]), number(got["sys"]), int(number(got["rss"])), figures


def clock_s(text):
    """h:mm:ss, m:ss.ss or seconds, in seconds."""
    if not re.fullmatch(r"[0-9]+(:[0-9]+){0,2}([.][0-9]+)?", text):
        raise BadReport(f"time -v output has an unreadable wall time: {text}")
    s = 0.0
    for part in text.split(":"):
        s = s * 60 + float(part)
    return round(s, 3)


def number(text):
    v = num(text)
    if v is None:
        raise BadReport(f"time printed '{text}' where a number belongs")
    return v


def num(value):
    """A printed value as a number, or None where it is none ("-", text, nothing)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def summary_of(text):
    """The key=value words of a program's one summary line (its last scenario= line), as printed."""
    line = ([ln for ln in text.split("\n") if ln.startswith("scenario=")] or [""])[-1]
    return {k: v for k, eq, v in (w.partition("=") for w in line.replace("\t", " ").split(" ")) if eq and k}


def as_json(text):
    """A printed value as JSON keeps it exactly: a whole number, or a decimal that Python's float prints back as the
    same text, as a number; anything else ("1.20", "-", words) as text."""
    if re.fullmatch(r"-?(0|[1-9][0-9]{0,17})", text):
        return int(text)
    if re.fullmatch(r"-?(0|[1-9][0-9]*)[.][0-9]+", text) and repr(float(text)) == text:
        return float(text)
    return text


@dataclass
class Run:
    """One execution: its time figures (seconds, KiB), the means of run.sh's 100 ms samples of its resident set (KiB;
    None without one), its summary as printed, and, for one that failed, why."""
    wall_s: float = 0.0
    user_s: float = 0.0
    sys_s: float = 0.0
    max_rss_kib: int = 0
    avg_rss_kib: Optional[float] = None
    window_avg_kib: Optional[float] = None
    summary: dict = field(default_factory=dict)
    failure: Optional[str] = None

    @property
    def cpu_s(self):
        return self.user_s + self.sys_s

    def get(self, key):
        """A summary value as printed, "-" when absent."""
        return str(self.summary.get(key, "-"))

    @classmethod
    def of(cls, record):
        """The Run a store record holds (the records of every version of run.sh read alike)."""
        t, s = record.get("time") or {}, record.get("samples") or {}
        summary = {k: "-" if v is None else str(v) for k, v in (record.get("summary") or {}).items()}
        return cls(float(t.get("wall_s", 0)), float(t.get("user_s", 0)), float(t.get("sys_s", 0)),
                   int(t.get("max_rss_kib", 0)), s.get("avg_rss_kib"), s.get("window_avg_kib"), summary,
                   record.get("failure"))

    def fields(self):
        """Its figures as a record's members."""
        time = {} if self.failure and not self.max_rss_kib else {
            "wall_s": self.wall_s, "user_s": self.user_s, "sys_s": self.sys_s, "max_rss_kib": self.max_rss_kib}
        return {"failure": self.failure, "time": time, "summary": {k: as_json(v) for k, v in self.summary.items()},
                "samples": {"avg_rss_kib": self.avg_rss_kib, "window_avg_kib": self.window_avg_kib}}
