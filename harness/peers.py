"""The other runtimes of `./run.sh --peers`: their descriptors' tables, their settings, and the finding, installing
and building of their toolchains. Each family is a folder, peers/FAMILY, with its programs and its descriptor,
runtimes.sh (peers/lib.sh says what it declares and defines); this module reads the declarations and calls the
descriptors' functions through `bash peers/lib.sh`, a process per call. Adding a runtime is adding a folder."""

import itertools
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

from machine import read
from measure import Interrupted, stop
from settings import OURS, Bad, need, whole

LONG_MS = 30000  # the sleep --peers gives coro_timer and coro_shared when SLEEP_MS is unset: longer
# than the slowest runtime here took to spawn 1M tasks (Python and Elixir: 15-24 s), so that every task is still
# waiting when spawning ends (each row says whether it was: the "all alive" column)
DEFAULT_JDKS = "/usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home"
LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "peers", "lib.sh")


def columns(line, width, what):
    f = [c.strip() for c in re.split(r" *[|] *", line.strip())]
    need(len(f) == width, f"a {what} line has {len(f)} columns, not {width}: {line.strip()}")
    return f


@dataclass
class Tables:
    """The descriptors' declarations: build groups, programs (ours first, then each family's, grouped by scenario in
    the order of first appearance), toolchains, the commands the environment may name, the section's Threads lines,
    and the environment --profile sets for a group whose runtime compiles as it runs (PROFILE: group, VAR=VALUE)."""
    families: list
    groups: dict
    catalogue: list
    toolchains: dict
    commands: list
    threads: str
    knobs: str
    sets: list = field(default_factory=list)
    profile: dict = field(default_factory=dict)

    @classmethod
    def load(cls, lib):
        p = subprocess.run(["bash", lib, "tables"], capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            raise Bad((p.stderr.strip().splitlines() or ["cannot read the descriptors"])[-1].removeprefix("run.sh: "))
        chunks = re.split(r"^@@ (\w+)$", p.stdout, flags=re.M)[1:]
        parts = {kind: [line for line in text.split("\n") if line.strip()]
                 for kind, text in zip(chunks[::2], chunks[1::2])}
        groups = {f[0]: dict(zip(("name", "tool", "runtime", "knob", "fixed"), f[1:]))
                  for f in (columns(line, 6, "family_runtime") for line in parts["groups"])}
        rows = []
        for line in parts["programs"]:
            f = columns(line, 8, "family_programs")
            need(f[2] in groups or f[2] == "ours",
                 f"program {f[1]} names group {f[2]}, which no descriptor's family_runtime declares")
            rows.append(dict(zip(("scen", "prog", "group", "key", "opts", "suffix", "class", "variant"), f)))
        catalogue = [r for s in dict.fromkeys(r["scen"] for r in rows) for r in rows if r["scen"] == s]
        tools = {w[0]: w[1:] for w in (line.split() for line in parts["toolchains"])}
        profile = {g: kv for g, _, kv in (line.partition(" ") for line in parts.get("profile", []))}
        return cls(" ".join(parts["families"]).split(), groups, catalogue, tools, " ".join(parts["commands"]).split(),
                   " ".join(parts["threads"]), " ".join(parts["knobs"]), profile=profile)

    @property
    def names(self):
        return list(dict.fromkeys(g["name"] for g in self.groups.values()))

    @property
    def scenarios(self):
        return list(dict.fromkeys(r["scen"] for r in self.catalogue))

    def with_sets(self, sets):
        """The tables with a copy of every Rust group and program for each set of PEERS_PATCH, of both C# groups'
        for each version of PEERS_DOTNET and of Go's for each of PEERS_GO (group GROUP@K, program PROGRAM@K, K the
        set's number), each after its group's last line, so that a patched row sits beside the unpatched ones."""
        numbered = [(k, set_tool(s)) for k, s in enumerate(sets, 1)]
        groups, cat = {}, []
        for g, d in self.groups.items():
            groups[g] = d
            groups.update((f"{g}@{k}", d) for k, tool in numbered if tool == d["tool"])
        for (_, g), run in itertools.groupby(self.catalogue, lambda r: (r["scen"], r["group"])):
            run = list(run)
            cat += run + [dict(r, group=f"{g}@{k}", prog=f"{r['prog']}@{k}")
                          for k, tool in numbered if tool == self.groups.get(g, {}).get("tool") for r in run]
        return Tables(self.families, groups, cat, self.toolchains, self.commands, self.threads, self.knobs, sets,
                      self.profile)

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


def set_tool(words):
    """The toolchain whose groups a set copies: dotnet (a set of PEERS_DOTNET, dotnet=9.0) or go (of PEERS_GO,
    go=1.23), which name a version; else rust (a set of PEERS_PATCH: CRATE=DIRECTORY words, never a number)."""
    m = re.fullmatch(r"(dotnet|go)=[0-9.]+", words)
    return m.group(1) if m else "rust"


def first_line(path):
    return read(path).partition("\n")[0].strip(" \t")


def crate_field(toml, key):
    """KEY (name, version) of a Cargo.toml's [package], as the Rust builds read it (peers/lib.sh's crate_field)."""
    return subprocess.run(["bash", LIB, "crate_field", toml, key], capture_output=True, text=True).stdout.strip()


def settings(env, tables, here):
    """The peers' environment, checked (Bad: exit 2), the toolchain commands defaulted, and its "sets": PEERS_PATCH's
    (CRATE=DIRECTORY words, sets separated by ";", each directory a crate's source, relative to HERE), then
    PEERS_DOTNET's .NET versions, then PEERS_GO's Go versions."""
    s = {"PEERS_CARGO": env.get("PEERS_CARGO") or "auto", "PEERS_INSTALL": env.get("PEERS_INSTALL") or "auto",
         "PEERS_JDKS": env.get("PEERS_JDKS", DEFAULT_JDKS), "PEER_TIMEOUT": env.get("PEER_TIMEOUT", ""),
         "registry": env.get("PEERS_CARGO_REGISTRY") or "/usr/share/cargo/registry",
         **{k: env.get(k) or default for k, _, default in (kv.partition("=") for kv in tables.commands)}}
    need(s["PEERS_INSTALL"] in ("auto", "no"), f"PEERS_INSTALL must be auto or no, got '{s['PEERS_INSTALL']}'")
    need(s["PEERS_CARGO"] in ("auto", "crates-io", "debian"),
         f"PEERS_CARGO must be auto, crates-io or debian, got '{s['PEERS_CARGO']}'")
    t = s["PEER_TIMEOUT"]
    need(not t or (whole(t) or 0) >= 1, f"PEER_TIMEOUT must be a whole number of seconds >= 1, got '{t}'")
    s["PEERS"] = env.get("PEERS", " ".join(tables.names))
    for p in s["PEERS"].split():
        need(p in tables.names, f"PEERS: unknown runtime '{p}' (allowed: {' '.join(tables.names)})")
    s["sets"] = sets = []
    for part in env.get("PEERS_PATCH", "").split(";"):
        words = {}
        for word in part.split():
            name, _, d = word.partition("=")
            need(d, f"PEERS_PATCH: '{word}' is not CRATE=DIRECTORY (sets are separated by ';')")
            need(re.fullmatch(r"[A-Za-z0-9_-]+", name), f"PEERS_PATCH: '{name}' is not a crate's name")
            need(name not in words, f"PEERS_PATCH: a set names {name} twice: {part.strip()}")
            full = os.path.realpath(os.path.join(here, d))
            toml = os.path.join(full, "Cargo.toml")
            need(os.path.isdir(full), f"PEERS_PATCH: no directory {d} for {name}")
            need(os.path.isfile(toml), f"PEERS_PATCH: {d} holds no crate {name} (no Cargo.toml there)")
            pkg = crate_field(toml, "name")
            need(pkg == name, f"PEERS_PATCH: {d} holds no crate {name} (its Cargo.toml's package is {pkg or 'none'})")
            need(crate_field(toml, "version"), f"PEERS_PATCH: {d}/Cargo.toml gives {name} no version")
            words[name] = full
        if words:
            sets.append(" ".join(f"{name}={full}" for name, full in words.items()))
    for v in env.get("PEERS_DOTNET", "").split():
        need(v != "10.0", "PEERS_DOTNET: 10.0 is the C# peers' own .NET; name another (9.0, 8.0)")
        need(re.fullmatch(r"([5-9]|[1-9][0-9])[.]0", v),
             f"PEERS_DOTNET: '{v}' is not a .NET of 5.0 or newer, such as 9.0 or 8.0")
        need(f"dotnet={v}" not in sets, f"PEERS_DOTNET names {v} twice")
        sets.append(f"dotnet={v}")
    own = None
    for v in env.get("PEERS_GO", "").split():
        need(re.fullmatch(r"[1-9][0-9]*[.](0|[1-9][0-9]*)", v),
             f"PEERS_GO: '{v}' is not a Go release as MAJOR.MINOR, such as 1.23 (Debian's golang-1.23)")
        own = go_release(s["GO"]) if own is None else own
        need(not (own + ".").startswith(v + "."),
             f"PEERS_GO: {v} is the default Go's own (GO={s['GO']} is Go {own}); name another, such as 1.23")
        need(f"go={v}" not in sets, f"PEERS_GO names {v} twice")
        sets.append(f"go={v}")
    root = env.get("PEERS_GOROOT", "")  # relative, it would name another place once a build has changed directory
    need(not root or root.startswith("/"), f"PEERS_GOROOT must be an absolute path, got '{root}'")
    need(len(env.get("PEERS_GO", "").split()) < 2 or not root or "@V@" in root,
         f"PEERS_GOROOT names one Go for every version of PEERS_GO: put @V@ where the version goes, got '{root}'")
    return s


def go_release(go):
    """The version of the Go that the command GO is ("go version go1.19.8 linux/amd64": 1.19.8), "" for none."""
    try:
        out = subprocess.run([go, "version"], capture_output=True, text=True, errors="replace", timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    m = re.search(r"\bgo([0-9]+[.][0-9.]*[0-9])", out)
    return m.group(1) if m else ""


def build_dir(env, here, src):
    """PEERS_BUILD as an absolute path, outside this tree."""
    home = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "/tmp", ".cache")
    pb = os.path.join(here, env.get("PEERS_BUILD") or os.path.join(home, "bench-peers"))
    need(not (pb + "/").startswith(src.rstrip("/") + "/"),
         f"PEERS_BUILD must be outside this tree (got {pb}): the peers are built elsewhere")
    return pb


class Builder:
    """Finds, installs and builds the toolchains the run's scenarios need, a group at a time, into PB (PEERS_BUILD)
    with this run's notes in PW; each group's state: ok, missing, skip, unchosen or "build failed: ..."."""

    def __init__(self, lib, tables, s, pb, pw, scenarios, run_env):
        self.lib, self.t, self.s, self.pb, self.pw = lib, tables, s, pb, pw
        self.scenarios, self.state, self.tool = scenarios, {}, {}
        self.env = dict(os.environ, pb=pb, pw=pw, registry=s["registry"], PEERS_CARGO=s["PEERS_CARGO"],
                        PEERS_INSTALL=s["PEERS_INSTALL"], PEERS_JDKS=s["PEERS_JDKS"], **run_env,
                        patch_sets="\n".join(tables.sets),
                        peer_programs="\n".join(f"{r['group']} {r['prog']} {r['class']}" for r in self.needed()))
        self.env.update({k: s[k] for k in (kv.partition("=")[0] for kv in tables.commands)})

    def needed(self):
        out = {}
        for r in self.t.catalogue:
            if r["group"] != "ours" and r["scen"] in self.scenarios:
                out.setdefault((r["group"], r["prog"]), r)
        return list(out.values())

    def call(self, *args, log=None, quiet=False):
        """A descriptor's function, run: its exit status. Its output goes to LOG, else stdout is dropped."""
        with open(log or os.devnull, "wb") as out:
            p = subprocess.Popen(["bash", self.lib, *args], env=dict(self.env, probing="yes" if quiet else ""),
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=out if log else None,
                                 start_new_session=True)
            try:
                return p.wait()
            except (Interrupted, KeyboardInterrupt):
                stop(p)
                raise

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
        if tc not in self.tool:  # quietly first; a missing toolchain is installed where run.sh can (>= 0: it ran)
            self.tool[tc] = (self.call("detect", tc, quiet=True) == 0 or
                             (self.call("install_toolchain", tc) >= 0 and self.call("detect", tc) == 0))
        if not self.tool[tc]:
            return "missing"
        if not (self.patch_ready(g) if "@" in g else self.call("ready", g) == 0):
            return "skip"
        log = os.path.join(self.pb, "logs", g + ".log")
        print(f"run.sh: --peers: building {g} (log: {log})", file=sys.stderr)
        began = time.monotonic()
        if self.call("build", g, log=log) == 0:
            with open(os.path.join(self.pb, g + ".build_s"), "w") as f:  # for the next estimate
                f.write(f"{round(time.monotonic() - began)}\n")
            return "ok"
        state = f"build failed: {self.reason(log)} (log: PEERS_BUILD/logs/{g}.log)"
        print(f"run.sh: --peers: {g}: {state}", file=sys.stderr)
        return state

    def patch_ready(self, g_set):
        """A set applies to a Rust group whose own build resolved every crate of the set (tokio to the tokio peers,
        not to rayon's, which uses none of it); a .NET or Go version to its groups, chosen and with their toolchain,
        once the copy's ready_ function has run (ready_go installs that Go where run.sh can)."""
        g, _, k = g_set.rpartition("@")
        state, words = self.state.get(g, ""), self.t.sets[int(k) - 1]
        failed = state.startswith("build failed")
        if state != "ok" and not failed:
            return False
        if set_tool(words) != "rust":
            return self.call("ready", g_set) == 0
        crate_dir = first_line(os.path.join(self.pw, g + ".crate"))
        lock = [] if failed else read(os.path.join(crate_dir, "Cargo.lock")).split("\n")
        unused = next((c for c in (w.partition("=")[0] for w in words.split()) if f'name = "{c}"' not in lock), None)
        why = ("were not built against it, since their own build failed" if failed
               else unused and f"use no {unused}, so they are not built against it")
        if why:
            name = re.sub(r" [0-9][0-9.]*", "", self.t.runtime_label(g, self.pw), count=1)
            note(self.pw, f"PEERS_PATCH set {k}: the {name} peers {why}")
        return not why

    def reason(self, log):
        """Why a build failed: its first line that says error (not a warning that mentions one), else its last line;
        on one line of at most 160 characters, without this machine's paths."""
        lines = read(log).split("\n")
        errs = [l for l in lines if re.search("error", l, re.I) and not re.match(r"^\s*warning", l, re.I)
                and not re.search(r": warning [a-z]*[0-9]*:", l, re.I)]
        text = errs[0] if errs else next((l for l in reversed(lines) if l.strip()), "")
        for k, words in enumerate(self.t.sets, 1):
            for crate, _, d in (w.partition("=") for w in words.split() if set_tool(words) == "rust"):
                text = text.replace(d, f"PEERS_PATCH set {k}'s {crate}")
        text = text.replace(self.pb, "PEERS_BUILD")
        home = os.environ.get("HOME", "")
        if home not in ("", "/"):
            text = text.replace(home, "~")
        # MSBuild prefixes FILE(LINE,COL): and appends [PROJECT], NuGet's restore prefixes PROJECT : (a missing
        # package); the message is what says why.
        text = re.sub(r"^[^ ]*\([0-9]+,[0-9]+\): |^[^ ]+[.]csproj : (?=error)", "", text.strip(" \t"))
        text = re.sub(r" \[[^] ]*\]$", "", text) or "no output"
        return text if len(text) <= 160 else text[:157] + "..."

    def facts(self, label, run):
        """The notes' line, once per runtime, of what the C# programs' summary says beyond the table (gc=, dotnet=)."""
        if run.get("gc") != "-":
            note(self.pw, f"{label}: the {run.get('gc')} GC ran, runtime {run.get('dotnet')}"
                          " (the program's own report)")


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
  PEERS_GO="1.23 [1.22 ...]"
                      the Go peers again with each of these Gos: Debian's golang-1.23 (as root run.sh
                      installs it, adding the backports suite where apt's sources lack it)
  PEERS_GOROOT=/usr/lib/go-@V@
                      where PEERS_GO's Go of version @V@ is (its bin/go); only Debian's is installed
  PEER_TIMEOUT=S      a peer's run is stopped after S seconds (default: 10 x its sleeping and its
                      spawning at its runtime's rate, >= 2 s a million tasks; at least 60)
  {' '.join(kv.partition('=')[0] for kv in tables.commands)}
                      the toolchains' commands (default: {' '.join(kv.partition('=')[2] for kv in tables.commands)})
"""
