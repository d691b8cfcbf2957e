"""The store: every execution run.sh makes is one record, a line of JSON in STORE (results.jsonl).

A "run" record is appended as each program ends (what ran, on which machine, its exit status, result.Run's fields),
and a "section" record once its section is written, just before RESULTS.md takes it. The store is only ever appended
to, a whole line at a time, and read a line at a time: a bad line (a merge marker, a record cut short, a number too
large to be one) is named and passed over; `./run.sh --check-store` lists such lines and `--repair` moves them aside."""

import json
import math
import os
import sys
import time

# The version of the records run.sh writes now, each record's "schema" (after "record"); results.schema.json
# describes every field of every version. A record without the field is version 1, written before the field existed:
# it reads as a version-2 record does, for version 2 added only the field. Version 3 changed no field: a replication's
# section of version 3 on judges its claims by the verdict rule (replicate.Judge), one before it as it was written.
SCHEMA = 3


class StoreError(Exception):
    """What is wrong with the request (code 2) or with the store itself (code 1): one line."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


class BadRecord(ValueError):
    pass


def _number(text, kind=float):
    """A JSON number (NaN and Infinity come here too) as a figure: at most 30 digits before its point, and finite."""
    if len(text.lstrip("-").split(".")[0].split("e")[0].split("E")[0]) > 30:
        raise BadRecord(f"a number of {len(text)} characters")
    v = kind(text)
    if not math.isfinite(v):
        raise BadRecord(f"a number that is not finite ({text[:20]})")
    return v


# A line's digits as 9s, its exponents' "E" as "e": a number too long, or an exponent of three digits, shows at once.
SCREEN = bytes.maketrans(b"0123456789E", b"9999999999e")


def parse(raw):
    """The record on one line of the store (bytes; one that is not UTF-8 becomes U+FFFD), or BadRecord saying why it
    is none. A line whose numbers are all short and finite is parsed by json alone, twice as fast; another, a number
    at a time, by _number."""
    t = raw.translate(SCREEN)
    slow = b"9" * 31 in t or b"e999" in t or b"e+999" in t
    hooks = {"parse_float": _number, "parse_int": lambda text: _number(text, int)} if slow else {}
    try:
        r = json.loads(raw.decode("utf-8", errors="replace"), parse_constant=_number, **hooks)
    except json.JSONDecodeError as e:
        raise BadRecord(f"not a JSON record ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise BadRecord("nested too deep to be a record") from None
    if not isinstance(r, dict) or not isinstance(r.get("record"), str) or not isinstance(r.get("run"), str):
        raise BadRecord("not a record of run.sh's (no record kind and run id)")
    return r


def regular(path, what="the store"):
    """PATH is a regular file that can be read: anything else (a device, a pipe) is refused."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise StoreError(f"no store at {path}: run.sh writes it with its first run") from None
    except OSError as e:
        raise StoreError(f"cannot read {what} {path}: {e.strerror}", 1) from None
    if not os.path.isfile(path):
        raise StoreError(f"{what} {path} is not a regular file")
    return st


def lines(path, want=None):
    """(number, bytes) of each line of the store that is not blank, streamed; WANT(bytes) picks lines."""
    with open(path, "rb", buffering=1 << 20) as f:  # a large buffer reads the lines of a large store 7 times faster
        for number, raw in enumerate(f, 1):
            if not raw.isspace() and (not want or want(raw)):
                yield number, raw


def records(path, want=None, warn=True):
    """The good records of the store (each with the line it is on), a bad line named on stderr."""
    for number, raw in lines(path, want):
        try:
            yield number, parse(raw)
        except BadRecord as e:
            if warn:
                print(f"run.sh: {path}:{number}: passed over: {e}", file=sys.stderr)


def problems(path, quick=False):
    """Every bad line: (number, why); a whole last record that lacks only its newline is good (append gives it one).
    QUICK (before a run) parses only a line that does not look whole (a merge marker, a record cut short or glued to
    the next), so that a large store costs a run little; reading the store, and --check-store, parse every line."""
    out = []
    for number, raw in lines(path):
        if quick and raw.startswith(b'{"record":"') and raw.rstrip().endswith(b"}") and b'}{"' not in raw:
            continue
        try:
            raw.decode("utf-8", errors="strict")
            parse(raw)
        except UnicodeDecodeError:
            out.append((number, "not UTF-8 text"))
        except BadRecord as e:
            out.append((number, str(e)))
    return out


def append(path, recs):
    """Appends each record as one line, with one write each; a write that fails or falls short is cut back, so the
    store holds whole records only. A store that does not end a line (a writer stopped mid-line, a record whose newline
    was lost) gets its newline first: a record starts a line of its own. OSError when the store cannot take them."""
    data = [(json.dumps(r, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n").encode() for r in recs]
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        end = os.fstat(fd).st_size
        if data and end and os.pread(fd, 1, end - 1) != b"\n":
            data[0] = b"\n" + data[0]
        for line in data:
            size = os.fstat(fd).st_size
            try:
                n = os.write(fd, line)
                if n != len(line):
                    raise OSError(28, f"only {n} of {len(line)} bytes could be written")
            except OSError:
                os.ftruncate(fd, size)
                raise
    finally:
        os.close(fd)


def repair(path):
    """Moves the bad lines into a file beside the store (PATH.bad-DATE) and leaves the rest in the store: a new copy
    written beside the file the store is (a link stays a link) and renamed over it. Returns (that file, the number of
    lines moved)."""
    bad = dict(problems(path))
    if not bad:
        return None, 0
    target = os.path.realpath(path)
    aside = f"{target}.bad-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}"
    tmp = f"{target}.repair-{os.getpid()}"
    try:
        with open(path, "rb") as f, open(aside, "xb") as out_bad, open(tmp, "wb") as out_good:
            for number, raw in enumerate(f, 1):
                if number in bad:
                    out_bad.write(raw if raw.endswith(b"\n") else raw + b"\n")
                elif raw.strip():
                    out_good.write(raw if raw.endswith(b"\n") else raw + b"\n")
        os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        os.replace(tmp, target)
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return aside, len(bad)


def version(record):
    """The schema version RECORD was written in."""
    return record.get("schema", 1)


def sittings(section):
    """The run ids a section's rows came from: its own, and those of the earlier sittings a resumed run took."""
    return section.get("runs") or [section["run"]]


def find_section(path, key):
    """The section record named by KEY: its run id, or its heading's time as RESULTS.md prints it ("2026-12-06 18:40",
    with or without " UTC"). Streams the store, reading section lines only."""
    want = key.strip()
    heading = want if want.endswith(" UTC") else want + " UTC"
    sections = [r for _, r in records(path, lambda raw: b'"record":"section"' in raw[:40], warn=False)
                if r["record"] == "section"]
    latest = [r.get("heading", r["run"]) for r in sections[-5:]]
    found = [r for r in sections if r["run"] == want or r.get("heading") == heading]
    if not found:
        raise StoreError(f"no section '{key}' in the store"
                         + (f" (its latest: {', '.join(latest)})" if latest else " (it holds no section yet)"))
    if len(found) > 1:
        raise StoreError(f"{len(found)} sections have the heading '{heading}': name one by the run id"
                         f" run.sh printed at its end ({', '.join(s['run'] for s in found)})")
    return found[0]


def runs_of(path, ids):
    """The run records of the sittings IDS, in the order they were written."""
    keys = [f'"run":"{i}"'.encode() for i in ids]
    return [r for _, r in records(path, lambda raw: any(k in raw[:80] for k in keys))
            if r["record"] == "run" and r["run"] in ids]
