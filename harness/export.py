"""The exporters, behind one interface: EXPORTERS[FORMAT](STORE, SECTION, OUT) writes what the store holds of SECTION
(as store.find_section finds it), or of every run where SECTION is None, to OUT: "md", the section itself, its tables
computed from its runs as when it was written (`./run.sh --render SECTION`); "csv" and "json", the run records, each
with its schema version and the heading of its section, streamed from the store (`./run.sh --export`)."""

import csv
import json

import render
import replicate
import store


def text(context, recs):
    """A section's text from its record and its runs' records."""
    if context.get("kind") == "replicate" and "points" in context:
        return replicate.section(context, recs)
    if "rows" not in context or context.get("kind") == "replicate":
        raise store.StoreError(f"section {context.get('heading', context['run'])} was written before run.sh kept its"
                               " tables in the store")
    return render.section(context, recs)


def markdown(path, section, out):
    if section is None:
        raise store.StoreError("usage: ./run.sh --render SECTION (its heading's time, as RESULTS prints it, or its run"
                               " id)")
    context = store.find_section(path, section)
    out.write(text(context, store.runs_of(path, set(store.sittings(context)))))


def headings(path):
    out = {}
    for _, r in store.records(path, lambda raw: b'"record":"section"' in raw[:40], warn=False):
        for run in store.sittings(r):
            out.setdefault(run, r.get("heading", ""))
    return out


def exported(path, section=None, warn=True):
    """The run records to export, streamed, each with its schema version after its kind (1 where the record has none,
    from before the field: a reader tells the versions apart on every row) and its section's heading after its run."""
    ids = set(store.sittings(store.find_section(path, section))) if section else None
    heads = headings(path)
    want = (lambda raw: any(f'"run":"{i}"'.encode() in raw[:80] for i in ids)) if ids else None
    for _, r in store.records(path, want, warn):
        if r["record"] == "run" and (ids is None or r["run"] in ids):
            out = {}
            for k, v in r.items():
                if k != "schema":
                    out[k] = v
                if k == "record":
                    out["schema"] = store.version(r)
                elif k == "run":
                    out["section"] = heads.get(r["run"], "")
            yield out


def flat(record, prefix=""):
    """A record as one level of columns: a nested object's members as "object.member"."""
    out = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def to_csv(path, section, out):
    """A column per field that any record has, in the order first seen; a record a row."""
    columns = {}
    for r in exported(path, section):
        columns.update(dict.fromkeys(flat(r)))
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for r in exported(path, section, warn=False):
        writer.writerow({k: "" if v is None else v for k, v in flat(r).items()})


def to_json(path, section, out):
    """One JSON array, a record a line."""
    sep = "[\n"
    for r in exported(path, section):
        out.write(sep + json.dumps(r, ensure_ascii=False))
        sep = ",\n"
    out.write("[]\n" if sep == "[\n" else "\n]\n")


EXPORTERS = {"md": markdown, "csv": to_csv, "json": to_json}
