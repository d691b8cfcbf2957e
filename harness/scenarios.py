"""The scenarios as harness/scenarios.txt describes them, each in one place: its sleep, the sleep --peers gives it, its
variants, whether each task is a thread, the options run.sh passes it, what its peers take first, and the keys of its
summary line. harness/plan.py plans from it; run.sh reads the same file for its list of scenarios."""

import os
import sys

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios.txt")


def load(path=FILE):
    """The table as a dict, scenario -> its description, in the table's order. A line that is not eight columns, a
    value a column cannot hold, or columns that disagree (a sleep and no --sleep-ms, a thread per task and --threads,
    variants and no --sync or not "N KEY") are refused naming the line."""
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
            opts, has_keys = options.split(), keys != "-"
            if ((sleep != "-") != ("--sleep-ms" in opts) or (thread_each == "no") != ("--threads" in opts)
                    or has_keys != ("--sync" in opts) or has_keys != (peer_args == "N KEY")):
                raise ValueError(f"{path}:{number}: {name}: its options disagree with its sleep, thread each,"
                                 " variants or peer arguments")
            out[name] = {"sleep": None if sleep == "-" else int(sleep),
                         "peers_sleep": None if peers_sleep == "-" else peers_sleep, "keys": keys.split(),
                         "threads": thread_each == "yes", "options": opts, "start": "--start" in opts,
                         "counter": "--hits" in opts, "peer_args": peer_args, "summary": summary.split()}
    for d in out.values():
        d["summary"] = common + d["summary"]
    return out


try:
    SCENARIOS = load()
except (OSError, ValueError) as e:  # one line, not a traceback, from whichever part imports it
    sys.exit(f"run.sh: harness/scenarios.txt: {e}")
