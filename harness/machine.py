"""The machine a section ran on, as its heading says it, and the memory it can give a run now."""

import os
import platform
import re
import subprocess


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def run(*cmd):
    """A command's stdout, "" when it cannot be run or fails."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def cgroup_dirs(controller):
    """This process's cgroup directories that hold CONTROLLER's files, its own first, then each ancestor (a parent's
    limit applies too), as common.hpp's cgroup_dirs finds them."""
    dirs = []
    for line in read("/proc/self/cgroup").splitlines():
        ident, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        if ident == "0" and names == "":
            roots = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
        elif controller in names.split(","):
            roots = [f"/sys/fs/cgroup/{controller}"]
        else:
            continue
        names = [n for n in path.split("/") if n]
        for root in roots:
            dirs += [d for d in ("/".join([root] + names[:i]) for i in range(len(names), -1, -1)) if os.path.isdir(d)]
    return dirs


def whole(text):
    """A whole number that is all of TEXT but its newline, or None ("max", garbage, nothing)."""
    t = text.strip("\n")
    return int(t) if re.fullmatch(r"[0-9]{1,19}", t) else None


def cgroup_memory():
    """(room KiB, limit KiB, file) of the memory limit that leaves the least room, its limit less what the cgroup uses
    (page cache it can drop not counted), or None without one."""
    found = []
    for d in cgroup_dirs("memory"):
        stat = read(f"{d}/memory.stat")
        for limit_f, usage_f, inactive in (("memory.max", "memory.current", "inactive_file"),
                                           ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")):
            limit, use = whole(read(f"{d}/{limit_f}")), whole(read(f"{d}/{usage_f}"))
            if limit is None or limit >= 2 ** 60 or use is None:  # v1 writes no limit as about 2^63
                continue
            m = re.search(rf"^{inactive} ([0-9]+)$", stat, re.M)
            room = max(0, limit - max(0, use - (int(m.group(1)) if m else 0)))
            found.append((room / 1024, limit / 1024, f"{d}/{limit_f}"))
    return min(found, key=lambda f: f[0], default=None)


def cgroup_cpus():
    """The smallest CPU quota over this process's cgroups, in CPUs, or None."""
    pairs = [(whole(q), whole(p)) for d in cgroup_dirs("cpu")
             for q, p in ((read(f"{d}/cpu.max").split() + ["", ""])[:2],
                          (read(f"{d}/cpu.cfs_quota_us"), read(f"{d}/cpu.cfs_period_us")))]
    return min((q / p for q, p in pairs if q is not None and p), default=None)


def available():
    """(KiB, what bounds it) that can be made resident now, as the binaries' refusal says it: MemAvailable, or less
    where a cgroup's limit leaves less; free plus inactive pages on macOS. None when it cannot be told."""
    m = re.search(r"^MemAvailable:\s+([0-9]+)", read("/proc/meminfo"), re.M)
    if m:
        cg = cgroup_memory()
        if cg and cg[0] < int(m.group(1)):
            return int(cg[0]), f"left under the cgroup's {os.path.basename(cg[2])} ({cg[1] / 1048576:.1f} GiB, {cg[2]})"
        return int(m.group(1)), "available now (MemAvailable)"
    out = run("vm_stat")
    page = re.search(r"page size of ([0-9]+)", out)
    pages = sum(int(n) for n in re.findall(r"^Pages (?:free|inactive):\s+([0-9]+)", out, re.M))
    return (pages * int(page.group(1)) // 1024, "available now (free + inactive pages)") if page and pages else None


def cpus(text):
    """How many CPUs a list such as "0-3,8,10-11" names."""
    spans = (part.partition("-") for part in text.split(","))
    return sum(int(b) - int(a) + 1 if b else 1 for a, _, b in spans if a.strip())


def describe(src, rate=True):
    """The heading's lines of the machine: OS, kernel, CPU, cores (the CPUs this process may run on, and any affinity
    or cgroup quota), memory (and any cgroup limit), fresh memory (not with RATE false: it takes 256 MiB and seconds,
    for a figure only a measured run needs), compiler, flags."""
    if platform.system() == "Darwin":
        os_name = f"{run('sw_vers', '-productName').strip()} {run('sw_vers', '-productVersion').strip()}"
        cpu = run("sysctl", "-n", "machdep.cpu.brand_string").strip()
        mem = f"{int(run('sysctl', '-n', 'hw.memsize') or 0) / 2 ** 30:.1f}"
    else:
        field = lambda path, pattern: (re.findall(pattern, read(path), re.M) or [""])[0]  # noqa: E731
        os_name = field("/etc/os-release", r"^PRETTY_NAME=(.*)$").replace('"', "")
        cpu = field("/proc/cpuinfo", r"^model name\s*: (.*)$")
        mem = field("/proc/meminfo", r"^MemTotal:\s+([0-9]+)")
        mem = f"{int(mem) / 2 ** 20:.1f}" if mem else ""
    cpu = os.environ.get("BENCH_TEST_CPU", cpu) or platform.machine()  # only the tests set it
    online, m = os.cpu_count(), re.search(r"^Cpus_allowed_list:\s*(\S+)", read("/proc/self/status"), re.M)
    allowed, quota, cg = cpus(m.group(1)) if m else None, cgroup_cpus(), cgroup_memory()
    extra = ([f"affinity {allowed} of {online} online"] if allowed and online and allowed < online else []) + \
        ([f"cgroup CPU quota {quota:.1f}"] if quota is not None else [])
    build = dict(re.findall(r"^(compiler|flags)=(.*)$", run("make", "-s", "-C", src, "print-build"), re.M))
    return {"os": os_name or "unknown", "kernel": f"{platform.system()} {platform.release()}", "cpu": cpu,
            "cores": f"{allowed or online}" + (f" ({'; '.join(extra)})" if extra else ""),
            "memory": f"{mem or 'unknown'} GiB" + (f" (cgroup limit {cg[1] / 2 ** 20:.1f} GiB)" if cg else ""),
            "fresh_memory": fresh(src) if rate else "", "compiler": build.get("compiler") or "unknown",
            "flags": build.get("flags") or "unknown"}


def fresh(src):
    """How fast this machine hands out fresh memory (tools/fault_rate): it sets every runtime's spawn time and much of
    its sys time."""
    prog = os.path.join(src, "tools", "fault_rate")
    if not os.access(prog, os.X_OK):
        return "not measured: tools/fault_rate was not built"
    try:
        p = subprocess.run([prog], capture_output=True, text=True, errors="replace", timeout=600)
    except (OSError, subprocess.SubprocessError) as e:
        return f"not measured: {e}"
    out = (p.stdout + p.stderr).strip()
    v = dict(w.split("=", 1) for w in out.split() if "=" in w)
    if p.returncode == 0 and all(re.fullmatch(r"[0-9.]+", v.get(k, "")) and float(v[k]) > 0
                                 for k in ("first_mbps", "second_mbps", "mib")):
        return f"first touch {v['first_mbps']} MB/s, again {v['second_mbps']} MB/s ({v['mib']} MiB, a write a page)"
    return f"not measured: {(out.splitlines() or [''])[0]}"


def commit(src):
    """The tree's commit, "-dirty" when its code differs from it (RESULTS.md and the store change with every run, and
    do not count), "unknown" outside git."""
    c = run("git", "-C", src, "rev-parse", "--short", "HEAD").strip() or "unknown"
    if c != "unknown" and run("git", "-C", src, "status", "--porcelain", "--untracked-files=no", "--", ".",
                              ":(exclude)RESULTS.md", ":(exclude)results.jsonl").strip():
        c += "-dirty"
    return c


LINES = (("commit", "commit"), ("OS", "os"), ("kernel", "kernel"), ("CPU", "cpu"), ("cores", "cores"),
         ("memory", "memory"), ("fresh memory", "fresh_memory"), ("compiler", "compiler"), ("flags", "flags"))


def lines(m, commit_):
    """The heading's machine lines."""
    return [f"- {label}: {commit_ if key == 'commit' else m[key]}" for label, key in LINES]
