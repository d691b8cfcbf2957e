"""The other runtimes of `./run.sh --peers`: their descriptors' tables, their settings, and the finding, installing
and building of their toolchains.

Each family of programs is a folder, peers/FAMILY, with its programs and its descriptor, runtimes.sh, which declares
its build groups and programs and defines how its toolchain is found and its programs built (peers/lib.sh says how).
This module reads the declarations once, through `bash peers/lib.sh tables`, and calls the descriptors' functions the
same way, a process per call, each with what it needs in its environment. Adding a runtime is adding a folder."""

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

from measure import Interrupted, stop

OURS = "c++20 (this repo)"
LONG_MS = 30000  # the sleep --peers gives coro_timer and coro_shared when SLEEP_MS is unset: longer
# than the slowest runtime here took to spawn 1M tasks (Python and Elixir: 15-24 s), so that every task is still
# waiting when spawning ends (each row says whether it was: the "all alive" column)
DEFAULT_JDKS = "/usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home"


class Bad(ValueError):
    """A setting that cannot be: one line, exit 2."""


def columns(line, width, what):
    f = [c.strip() for c in re.split(r" *[|] *", line.strip())]
    if len(f) != width:
        raise Bad(f"a {what} line has {len(f)} columns, not {width}: {line.strip()}")
    return f


@dataclass
class Tables:
    """The descriptors' declarations: the build groups, the programs (ours first, then each family's, grouped by
    scenario in the order each scenario first appears), the toolchains, the commands the environment may name, and the
    section's Threads lines."""
    families: list
    groups: dict
    catalogue: list
    toolchains: dict
    commands: list
    threads: str
    knobs: str
    sets: list = field(default_factory=list)

    @classmethod
    def load(cls, lib):
        p = subprocess.run(["bash", lib, "tables"], capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            raise Bad((p.stderr.strip().splitlines() or ["cannot read the descriptors"])[-1].removeprefix("run.sh: "))
        part, parts = None, {}
        for line in p.stdout.split("\n"):
            if line.startswith("@@ "):
                part = parts.setdefault(line[3:], [])
            elif line.strip() and part is not None:
                part.append(line)
        groups = {}
        for line in parts.get("groups", []):
            g, name, tool, runtime, knob, fixed = columns(line, 6, "family_runtime")
            groups[g] = {"name": name, "tool": tool, "runtime": runtime, "knob": knob, "fixed": fixed}
        rows = []
        for line in parts.get("programs", []):
            f = columns(line, 8, "family_programs")
            if f[2] != "ours" and f[2] not in groups:
                raise Bad(f"program {f[1]} names group {f[2]}, which no descriptor's family_runtime declares")
            rows.append(dict(zip(("scen", "prog", "group", "key", "opts", "suffix", "class", "variant"), f)))
        order = list(dict.fromkeys(r["scen"] for r in rows))
        catalogue = [r for s in order for r in rows if r["scen"] == s]
        tools = {w[0]: w[1:] for w in (line.split() for line in parts.get("toolchains", []))}
        return cls(" ".join(parts.get("families", [""])).split(), groups, catalogue, tools,
                   " ".join(parts.get("commands", [])).split(), " ".join(parts.get("threads", [])),
                   " ".join(parts.get("knobs", [])))

    @property
    def names(self):
        return list(dict.fromkeys(g["name"] for g in self.groups.values()))

    @property
    def scenarios(self):
        return list(dict.fromkeys(r["scen"] for r in self.catalogue))

    def with_sets(self, sets):
        """The tables with a copy of every Rust group and program for each set of PEERS_PATCH and of both C# groups'
        for each version of PEERS_DOTNET (group GROUP@K, program PROGRAM@K, K the set's number), each after its
        group's last line, so that a patched row sits beside the unpatched ones."""
        kind = {g: "rust" if d["tool"] == "rust" else "dotnet" if d["tool"] == "dotnet" else "" for g, d in self.groups.items()}
        numbered = [(k, "dotnet" if s.startswith("dotnet=") else "rust") for k, s in enumerate(sets, 1)]

        def copied(items, run_of, group_of, rename):
            out, pending = [], []
            for item in items + [None]:
                if pending and (item is None or run_of(item) != run_of(pending[0])):
                    out += [rename(p, k) for k, kd in numbered if kd == kind[group_of(pending[0])] for p in pending]
                    pending = []
                if item is not None:
                    out.append(item)
                    if kind.get(group_of(item)):
                        pending.append(item)
            return out

        groups = dict(copied(list(self.groups.items()), lambda i: i[0], lambda i: i[0], lambda i, k: (f"{i[0]}@{k}", i[1])))
        cat = copied(self.catalogue, lambda r: (r["scen"], r["group"]), lambda r: r["group"],
                     lambda r, k: dict(r, group=f"{r['group']}@{k}", prog=f"{r['prog']}@{k}"))
        return Tables(self.families, groups, cat, self.toolchains, self.commands, self.threads, self.knobs, sets)

    def row(self, prog, key):
        """PROGRAM's first catalogue line of variant key KEY ("-": any), None without one."""
        return next((r for r in self.catalogue if r["prog"] == prog and key in ("-", r["key"])), None)

    def chosen(self, group, peers):
        return group == "ours" or self.groups[group]["name"] in peers.split()

    def runtime_label(self, group, versions=None):
        """GROUP's runtime column, with the version detect or the build found (VERSIONS/GROUP.version; none before the
        peers are prepared, as under --plan)."""
        if group == "ours":
            return OURS
        v = first_line(os.path.join(versions, group + ".version")) if versions else ""
        r = self.groups[group]["runtime"]
        return r.replace(" @V@", "", 1).replace("@V@", "", 1) if v == "" else r.replace("@V@", v, 1)


def first_line(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.readline().strip(" \t\n")
    except OSError:
        return ""


def crate_field(toml, key):
    """KEY (name, version) of a Cargo.toml's [package]."""
    section = ""
    for line in open(toml, encoding="utf-8", errors="replace"):
        if line.startswith("["):
            section = line.strip()
        elif section == "[package]":
            m = re.match(rf'^{key}\s*=\s*"([^"]*)"', line)
            if m:
                return m.group(1)
    return ""


def settings(env, tables, here):
    """The peers' environment, checked (Bad: exit 2): PEERS, PEERS_CARGO, PEERS_INSTALL, the crate registry,
    PEER_TIMEOUT, the toolchain commands (their defaults where unset), and the sets of PEERS_PATCH (CRATE=DIRECTORY
    words, sets separated by ";", each directory the source of that crate, relative to HERE) and PEERS_DOTNET (.NET
    versions)."""
    s = {"PEERS_CARGO": env.get("PEERS_CARGO") or "auto", "PEERS_INSTALL": env.get("PEERS_INSTALL") or "auto",
         "PEERS_JDKS": env.get("PEERS_JDKS", DEFAULT_JDKS), "registry": env.get("PEERS_CARGO_REGISTRY") or "/usr/share/cargo/registry",
         "PEER_TIMEOUT": env.get("PEER_TIMEOUT", "")}
    if s["PEERS_INSTALL"] not in ("auto", "no"):
        raise Bad(f"PEERS_INSTALL must be auto or no, got '{s['PEERS_INSTALL']}'")
    if s["PEERS_CARGO"] not in ("auto", "crates-io", "debian"):
        raise Bad(f"PEERS_CARGO must be auto, crates-io or debian, got '{s['PEERS_CARGO']}'")
    for kv in tables.commands:
        k, _, default = kv.partition("=")
        s[k] = env.get(k) or default
    if s["PEER_TIMEOUT"] and not (s["PEER_TIMEOUT"].isdigit() and int(s["PEER_TIMEOUT"]) >= 1):
        raise Bad(f"PEER_TIMEOUT must be a whole number of seconds >= 1, got '{s['PEER_TIMEOUT']}'")
    s["PEERS"] = env.get("PEERS", " ".join(tables.names))
    for p in s["PEERS"].split():
        if p not in tables.names:
            raise Bad(f"PEERS: unknown runtime '{p}' (allowed: {' '.join(tables.names)})")
    sets = []
    for part in env.get("PEERS_PATCH", "").split(";"):
        words = []
        for word in part.split():
            name, eq, d = word.partition("=")
            if not eq or not d:
                raise Bad(f"PEERS_PATCH: '{word}' is not CRATE=DIRECTORY (sets are separated by ';')")
            if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
                raise Bad(f"PEERS_PATCH: '{name}' is not a crate's name")
            if any(w.startswith(name + "=") for w in words):
                raise Bad(f"PEERS_PATCH: a set names {name} twice: {part.strip()}")
            full = os.path.realpath(os.path.join(here, d))
            if not os.path.isdir(full):
                raise Bad(f"PEERS_PATCH: no directory {d} for {name}")
            toml = os.path.join(full, "Cargo.toml")
            if not os.path.isfile(toml):
                raise Bad(f"PEERS_PATCH: {d} holds no crate {name} (no Cargo.toml there)")
            pkg = crate_field(toml, "name")
            if pkg != name:
                raise Bad(f"PEERS_PATCH: {d} holds no crate {name} (its Cargo.toml's package is {pkg or 'none'})")
            if not crate_field(toml, "version"):
                raise Bad(f"PEERS_PATCH: {d}/Cargo.toml gives {name} no version")
            words.append(f"{name}={full}")
        if words:
            sets.append(" ".join(words))
    for v in env.get("PEERS_DOTNET", "").split():
        if v == "10.0":
            raise Bad("PEERS_DOTNET: 10.0 is the C# peers' own .NET; name another (9.0, 8.0)")
        if not re.fullmatch(r"([5-9]|[1-9][0-9])[.]0", v):
            raise Bad(f"PEERS_DOTNET: '{v}' is not a .NET of 5.0 or newer, such as 9.0 or 8.0")
        if f"dotnet={v}" in sets:
            raise Bad(f"PEERS_DOTNET names {v} twice")
        sets.append(f"dotnet={v}")
    s["sets"] = sets
    return s


def build_dir(env, here, src):
    """PEERS_BUILD as an absolute path, outside this tree."""
    home = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "/tmp", ".cache")
    pb = os.path.join(here, env.get("PEERS_BUILD") or os.path.join(home, "bench-peers"))
    if (pb + "/").startswith(src.rstrip("/") + "/"):
        raise Bad(f"PEERS_BUILD must be outside this tree (got {pb}): the peers are built elsewhere")
    return pb


class Builder:
    """Finds, installs and builds the toolchains the run's scenarios need, a group at a time, into PB (PEERS_BUILD)
    with this run's notes in PW; each group's state: ok, missing, skip, unchosen or "build failed: ...". The
    descriptors' functions run through `bash peers/lib.sh`."""

    def __init__(self, lib, tables, s, pb, pw, scenarios, run_env):
        self.lib, self.t, self.s, self.pb, self.pw = lib, tables, s, pb, pw
        self.scenarios, self.state, self.tool = scenarios, {}, {}
        self.env = dict(os.environ, pb=pb, pw=pw, registry=s["registry"], PEERS_CARGO=s["PEERS_CARGO"],
                        PEERS_INSTALL=s["PEERS_INSTALL"], PEERS_JDKS=s["PEERS_JDKS"], **run_env,
                        patch_sets="\n".join(tables.sets),
                        peer_runtimes="\n".join(f"{g} {d['runtime']}" for g, d in tables.groups.items()),
                        peer_programs="\n".join(f"{r['group']} {r['prog']} {r['class']}" for r in self.needed()))
        self.env.update({k.partition("=")[0]: s[k.partition("=")[0]] for k in tables.commands})

    def needed(self):
        seen, out = set(), []
        for r in self.t.catalogue:
            if r["group"] != "ours" and r["scen"] in self.scenarios and (r["group"], r["prog"]) not in seen:
                seen.add((r["group"], r["prog"]))
                out.append(r)
        return out

    def call(self, *args, log=None, quiet=False):
        """A descriptor's function; its output into LOG, or stdout returned. An interrupt stops it."""
        env = dict(self.env, probing="yes" if quiet else "")
        out = open(log, "ab") if log else subprocess.PIPE
        try:
            p = subprocess.Popen(["bash", self.lib, *args], env=env, stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=out if log else None, start_new_session=True)
            try:
                stdout, _ = p.communicate()
            except (Interrupted, KeyboardInterrupt):
                stop(p)
                raise
        finally:
            if log:
                out.close()
        return p.returncode, (stdout or b"").decode("utf-8", errors="replace")

    def prepare(self):
        for name in ("tools", "tools.last", "missing", "notes", "limits"):
            open(os.path.join(self.pw, name), "w").close()
        for d in ("bin", "logs"):
            os.makedirs(os.path.join(self.pb, d), exist_ok=True)
        for g in dict.fromkeys(r["group"] for r in self.needed()):
            self.state[g] = self.prepare_group(g)
        with open(os.path.join(self.pw, "tools"), "a") as f:
            f.write(read(os.path.join(self.pw, "tools.last")))

    def prepare_group(self, g):
        if self.t.groups[g]["name"] not in self.s["PEERS"].split():
            return "unchosen"
        tc = self.t.groups[g]["tool"]
        if tc not in self.tool:  # quietly first; a missing toolchain is installed where run.sh can
            self.tool[tc] = (self.call("detect", tc, quiet=True)[0] == 0 or
                             (self.call("install_toolchain", tc)[0] >= 0 and self.call("detect", tc)[0] == 0))
        if not self.tool[tc]:
            return "missing"
        if not (self.patch_ready(g) if "@" in g else self.call("ready", g)[0] == 0):
            return "skip"
        log = os.path.join(self.pb, "logs", g + ".log")
        open(log, "w").close()
        print(f"run.sh: --peers: building {g} (log: {log})", file=sys.stderr)
        began = time.monotonic()
        if self.call("build", g, log=log)[0] == 0:
            with open(os.path.join(self.pb, g + ".build_s"), "w") as f:  # for the next estimate
                f.write(f"{round(time.monotonic() - began)}\n")
            return "ok"
        state = f"build failed: {self.reason(log)} (log: PEERS_BUILD/logs/{g}.log)"
        print(f"run.sh: --peers: {g}: {state}", file=sys.stderr)
        return state

    def patch_ready(self, g_set):
        """A set applies to a Rust group whose own build resolved every crate of the set (tokio to the tokio peers,
        not to rayon's, which uses none of it); a .NET version to both C# groups, where their toolchain is here and
        they are chosen."""
        g, _, k = g_set.rpartition("@")
        state, words = self.state.get(g, ""), self.t.sets[int(k) - 1]
        if not (state == "ok" or state.startswith("build failed")):
            return False
        if words.startswith("dotnet="):
            return True
        name = re.sub(r" [0-9][0-9.]*", "", self.t.runtime_label(g, self.pw), count=1)
        line = None
        if state.startswith("build failed"):
            line = f"PEERS_PATCH set {k}: the {name} peers were not built against it, since their own build failed"
        else:
            lock = read(os.path.join(first_line(os.path.join(self.pw, g + ".crate")), "Cargo.lock"))
            for w in words.split():
                crate = w.partition("=")[0]
                if f'name = "{crate}"' not in lock.split("\n"):
                    line = f"PEERS_PATCH set {k}: the {name} peers use no {crate}, so they are not built against it"
                    break
        if line:
            note(self.pw, line)
        return line is None

    def reason(self, log):
        """Why a build failed: its first line that says error (not a warning that mentions one), else its last line;
        on one line of at most 160 characters, without this machine's paths."""
        lines = read(log).split("\n")
        errs = [l for l in lines if re.search("error", l, re.I) and not re.match(r"^\s*warning", l, re.I)
                and not re.search(r": warning [a-z]*[0-9]*:", l, re.I)]
        text = errs[0] if errs else next((l for l in reversed(lines) if l.strip()), "")
        for k, words in enumerate(self.t.sets, 1):
            if not words.startswith("dotnet="):
                for w in words.split():
                    text = text.replace(w.partition("=")[2], f"PEERS_PATCH set {k}'s {w.partition('=')[0]}")
        text = text.replace(self.pb, "PEERS_BUILD")
        home = os.environ.get("HOME", "")
        if home not in ("", "/"):
            text = text.replace(home, "~")
        # MSBuild prefixes FILE(LINE,COL): and appends [PROJECT]; the message is what says why.
        text = re.sub(r" \[[^] ]*\]$", "", re.sub(r"^[^ ]*\([0-9]+,[0-9]+\): ", "", text.strip(" \t"))) or "no output"
        return text if len(text) <= 160 else text[:157] + "..."

    def facts(self, label, run):
        """What the kept run's summary says of its runtime beyond the table (the C# programs' gc= and dotnet=), once
        per runtime, among the notes."""
        if run.get("gc") != "-":
            note(self.pw, f"{label}: the {run.get('gc')} GC ran, runtime {run.get('dotnet')} (the program's own report)")


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def note(pw, line, name="notes"):
    """A line of the section's notes (or limits), once."""
    path = os.path.join(pw, name)
    if line not in read(path).split("\n"):
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def usage(tables):
    """The --help lines of the peers' environment."""
    return f"""  PEERS="{' '.join(tables.names)}"
                      the runtimes --peers compares with ours
  PEERS_BUILD=${{XDG_CACHE_HOME:-$HOME/.cache}}/bench-peers
                      where the peers are copied, built and kept (never inside this tree)
  PEERS_INSTALL=auto  a missing toolchain installed (apt-get as root; npm into PEERS_BUILD); no: never
  PEERS_CARGO=auto    the crates: auto, crates-io or debian (PEERS_CARGO_REGISTRY's sources, offline)
  PEERS_JDKS="{DEFAULT_JDKS}"
                      where a JDK >= 21 is looked for (virtual threads), after JAVA_HOME
  PEERS_PATCH="tokio=DIR [CRATE=DIR ...][; tokio=DIR2 ...]"
                      the Rust peers again, a copy per set, built against these crates' sources
  PEERS_DOTNET="9.0 [8.0 ...]"
                      the C# peers again for each of these .NETs
  PEER_TIMEOUT=S      a peer's run is stopped after S seconds (default: 10 x what it needs, >= 60)
  {' '.join(kv.partition('=')[0] for kv in tables.commands)}
                      the toolchains' commands (default: {' '.join(kv.partition('=')[2] for kv in tables.commands)})
"""
