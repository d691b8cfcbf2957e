#!/usr/bin/env bash
# tests/compare_test.sh: ./run.sh --compare A B from outside, on a store written here (~2 s): what it
# says first, its formats, and the one line and exit 2 of each bad request. Its figures, worked out
# by hand: tests/test_harness.py (Compare, UTest).
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

res=$tmp/RESULTS.md
store=$tmp/store.jsonl
mkdir -p "$tmp/tmpdir" && : >"$res" && cp "$res" "$tmp/before"
# rec RUN CPU WALL [ENV]: a run record of coro_timer at N=10 on a machine with that CPU.
rec() {
  printf '{"record":"run","run":"%s","machine":{"cpu":"%s","cores":"2","memory":"1.0 GiB","fresh_memory":"first touch %s MB/s"},' "$1" "$2" "${#2}"
  printf '"scenario":"coro_timer","runtime":"ours","variant":"-","threads":"1","n":10,"options":"","env":"%s","failure":null,' "${4:-}"
  printf '"time":{"wall_s":%s,"user_s":0.1,"sys_s":0.0,"max_rss_kib":2048}}\n' "$3"
}
section() { printf '{"record":"section","run":"%s","heading":"2001-01-01 10:%s UTC","runs":["%s"]}\n' "$1" "$2" "$1"; }
{
  rec a AMD 1.0 && rec a AMD 1.1 && section a 00
  rec b AMD 2.0 && rec b AMD 2.1 && section b 01
  rec c Intel 1.5 && rec c Intel 1.6
  rec e AMD 1.0 GOMAXPROCS=1 && section e 03
} >"$store"

bench STORE="$store" ./run.sh --compare "2001-01-01 10:00" b
check "--compare A B (a heading's time, a run id): exit 0, and first whether they ran on one machine" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | head -n 1)" = "A and B ran on one machine: CPU: AMD; cores: 2; memory: 1.0 GiB." ]'
check "then which runs A and B are" \
  [ "$(printf '%s\n' "$out" | sed -n 3,4p)" = "$(printf '%s\n' '- A: 2001-01-01 10:00 UTC (run a)' '- B: 2001-01-01 10:01 UTC (run b)')" ]
check "then the table: wall 1.00 (1.00–1.10) against 2.00 (2.00–2.10), twice, higher; two runs, no p" \
  has_line "$out" '| coro_timer | ours | - | 10 | 1 | - | wall s | 1.00 (1.00–1.10) | 2.00 (2.00–2.10) | 2.000 | higher | - |'
check "and the geometric mean of B / A per measure" \
  has_line "$out" 'Geometric mean of B / A: wall s 2.000 (1 configuration); CPU s 1.000 (1 configuration); max RSS MiB 1.000 (1 configuration).'

bench STORE="$store" ./run.sh --compare a c
check "two machines: said first, with each side's CPU and fresh memory (c, a run without a section, read from its runs)" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | head -n 3)" = "$(printf "%s\n" "**A and B ran on different machines**: each ratio below compares the machines as well as the runs." "- A: CPU: AMD; cores: 2; memory: 1.0 GiB; fresh memory: first touch 3 MB/s" "- B: CPU: Intel; cores: 2; memory: 1.0 GiB; fresh memory: first touch 5 MB/s")" ]'

bench STORE="$store" ./run.sh --compare a b csv
check "csv: a header, then a row per configuration and measure" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | wc -l)" -eq 4 ] && has_prefix "$out" "scenario,runtime,variant,n,threads,options,env,measure,a_runs,a_best," && has_line "$out" "coro_timer,ours,-,10,1,,,wall_s,2,1.0,1.0,1.1,2,2.0,2.0,2.1,2.0,higher,"'
bench STORE="$store" ./run.sh --compare a b json
check "json: one array of those rows" \
  eval '[ "$rc" -eq 0 ] && [ "$(printf "%s\n" "$out" | python3 -c "import json, sys; print(\" \".join(r[\"measure\"] for r in json.load(sys.stdin)))")" = "wall_s cpu_s max_rss_kib" ]'

# one_line: the last bench said one line on stderr, and nothing on stdout.
one_line() { [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]; }
untouched() { one_line; }
bad_case "no section or run 'zz' in the store" STORE="$store" ./run.sh --compare zz b
bad_case "A and B are one run, 2001-01-01 10:00 UTC \(run a\): name two" STORE="$store" ./run.sh --compare a "2001-01-01 10:00"
bad_case "2001-01-01 10:00 UTC \(run a\) and 2001-01-01 10:03 UTC \(run e\) have no configuration in common" \
  STORE="$store" ./run.sh --compare a e
bad_case "usage: ./run.sh --compare A B \[md\|csv\|json\]" STORE="$store" ./run.sh --compare a
bad_case "usage: ./run.sh --compare A B \[md\|csv\|json\]" STORE="$store" ./run.sh --compare a b md x
bad_case "--compare writes md, csv or json, got 'xml'" STORE="$store" ./run.sh --compare a b xml
bad_case "no store at .*/none.jsonl" STORE="$tmp/none.jsonl" ./run.sh --compare a b
bad_case "--compare comes first, alone \(usage: .*./run.sh --compare A B \[md\|csv\|json\]" ./run.sh 10 --compare a b
bench ./run.sh --help
check "--help names --compare" has "$out" '^       ./run.sh --compare A B \[md\|csv\|json\]$'

finish
