"""The scenarios as harness/scenarios.txt describes them, each in one place: its sleep, the sleep
--peers gives it, its variants, whether each task is a thread, the options run.sh passes it, what its
peers take first, and the keys of its summary line. harness/plan.py plans from it; run.sh reads the
same file for its list of scenarios."""

import os

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios.txt")


def load(path=FILE):
    """The table as a dict, scenario -> its description, in the table's order. A line that is not
    eight columns, or a value a column cannot hold, is refused naming its line."""
    common, out = [], {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = [c.strip() for c in line.split(" | ")]
            if len(cols) != 8:
                raise ValueError(f"{path}:{number}: {len(cols)} columns, not 8")
            name, sleep, peers_sleep, keys, thread_each, options, peer_args, summary = cols
            if name == "*":
                common = summary.split()
                continue
            if not (sleep == "-" or sleep.isdigit()) or not (peers_sleep in ("-", "long") or peers_sleep.isdigit()) \
                    or thread_each not in ("yes", "no") or peer_args not in ("N MS", "N KEY"):
                raise ValueError(f"{path}:{number}: {name}: a sleep, peers sleep, thread each or peer arguments"
                                 " column holds what it cannot")
            out[name] = {"sleep": None if sleep == "-" else int(sleep),
                         "peers_sleep": None if peers_sleep == "-" else peers_sleep,
                         "keys": keys.split(), "threads": thread_each == "yes", "options": options.split(),
                         "start": "--start" in options.split(), "counter": "--hits" in options.split(),
                         "peer_args": peer_args, "summary": summary.split()}
    for d in out.values():
        d["summary"] = common + d["summary"]
    return out


SCENARIOS = load()
