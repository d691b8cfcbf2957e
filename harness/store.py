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


def load(path):
    """The records of the store at path, in the order they were written. A last line without its
    newline is one a killed run.sh was writing: it is left out, and so is a blank line; any other
    line that is not a JSON object is an error naming its line."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        raise StoreError(f"no store at {path}: run.sh writes it with its first run")
    except OSError as e:
        raise StoreError(f"cannot read the store {path}: {e.strerror}", 1)
    lines = text.split("\n")
    lines.pop()  # after the last newline: empty, or a record cut short
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise StoreError(f"{path}:{number}: not a JSON record ({e.msg})", 1)
        if not isinstance(record, dict) or "record" not in record:
            raise StoreError(f"{path}:{number}: not a record of run.sh's", 1)
        records.append(record)
    return records


def sections(records):
    """Each section's record, by its run id, in the order they were written."""
    return {r["run"]: r for r in records if r["record"] == "section"}


def runs_of(records, section=None):
    """The run records, all of them or those of one SECTION: its run id, or its heading's time as
    RESULTS.md prints it ("2026-12-06 18:40", with or without " UTC")."""
    runs = [r for r in records if r["record"] == "run"]
    if section is None:
        return runs
    known = sections(records)
    wanted = section.strip()
    if not wanted.endswith(" UTC"):
        wanted_heading = wanted + " UTC"
    else:
        wanted_heading = wanted
    ids = [i for i, s in known.items() if i == wanted or s.get("heading") == wanted_heading]
    if not ids:
        latest = ", ".join(s.get("heading", i) for i, s in list(known.items())[-5:])
        raise StoreError(f"no section '{section}' in the store"
                         + (f" (its latest: {latest})" if latest else " (it holds no section yet)"))
    if len(ids) > 1:
        raise StoreError(f"two sections have the heading '{wanted_heading}': name one by its run id ({', '.join(ids)})")
    return [r for r in runs if r["run"] == ids[0]]


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
