"""The results store: every execution run.sh makes is one record, a line of JSON in STORE.

run.sh appends a "run" record as each program ends (what ran, on which machine, its exit status,
every figure /usr/bin/time printed, the program's summary line as fields, run.sh's own RSS samples)
and a "section" record once the section those runs make is in RESULTS, naming its heading. This
module reads the store back: `./run.sh --export csv|json [SECTION]` calls `export` below.

    python3 harness/store.py export FORMAT [SECTION] --store PATH
"""

import csv
import io
import json
import sys


class StoreError(Exception):
    """What is wrong with the request (code 2) or with the store itself (code 1): one line."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


class NoStore(StoreError):
    """The store does not exist yet: no run has written a record to it."""


def load(path, keep_text=False):
    """The records of the store at path, in the order they were written. A last line without its
    newline is one a killed run.sh was writing: it is left out, and so is a blank line; any other
    line that is not a JSON object is an error naming its line. keep_text keeps each fraction as
    the text it was written as ("5.010"), for a table that prints it as run.sh always has."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        raise NoStore(f"no store at {path}: run.sh writes it with its first run")
    except OSError as e:
        raise StoreError(f"cannot read the store {path}: {e.strerror}", 1)
    lines = text.split("\n")
    lines.pop()  # after the last newline: empty, or a record cut short
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, parse_float=str, parse_int=str) if keep_text else json.loads(line)
        except json.JSONDecodeError as e:
            raise StoreError(f"{path}:{number}: not a JSON record ({e.msg})", 1)
        if not isinstance(record, dict) or not isinstance(record.get("record"), str) or not isinstance(record.get("run"), str):
            raise StoreError(f"{path}:{number}: not a record of run.sh's (no record kind and run id)", 1)
        records.append(record)
    return records


def sittings(section):
    """The run ids whose records a section's rows came from: its own, and those of the earlier
    sittings a resumed run took results from."""
    return section.get("runs") or [section["run"]]


def with_sections(records):
    """The run records, each with "section" after its run id: the heading of the first section
    whose rows came from its sitting ("" for a sitting no section used: a run that was stopped)."""
    heading = {}
    for r in records:
        if r["record"] == "section":
            for run in sittings(r):
                heading.setdefault(run, r.get("heading", ""))
    out = []
    for r in records:
        if r["record"] == "run":
            items = list(r.items())
            at = [k for k, _ in items].index("run") + 1
            out.append(dict(items[:at] + [("section", heading.get(r["run"], ""))] + items[at:]))
    return out


def find_section(records, section):
    """The section record named by SECTION: its run id, or its heading's time as RESULTS.md prints
    it ("2026-12-06 18:40", with or without " UTC")."""
    known = [r for r in records if r["record"] == "section"]
    wanted = section.strip()
    heading = wanted if wanted.endswith(" UTC") else wanted + " UTC"
    found = [s for s in known if s["run"] == wanted or s.get("heading") == heading]
    if not found:
        latest = ", ".join(s.get("heading", s["run"]) for s in known[-5:])
        raise StoreError(f"no section '{section}' in the store"
                         + (f" (its latest: {latest})" if latest else " (it holds no section yet)"))
    if len(found) > 1:
        raise StoreError(f"{len(found)} sections have the heading '{heading}': name one by the run id"
                         f" run.sh printed at its end ({', '.join(s['run'] for s in found)})")
    return found[0]


def runs_of(records, section=None):
    """The run records, all of them or those of one SECTION: its run id, or its heading's time as
    RESULTS.md prints it ("2026-12-06 18:40", with or without " UTC")."""
    runs = with_sections(records)
    if section is None:
        return runs
    ids = set(sittings(find_section(records, section)))
    return [r for r in runs if r["run"] in ids]


def flat(record, prefix=""):
    """A record as one level of columns: a nested object's members as "object.member"."""
    out = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def to_csv(runs):
    """The runs as CSV: a column per field that any of them has, in the order first seen."""
    rows = [flat(r) for r in runs]
    columns = list(dict.fromkeys(k for row in rows for k in row))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return text.getvalue()


def to_json(runs):
    """The runs as one JSON array, a record a line."""
    return "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in runs) + "\n]\n"


FORMATS = {"csv": to_csv, "json": to_json}


def export(fmt, section, store):
    if fmt not in FORMATS:
        raise StoreError(f"--export takes csv or json, got '{fmt}'")
    runs = runs_of(load(store), section)
    if not runs:
        if section is None:
            print(f"run.sh: {store} holds no run record yet", file=sys.stderr)
        else:  # its rows came from a cache whose sitting wrote to another store
            print(f"run.sh: {store} holds no run record of that section's sittings", file=sys.stderr)
        return "" if fmt == "csv" else "[]\n"
    return FORMATS[fmt](runs)


def main(argv):
    usage = "usage: ./run.sh --export csv|json [SECTION]"
    args = list(argv)
    store = None
    if "--store" in args:
        i = args.index("--store")
        store = args[i + 1] if i + 1 < len(args) else None
        del args[i:i + 2]
    if store is None or not args or args[0] != "export" or not 2 <= len(args) <= 3:
        print(f"run.sh: {usage}", file=sys.stderr)
        return 2
    try:
        text = export(args[1], args[2] if len(args) == 3 else None, store)
    except StoreError as e:
        print(f"run.sh: {e}", file=sys.stderr)
        return e.code
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
