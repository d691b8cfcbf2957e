#!/usr/bin/env bash
# tests/container_test.sh: honest inside a container. In private mount namespaces (unshare -m, as
# root), /sys/fs/cgroup is a tmpfs holding a fake cgroup tree and the process under test reads a fake
# /proc/self/cgroup (a bind mount over its own /proc/PID/cgroup, which it then execs into): the
# machine's own cgroups are never created, changed or joined. The real binaries refuse an N the
# cgroup cannot hold, run.sh's heading and memory guard state the limits; then a read-only place and
# a disk that fills. Where unshare is refused, every check says "skip" with the reason.
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

probe=$(unshare -m bash -c 'mount -t tmpfs bench-probe /sys/fs/cgroup && mount --bind /dev/null "/proc/$$/cgroup"' 2>&1)
if [ $? -ne 0 ]; then
  echo "skip - every check here: unshare -m with mounts is refused (${probe:-not root?})"
  finish
  exit
fi
[ -x "$bin/coro_timer" ] || make coro_timer >/dev/null || exit 1

# in_cgroup TABLE SETUP COMMAND...: run_cmd of COMMAND in a private mount namespace where
# /sys/fs/cgroup is a fresh tmpfs that SETUP (shell commands, run in it) fills, and where COMMAND's
# /proc/self/cgroup reads TABLE.
in_cgroup() {
  local table=$1 setup=$2
  shift 2
  printf '%s\n' "$table" >"$tmp/cgroup.table"
  run_cmd unshare -m bash -c '
    mount -t tmpfs bench-test /sys/fs/cgroup && cd /sys/fs/cgroup && eval "$1" &&
      mount --bind "$2" "/proc/$$/cgroup" && cd "$3" || exit 97
    shift 3
    exec "$@"' - "$setup" "$tmp/cgroup.table" "$PWD" "$@"
}
# v2 DIR LIMIT CURRENT [INACTIVE]: cgroup v2 memory files in DIR; v1 likewise.
v2() { printf 'mkdir -p %s && echo %s >%s/memory.max && echo %s >%s/memory.current && echo "anon 1\ninactive_file %s" >%s/memory.stat\n' "$1" "$2" "$1" "$3" "$1" "${4:-0}" "$1"; }
v1() { printf 'mkdir -p %s && echo %s >%s/memory.limit_in_bytes && echo %s >%s/memory.usage_in_bytes && echo "cache 1\ntotal_inactive_file %s" >%s/memory.stat\n' "$1" "$2" "$1" "$3" "$1" "${4:-0}" "$1"; }
mib=1048576
# 4M tasks need about 153 MiB of frames with g++ (40 bytes), 92 with clang (24): more than 64 MiB.
big=4000000
timer() { in_cgroup "$1" "$2" "$bin/coro_timer" "$big" --sleep-ms 1; }

# 1. The binaries' refusal: the smaller of MemAvailable and the cgroup's room, named.
timer "4:memory:/bench/child
1:cpu,cpuacct:/" "$(v1 memory/bench/child $((64 * mib)) $mib)"
check "cgroup v1 only: an N over memory.limit_in_bytes is refused, exit 2" \
  exited 2 "^coro_timer: N=$big needs about 0\.[0-9]+ GiB resident with all N alive at once \([0-9]+ bytes a task, 0[.]21 % more for page tables and the owner table, and [0-9.]+ MiB besides\), more than the 0\.[0-9]+ GiB left under the cgroup's memory\.limit_in_bytes \(0\.1 GiB, "
check "and the message names the file" has_text "$err" "(0.1 GiB, /sys/fs/cgroup/memory/bench/child/memory.limit_in_bytes)"
timer "0::/" "$(v2 . $((64 * mib)) $mib)"
check "cgroup v2 at /sys/fs/cgroup itself (a container's own namespace): refused at memory.max" \
  eval 'exited 2 "more than the 0\.[0-9]+ GiB left under the cgroup.s memory\.max" && has_text "$err" "(0.1 GiB, /sys/fs/cgroup/memory.max)"'
timer "4:memory:/
0::/bench" "$(v2 unified/bench $((64 * mib)) $mib)"
check "a hybrid host: v2's memory.max under /sys/fs/cgroup/unified" \
  eval 'exited 2 "left under the cgroup.s memory\.max" && has_text "$err" "/sys/fs/cgroup/unified/bench/memory.max)"'
timer "0::/bench/child" "$(v2 bench $((64 * mib)) $mib; v2 bench/child $((8192 * mib)) $mib)"
check "a parent's smaller limit applies to its child" \
  eval 'exited 2 "left under the cgroup.s memory\.max \(0\.1 GiB, " && has_text "$err" "/sys/fs/cgroup/bench/memory.max)"'
timer "0::/bench" "$(v2 bench max $mib)"
check "memory.max 'max' is no limit: the run goes ahead" eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = "$big" ]'
timer "0::/bench" "$(v2 bench $((256 * mib)) $((250 * mib)) $((200 * mib)))"
check "page cache the kernel can drop (inactive_file) is room: the run goes ahead" \
  eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = "$big" ]'
timer "0::/bench" "$(v2 bench $((256 * mib)) $((250 * mib)))"
check "the same cgroup without that cache has 6 MiB left: refused" exited 2 "left under the cgroup.s memory\.max"
timer "4:memory:/bench" "$(v1 memory/bench 9223372036854771712 $mib)"
check "v1's 9223372036854771712 is no limit" [ "$rc" -eq 0 ]
timer "0::/bench" 'mkdir -p bench && echo banana >bench/memory.max && echo 1 >bench/memory.current'
check "garbage in memory.max is ignored" [ "$rc" -eq 0 ]
timer "0::/bench" 'mkdir -p bench && echo 1048576 >bench/memory.max && echo "12 kB" >bench/memory.current'
check "garbage in memory.current is ignored too" [ "$rc" -eq 0 ]
timer "0::/bench" ''
check "no cgroup files at all: no limit" [ "$rc" -eq 0 ]
in_cgroup "0::/bench" "$(v2 bench $((64 * mib)) $mib)" "$bin/coro_timer" 1000 --sleep-ms 1
check "an N that fits under the limit runs" eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = 1000 ]'
if [ -x "$bin/threads" ] || make threads >/dev/null; then
  in_cgroup "0::/bench" "$(v2 bench $((64 * mib)) $mib)" "$bin/threads" 100000 --sleep-ms 1
  check "threads' estimate (about 10 KiB a thread) is held against the cgroup too" exited 2 "left under the cgroup.s memory\.max"
fi

# 1b. The edge, exactly. With MemAvailable faked (a file bound over /proc/meminfo, in the private
# namespace) or a cgroup's memory.max, the largest N that a refusal names runs, and one more is
# refused before any task is spawned: one line with the need, every task reckoned alive at once, the
# limit and that largest N.
sed "s/^MemAvailable:.*/MemAvailable:      65536 kB/" /proc/meminfo >"$tmp/meminfo"
edge() {  # edge WHAT TABLE SETUP: the checks on both sides of the edge that SETUP makes
  local what=$1 table=$2 setup=$3 most
  in_cgroup "$table" "$setup" "$bin/coro_timer" 100000000 --sleep-ms 1
  most=$(printf '%s
' "$err" | sed -n 's/.*: at most \([0-9]*\) fit (see --help)$/\1/p')
  check "$what: an N that does not fit is refused, exit 2, naming the largest that does" \
    eval '[ -n "$most" ] && [ "$most" -gt 1000000 ] && exited 2 "N=100000000 needs about [0-9.]+ GiB resident with all N alive at once \([0-9]+ bytes a task, 0[.]21 % more for page tables and the owner table, and [0-9.]+ MiB besides\), more than"'
  in_cgroup "$table" "$setup" "$bin/coro_timer" "$most" --sleep-ms 1
  # Neither fake limits anything: the run's own peak says whether the need reckoned was honest (not under a
  # sanitizer, whose shadow memory the guard does not reckon).
  if [ -z "${SANITIZER:-}" ]; then
    check "$what: that largest N runs, every task completed, its peak within the 64 MiB" \
      eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = "$most" ] && [ "$(field rss_peak_kib)" -le 65536 ]'
  else
    check "$what: that largest N runs, every task completed (its peak not checked under $SANITIZER)" \
      eval '[ "$rc" -eq 0 ] && [ "$(field completed)" = "$most" ]'
  fi
  in_cgroup "$table" "$setup" "$bin/coro_timer" $((most + 1)) --sleep-ms 1
  check "$what: one more is refused, before any task is spawned" \
    eval 'exited 2 "^coro_timer: N=$((most + 1)) needs about .*: at most $most fit \(see --help\)$" && [ -z "$out" ] &&
      ! has_text "$err" "spawning"'
}
edge "MemAvailable faked at 64 MiB" "0::/" "mount --bind $tmp/meminfo /proc/meminfo"
check "and the limit it names is MemAvailable's" has_text "$err" "more than the 0.06 GiB available now (MemAvailable)"
edge "a cgroup's memory.max of 64 MiB" "0::/bench" "$(v2 bench $((64 * mib)) $mib)"
check "and the limit it names is the cgroup's room" has_text "$err" "more than the 0.06 GiB left under the cgroup's memory.max (0.1 GiB, /sys/fs/cgroup/bench/memory.max)"

# 2. run.sh: the heading states the limits, and the memory guard uses the cgroup's room.
box=$tmp/sandbox
res=$tmp/results/RESULTS.md
mkdir -p "$box/peers" "$box/charts" "$tmp/results" "$tmp/tmpdir"
cp run.sh "$box/" && cp -R peers "$box/" && cp -R harness "$box/"
printf 'all:\n\t@:\nprint-build:\n\t@echo "compiler=g++ (Fake) 12.2.0"\n\t@echo "flags=-O2"\n' >"$box/Makefile"
# A fake coro_timer whose max RSS grows with N (dd holds N × 40 KB), which fills the directory in
# the file fill_disk, if there is one, while it runs.
cat >"$box/coro_timer" <<'EOF'
#!/bin/sh
[ -f fill_disk ] && dd if=/dev/zero of="$(cat fill_disk)/filler" bs=4096 2>/dev/null
dd if=/dev/zero of=/dev/null bs=$(($1 * 40000)) count=1 2>/dev/null
echo "scenario=coro_timer n=$1 threads=1 sleep_ms=50 spawn_ms=1 wall_ms=50 rss_base_kib=1500 rss_wait_kib=$((1500 + $1 * 40)) rss_avg_kib=1550 rss_peak_kib=1650 bytes_per_task=40960.0 frame_bytes=48 completed=$1"
EOF
chmod +x "$box/coro_timer"
cd "$box" || exit 1
cg_bench() { local table=$1 setup=$2; shift 2; in_cgroup "$table" "$setup" env RESULTS="$res" TMPDIR="$tmp/tmpdir" "$@"; }

cg_bench "0::/bench" "$(v2 bench $((8192 * mib)) $mib)
echo '150000 100000' >bench/cpu.max" RUNS=1 ./run.sh 10 coro_timer
check "run.sh in a cgroup v2 with a CPU quota exits 0" [ "$rc" -eq 0 ]
check "the heading states the CPU quota beside the cores" has "$(last_section)" '^- cores: [0-9]+ \(.*cgroup CPU quota 1\.5\)$'
check "and the memory limit beside the memory" has "$(last_section)" '^- memory: [0-9.]+ GiB \(cgroup limit 8\.0 GiB\)$'
cg_bench "4:memory:/b
2:cpu,cpuacct:/b" "$(v1 memory/b $((4096 * mib)) $mib)
mkdir -p cpu/b && echo 50000 >cpu/b/cpu.cfs_quota_us && echo 100000 >cpu/b/cpu.cfs_period_us" RUNS=1 ./run.sh 10 coro_timer
check "cgroup v1: cpu.cfs_quota_us / cpu.cfs_period_us, and memory.limit_in_bytes" \
  eval 'has "$(last_section)" "^- cores: [0-9]+ \(.*cgroup CPU quota 0\.5\)$" && has "$(last_section)" "^- memory: [0-9.]+ GiB \(cgroup limit 4\.0 GiB\)$"'
cg_bench "0::/bench" "$(v2 bench max $mib)
echo 'max 100000' >bench/cpu.max" RUNS=1 ./run.sh 10 coro_timer
check "no limits: the heading says nothing of cgroups" \
  eval 'has "$(last_section)" "^- cores: [0-9]+( \(affinity [0-9]+ of [0-9]+ online\))?$" && has "$(last_section)" "^- memory: [0-9.]+ GiB$"'
cg_bench "0::/bench" "$(v2 bench $((64 * mib)) $mib)" RUNS=1 SWEEP="1 10 100000" ./run.sh --sweep coro_timer
check "a sweep's memory guard holds the next N against the cgroup's room" \
  has "$(table_rows)" '^\| coro_timer \| - \| 100000 \| - \| not run: about [0-9.]+ GiB at its cost per task at N=10 \([0-9.]+ bytes\), more than the 0\.[0-9] GiB left under the cgroup.s memory\.max \(0\.1 GiB, '
check "and its chart's subtitle states the limit" \
  grep -qF -- "GiB (cgroup limit 0.1 GiB) ·" "$tmp/results/charts/$(last_section | sed -n 's/^!\[[^]]*\](charts\/\(.*\))$/\1/p')"

# 3. RESULTS in a read-only place is refused before anything runs; so are charts/ there.
ro=$tmp/ro
mkdir -p "$ro"
run_cmd unshare -m bash -c 'mount -t tmpfs -o ro bench-ro "$1" && cd "$2" && exec env RESULTS="$1/RESULTS.md" TMPDIR="$3" RUNS=1 ./run.sh 10 coro_timer' - "$ro" "$box" "$tmp/tmpdir"
check "RESULTS on a read-only mount: exit 2 before measuring, one line" \
  eval 'exited 2 "^run.sh: cannot write in .*, where RESULTS is" && [ "$(printf "%s\n" "$err" | wc -l)" -eq 1 ]'
mkdir -p "$tmp/rw/charts"
run_cmd unshare -m bash -c 'mount -t tmpfs -o ro bench-ro "$1/charts" && cd "$2" && exec env RESULTS="$1/RESULTS.md" TMPDIR="$3" RUNS=1 SWEEP="1 10" ./run.sh --sweep coro_timer' - "$tmp/rw" "$box" "$tmp/tmpdir"
check "a read-only charts/ where a sweep would draw: exit 2 before measuring" \
  eval 'exited 2 "^run.sh: cannot write in .*/charts, where the charts go" && [ ! -e "$tmp/rw/RESULTS.md" ]'

# 4. A disk that fills while run.sh measures: RESULTS is left byte for byte as it was, exit 1.
mkdir -p "$tmp/full"
run_cmd unshare -m bash -c '
  mount -t tmpfs -o size=256k bench-full "$1" && head -c 100000 /dev/zero | tr "\0" x >"$1/RESULTS.md" && cp "$1/RESULTS.md" "$4/before" &&
    echo "$1" >fill_disk && env RESULTS="$1/RESULTS.md" TMPDIR="$3" RUNS=1 ./run.sh 10 coro_timer; rc=$?
  rm -f fill_disk; cmp -s "$1/RESULTS.md" "$4/before" && echo unchanged; exit $rc' - "$tmp/full" "$box" "$tmp/tmpdir" "$tmp"
# The store beside it fills too: its records stay in the file the error names, and RESULTS is not
# written, so that no section stands without its records.
kept=$(printf '%s\n' "$err" | sed -n 's/.* could not be written to .*: they are in \(.*\), and .* is left as it was.*/\1/p')
check "a disk that fills during the run: exit 1, naming where the records are kept and RESULTS" \
  eval 'exited 1 "records could not be written to .*/full/results.jsonl: they are in .*, and .*/full/RESULTS.md is left as it was" && [ -s "$kept" ]'
check "RESULTS is byte for byte as it was" has_line "$out" unchanged
check "and the section is printed instead" has "$out" '^\| coro_timer \| - \| 10 \| 1 \|'
check "the kept file holds the run's records, the section's last" \
  [ "$(python3 -c 'import json, sys; print(" ".join(json.loads(l)["record"] for l in open(sys.argv[1])))' "$kept")" = "run section" ]
rm -rf "${kept%/records}"
check "no other temp files are left" no_temp_files

finish
