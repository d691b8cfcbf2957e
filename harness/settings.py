"""The environment run.sh reads, each variable checked once: a bad value is one line and exit 2."""

import re

MAX_COUNT = 999999999999999999  # what the programs and the store take as a count
DEFAULT_SWEEP = "1 10000 100000 1000000"
# The runtime column of this repo's own programs, in --peers' tables and a replication's rows.
OURS = "c++20 (this repo)"


class Bad(ValueError):
    """A setting that cannot be: one line, exit 2."""


def need(ok, message):
    """Bad(MESSAGE) unless OK."""
    if not ok:
        raise Bad(message)


def whole(v):
    """V's value if it is ASCII digits ("²" is one to str.isdigit), at most 18 without leading zeros; else None."""
    v = (v.lstrip("0") or "0") if re.fullmatch(r"[0-9]+", v) else ""
    return int(v) if v and len(v) <= 18 else None


def count(name, v):
    """V as a whole number >= 1 (digits only; leading zeros allowed)."""
    need(re.fullmatch(r"[0-9]+", v), f"{name} must be a whole number >= 1 (digits only), got '{v}'")
    n = whole(v)
    shown = v if len(v) <= 30 else v[:27] + "..."
    need(n is not None and n <= MAX_COUNT, f"{name} is too large: {shown} (run.sh takes at most {MAX_COUNT})")
    need(n >= 1, f"{name} must be >= 1, got '{v}'")
    return n


def ranged(name, v, lo, hi):
    need(whole(v) is not None and lo <= whole(v) <= hi, f"{name} must be a whole number from {lo} to {hi}, got '{v}'")
    return str(whole(v))


# The write-ups' variants, passed to ours and to every peer that has them: each one's check, and what a write-up's
# data file may set (replicate.py), SLEEP_MS among them.
VARIANTS = {
    "SLEEP_MS": lambda v: str(count("SLEEP_MS", v)),
    "HITS": lambda v: ranged("HITS", v, 1, 9007199254740991),  # Node counts hits in a double's 53 bits
    "MODE": lambda v: v if v in ("loop", "once") else bad(f"MODE must be loop or once, got '{v}'"),
    "SPAWN_FROM": lambda v: v if v in ("main", "task") else bad(f"SPAWN_FROM must be main or task, got '{v}'"),
    "POLL_MS": lambda v: ranged("POLL_MS", v, 1, 86400000),
    "BURST": lambda v: ranged("BURST", v, 1, 2147483647),  # C# counts bursts in an int
    "BURST_PAUSE_MS": lambda v: ranged("BURST_PAUSE_MS", v, 0, 86400000),
    "BURST_PAUSE": lambda v: v if v == "sleep1" else bad(f"BURST_PAUSE must be sleep1 (each runtime's sleep(1) in its"
                                                         f" own unit), got '{v}'"),
    "START": lambda v: " ".join(dict.fromkeys(start(w, v) for w in v.split())),
}
SETTABLE = tuple(VARIANTS)
COUNTER = ("HITS", "MODE", "SPAWN_FROM", "POLL_MS", "BURST", "BURST_PAUSE_MS", "BURST_PAUSE")
# BURST_PAUSE=sleep1: the pause a program's sleep(1) gives, in the unit its runtime's sleep counts: Go's time.Sleep
# takes a Duration, so 1 is a nanosecond; C#'s Task.Delay and Node's setTimeout count milliseconds; ours and tokio take
# a unit, whose shortest wait on their millisecond timers is 1 ms. Each runtime's option and its words, by its
# toolchain ("ours" for ours).
SLEEP1 = {"go": ("--burst-pause-ns 1", "1 ns")}
SLEEP1_ELSE = ("--burst-pause-ms 1", "1 ms")


def value(s, name):
    """Setting NAME of S as the programs take it: its value, else their own default (for the estimate and notes)."""
    return int(s.get(name) or {"POLL_MS": 100, "BURST_PAUSE_MS": 1000}[name])


def pause_ms(s):
    """The pause after each burst in ms, as asked: BURST_PAUSE=sleep1 asks 1 ms of every runtime but Go (1 ns), and a
    timer adds its tick to what is asked (for the estimate and the readings of a write-up's pause)."""
    return 1 if s.get("BURST_PAUSE") == "sleep1" else value(s, "BURST_PAUSE_MS")


def sleep1(tool):
    """(option, words) of BURST_PAUSE=sleep1 for the runtime of toolchain TOOL ("ours" for ours)."""
    return SLEEP1.get(tool, SLEEP1_ELSE)


def bad(message):
    raise Bad(message)


def start(w, v):
    return w if w in ("gated", "eager") else bad(f"START must be gated, eager or both (\"gated eager\"), got '{v}'")


def variants(env):
    """The variants set in ENV, checked, START without repeats and numbers without leading zeros; the others ""."""
    out = {k: check(env[k]) if env.get(k) else "" for k, check in VARIANTS.items()}
    need(not out["BURST"] or out["SPAWN_FROM"] == "task",
         "BURST needs SPAWN_FROM=task: the bursts are a spawning task's")
    need(not out["BURST_PAUSE_MS"] or out["BURST"], "BURST_PAUSE_MS needs BURST")
    need(not out["BURST_PAUSE"] or out["BURST"], "BURST_PAUSE needs BURST")
    need(not (out["BURST_PAUSE"] and out["BURST_PAUSE_MS"]),
         "BURST_PAUSE and BURST_PAUSE_MS set the same pause: set one")
    return out


def threads(v):
    need(all(whole(t) is not None and 1 <= whole(t) <= 1024 for t in v.split()),
         f"THREADS must be whole numbers from 1 to 1024, got '{v}'")
    return " ".join(str(whole(t)) for t in v.split())


def sweep(v, stderr):
    """SWEEP's N, with 1 (the baseline bytes/task subtracts), in increasing order without repeats."""
    ns = [count("SWEEP's N", n) for n in v.split()]
    need(ns, f'SWEEP is empty (default: "{DEFAULT_SWEEP}")')
    if 1 not in ns:
        print("run.sh: SWEEP has no 1; running N=1 too, the baseline bytes/task subtracts", file=stderr)
    return " ".join(str(n) for n in sorted(set(ns) | {1}))


def mode_settings(s, scenarios):
    """The variants that are set and apply to the chosen scenarios, as ", VAR=value" each."""
    out = ""
    if "atomic_counter" in scenarios:
        out += "".join(f", {k}={s[k]}" for k in COUNTER if s[k])
    if s["START"] and ({"running_avg", "hash_collect"} & set(scenarios)):
        out += f", START={s['START']}"
    return out


# A runtime's own switches, which the runtime reads from the environment and run.sh passes on untouched: the JVM's
# options, Go's GC, V8's and the BEAM's flags, glibc's malloc, .NET's GC and thread pool. Each changes what that
# runtime's rows measure, so a section names every one that is set, and a run resumes only under the same.
RUNTIME_ENV = re.compile(r"JDK_JAVA_OPTIONS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|GOGC|GODEBUG|GOMEMLIMIT|NODE_OPTIONS"
                         r"|DENO_V8_FLAGS|ERL_AFLAGS|ERL_FLAGS|ERL_ZFLAGS|GLIBC_TUNABLES|MALLOC_ARENA_MAX|LD_PRELOAD"
                         r"|RUST_MIN_STACK"
                         r"|(DOTNET|COMPlus)_(GC|gc|Thread|TieredCompilation|TieredPGO|TC_|ReadyToRun)\w*")


def runtime_env(env):
    """The runtimes' switches set in ENV, as ", VAR=value" each (quoted where the value has a blank), in name order."""
    return "".join(f", {k}=" + (f'"{v}"' if re.search(r"\s", v) else v)
                   for k, v in sorted(env.items()) if v and RUNTIME_ENV.fullmatch(k))


def problem(words):
    """The first problem of a write-up's settings (VAR=VALUE words, a later one overriding an earlier), its other
    variables unset, by run.sh's rules and a data file's own (a number as the text prints it, without a leading zero);
    None without one."""
    env = {}
    for kv in words:
        k, _, v = kv.partition("=")
        if k in VARIANTS:
            if re.fullmatch(r"0[0-9]+", v):
                return f"{kv} has a leading zero"
            env[k] = v
    try:
        variants(env)
    except Bad as e:
        return str(e)
    return None
