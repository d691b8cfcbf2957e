#!/usr/bin/env bash
# tests/sweep_test.sh: ./run.sh --sweep against fake scenarios in a sandbox (~10 s): the section's
# table, the SVG chart it links (well-formed, one line per series, points in N order and equal to
# the table), THREAD_CAP, failed points, interruption, bad SWEEP.
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

box=$tmp/sandbox
rdir=$tmp/results # RESULTS lives here, so the charts go to $rdir/charts
res=$rdir/RESULTS.md
mkdir -p "$box/charts" "$rdir" "$tmp/tmpdir"
mkdir -p "$box/peers" && cp run.sh "$box/" && cp -R peers "$box/" && cp -R harness "$box/"
printf 'all:\n\t@:\nprint-build:\n\t@echo "compiler=g++ (Fake) 12.2.0"\n\t@echo "flags=-std=c++20 -pthread -O2"\n' >"$box/Makefile"

# fake NAME EXTRA: a stand-in binary whose max RSS grows with N (dd holds a buffer of N × 40 KB),
# so every N gives its own point. It logs its arguments, fails at N when fail_NAME_N exists and
# hangs until SIGTERM when slow_NAME exists.
fake() {
  cat >"$box/$1" <<EOF
#!/bin/sh
echo "$1 \$*" >>args.log
[ -f fail_$1_\$1 ] && { echo "$1: mmap: Cannot allocate memory" >&2; exit 1; }
[ -f slow_$1 ] && { trap 'exit 143' TERM; echo \$\$ >slow.pid; sleep 30 & wait; exit 0; }
dd if=/dev/zero of=/dev/null bs=\$((\$1 * 40000)) count=1 2>/dev/null
echo "scenario=$1 n=\$1 threads=1 sleep_ms=50 spawn_ms=1 wall_ms=50 rss_base_kib=1500 rss_wait_kib=\$((1500 + \$1 * 40)) rss_avg_kib=1550 rss_peak_kib=1650 bytes_per_task=40960.0 ${2}completed=\$1"
EOF
  chmod +x "$box/$1"
}
fake threads ""
fake coro_timer "frame_bytes=64 "
fake running_avg "frame_bytes=56 mean=49.9 variance=833.1 "
cd "$box" || exit 1

# chart_of_last_section: the chart file the newest section links, "" when none.
chart_of_last_section() {
  local link
  link=$(last_section | sed -n 's/^!\[[^]]*\](\(charts\/[^)]*\))$/\1/p')
  [ -z "$link" ] || echo "$rdir/$link"
}
# table_points: "series|N|MiB" of every row with a max RSS, series written as the chart names it.
table_points() {
  table_rows | awk -F' [|] ' '$7 ~ /^[0-9.]+$/ { s = substr($1, 3); if ($2 != "-") s = s " (" $2 ")"; print s "|" $3 "|" $7 }' | sort
}
# attrs FILE TAG NAME...: for each element TAG on its own line, the values of NAME... joined by "|".
attrs() {
  local file=$1 tag=$2
  shift 2
  awk -v tag="$tag" -v names="$*" '
    index($0, tag) {
      n = split(names, name, " "); line = ""
      for (i = 1; i <= n; i++) {
        v = "?"
        if (match($0, " " name[i] "=\"[^\"]*\"")) v = substr($0, RSTART + length(name[i]) + 3, RLENGTH - length(name[i]) - 4)
        line = line (i > 1 ? "|" : "") v
      }
      print line
    }' "$file"
}
markers() { attrs "$1" '<g class="point"' data-series data-n data-mib data-x data-y; }
lines_of() { attrs "$1" '<polyline class="series"' data-series points; }
chart_points() { markers "$1" | cut -d'|' -f1-3 | sort; }
# in_n_order FILE: within each series, markers go right as N grows, in document order.
in_n_order() {
  markers "$1" | awk -F'|' '$1 in n && !($2 + 0 > n[$1] && $4 + 0 > x[$1]) { bad = 1 } { n[$1] = $2 + 0; x[$1] = $4 + 0 } END { exit bad }'
}
# lines_through_markers FILE: each polyline's points are exactly its markers' centres, in order.
lines_through_markers() {
  local s pts want
  while IFS='|' read -r s pts; do
    want=$(markers "$1" | awk -F'|' -v s="$s" '$1 == s { printf "%s%s,%s", sep, $4, $5; sep = " " }')
    [ -n "$pts" ] && [ "$pts" = "$want" ] || return 1
  done <<EOF
$(lines_of "$1")
EOF
}
# higher_is_more FILE: a marker with more MiB is never drawn lower (SVG's y grows downwards).
higher_is_more() {
  markers "$1" | sort -t'|' -k3,3n | awk -F'|' 'NR > 1 && $3 + 0 > m && $5 + 0 >= y { bad = 1 } { m = $3 + 0; y = $5 + 0 } END { exit bad }'
}
well_formed() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
check_xml() { # check_xml NAME FILE: the well-formedness check, skipped by name without python3
  if command -v python3 >/dev/null 2>&1; then
    check "$1" well_formed "$2"
  else
    echo "skip - $1 (python3 not found)"
  fi
}
# external_bytes_ok: in every row past N=1, bytes/task from max RSS is (max RSS − max RSS at N=1)
# × 1024 / N, within the rounding of the table's one-decimal MiB.
external_bytes_ok() {
  table_rows | awk -F' [|] ' '
    $3 == 1 { base[$1 $2] = $7; next }
    { d = ($7 - base[$1 $2]) * 1048576 / $3 - $9; tol = 0.1 * 1048576 / $3 + 0.1
      if (d > tol || d < -tol || $9 !~ /^-?[0-9]+[.][0-9]$/) bad = 1; n++ }
    END { exit bad || n != 7 }'
}
# title_names_machine_and_date: the SVG title (the subtitle whole: drawn, it may wrap) names the
# section's CPU and the date of its heading.
title_names_machine_and_date() {
  local title
  title=$(grep '^<title>' "$chart") &&
    has "$title" '^<title>Max RSS against concurrent tasks — ' &&
    has_text "$title" "$(printf '%s\n' "$sec" | sed -n 's/^- CPU: //p')" &&
    has_text "$title" "$(printf '%s\n' "$sec" | sed -n 's/^## \(.* UTC\) — .*/\1/p')"
}
# charts_unchanged: the charts directory lists what it listed before the last command.
charts_unchanged() { ls "$rdir/charts" | cmp -s - "$tmp/charts_before"; }

# 1. A sweep: one row per scenario, variant and N; threads skips the N above THREAD_CAP.
bench RUNS=1 SLEEP_MS=50 THREAD_CAP=10 SWEEP="100 10 1" ./run.sh --sweep threads coro_timer running_avg
sec=$(last_section)
chart=$(chart_of_last_section)
check "a sweep exits 0" [ "$rc" -eq 0 ]
check "--render prints the sweep's section again from the store" renders_again
check "the heading names the sweep's N in increasing order" has "$sec" '^## .* UTC — sweep N=1,10,100, RUNS=1$'
check "the settings line names SWEEP, RUNS, THREAD_CAP, SLEEP_MS" has "$sec" '^- SWEEP=1 10 100, RUNS=1, THREAD_CAP=10, SLEEP_MS=50$'
check "the machine is described as in a plain run" has "$sec" '^- compiler: g\+\+ \(Fake\) 12.2.0$'
check "the header names both bytes/task columns" has "$sec" '^\| scenario \| variant \| N \| threads \| wall s \| CPU s \| max RSS MiB \| RSS at wait MiB \| bytes/task from max RSS \| bytes/task from binary \| frame bytes \| late max ms \|$'
check "bytes/task from max RSS is explained under the table" has "$sec" '^- bytes/task from max RSS: \(max RSS at N − max RSS at N=1\) × 1024 / N'
check "bytes/task from binary is explained under the table" has "$sec" '^- bytes/task from binary: '
check "rows: each series at each N, in order; threads stops at THREAD_CAP" \
  [ "$(table_rows | awk -F' [|] ' '{ printf "%s/%s/%s ", substr($1, 3), $2, $3 }')" = "threads/-/1 threads/-/10 coro_timer/-/1 coro_timer/-/10 coro_timer/-/100 running_avg/mutex/1 running_avg/mutex/10 running_avg/mutex/100 running_avg/channel/1 running_avg/channel/10 running_avg/channel/100 " ]
check "every row has 12 cells" [ "$(table_rows | awk -F'|' 'NF != 14' | wc -l)" -eq 0 ]
check "threads is not run above THREAD_CAP" [ "$(grep -c '^threads 100' args.log)" -eq 0 ]
check "a note says which threads N were skipped and why" has "$sec" '^- threads: N=100 not run, above THREAD_CAP=10 '
check "coro_timer gets --sleep-ms" [ "$(grep '^coro_timer 10 ' args.log)" = "coro_timer 10 --sleep-ms 50" ]
check "running_avg gets --sync, no --sleep-ms" \
  [ "$(grep '^running_avg 10 ' args.log | tr '\n' ';')" = "running_avg 10 --sync mutex;running_avg 10 --sync channel;" ]
check "the N=1 rows are the baseline" [ "$(table_rows | awk -F' [|] ' '$3 == 1 && $9 == "baseline"' | wc -l)" -eq 4 ]
check "bytes/task from max RSS is (max RSS − max RSS at N=1) × 1024 / N" external_bytes_ok
check "bytes/task from binary is the summary's bytes_per_task" [ "$(table_rows | awk -F' [|] ' '$10 == "40960.0"' | wc -l)" -eq 11 ]
check "RSS at wait comes from the summary" has "$(table_rows | grep '^| coro_timer | - | 100 |')" '\| 5.4 \| [0-9.]+ \| 40960.0 \| 64 \| '
check "the max RSS of the fakes grows with N" \
  [ "$(table_rows | awk -F' [|] ' '$1 == "| coro_timer" { print $7 }' | sort -n | tr '\n' ' ')" = "$(table_rows | awk -F' [|] ' '$1 == "| coro_timer" { print $7 }' | tr '\n' ' ')" ]
check "the section links its chart under charts/" has "$sec" '^!\[[^]]+\]\(charts/sweep-[0-9]{8}-[0-9]{4}\.svg\)$'
check "the chart file exists beside RESULTS" [ -s "${chart:-/no/chart}" ]
check_xml "the chart is well-formed XML" "$chart"
check "the chart is an SVG" has "$(head -n 2 "$chart")" '<svg xmlns="http://www.w3.org/2000/svg" '
check "one line per scenario and variant, in table order" \
  [ "$(lines_of "$chart" | cut -d'|' -f1 | tr '\n' ';')" = "threads;coro_timer;running_avg (mutex);running_avg (channel);" ]
check "one marker per successful row" [ "$(markers "$chart" | wc -l)" -eq 11 ]
check "the markers' series, N and MiB are the table's" [ "$(chart_points "$chart")" = "$(table_points)" ]
check "each series' points go in increasing N and x" in_n_order "$chart"
check "each line passes through its markers" lines_through_markers "$chart"
check "more MiB is drawn higher" higher_is_more "$chart"
check "the title names the section's CPU and date" title_names_machine_and_date
check "the legend has one entry per series" [ "$(sed -n '/<g class="legend">/,/<\/g>$/p' "$chart" | grep -c '<text ')" -eq 4 ]
check "the chart notes the skipped threads N" grep -q 'threads: N=100 not run' "$chart"
check "no temp files are left" no_temp_files

# 1b. Machine text is data: a CPU name full of ERE, sed, Markdown and XML metacharacters comes out
# verbatim on the heading's CPU line and XML-escaped in the chart's title, equal once read back.
weird='Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz [x+y*z] a|b \1 & <"'"'"'>/'
bench RUNS=1 SLEEP_MS=50 SWEEP="1 10" BENCH_TEST_CPU="$weird" ./run.sh --sweep coro_timer
chart=$(chart_of_last_section)
check "a sweep on a CPU with metacharacters in its name exits 0" [ "$rc" -eq 0 ]
check "the heading's CPU line holds the name verbatim" has_line "$(last_section)" "- CPU: $weird"
check_xml "the chart is well-formed XML with that name in it" "$chart"
check "the title holds the name XML-escaped" \
  has_text "$(grep '^<title>' "$chart")" 'Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz [x+y*z] a|b \1 &amp; &lt;&quot;'"'"'&gt;/'
title_text() { python3 -c 'import sys, xml.dom.minidom as m; print(m.parse(sys.argv[1]).getElementsByTagName("title")[0].firstChild.data)' "$1"; }
if command -v python3 >/dev/null 2>&1; then
  check "the title, read back by an XML parser, holds the name as it is" has_text "$(title_text "$chart")" "$weird"
else
  echo "skip - the title read back (python3 not found)"
fi

# 2. A second sweep, in the same minute or not, gets its own chart; the first one stays.
cp "$chart" "$tmp/first.svg"
first=$chart
bench RUNS=1 SLEEP_MS=50 SWEEP="1 10" ./run.sh --sweep coro_timer
chart=$(chart_of_last_section)
check "a second sweep exits 0" [ "$rc" -eq 0 ]
check "the second sweep links a chart of its own" [ "${chart:-$first}" != "$first" ]
check "the second chart exists" [ -s "${chart:-/no/chart}" ]
check "the first chart is left as it was" cmp -s "$first" "$tmp/first.svg"
check "the title is written once" [ "$(grep -c '^# Results' "$res")" -eq 1 ]
check "a SWEEP without a threads row names no THREAD_CAP" has "$(last_section)" '^- SWEEP=1 10, RUNS=1, SLEEP_MS=50$'

# 3. A failed point: its row says why, the chart leaves it out and says so, the rest is drawn.
rm -f args.log
touch fail_coro_timer_10
bench RUNS=1 SWEEP="1 10 100" ./run.sh --sweep coro_timer running_avg
rm fail_coro_timer_10
chart=$(chart_of_last_section)
check "a failed point makes the sweep exit 1" [ "$rc" -eq 1 ]
check "the failed row quotes the error" has "$(table_rows)" '^\| coro_timer \| - \| 10 \| - \| failed \(exit 1\): coro_timer: mmap: Cannot allocate memory \| - \| - \| - \| - \| - \| - \| - \|$'
check "the larger N still ran and kept its baseline" has "$(table_rows)" '^\| coro_timer \| - \| 100 \| 1 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9]+[.][0-9] \|'
check "the chart still exists" [ -s "${chart:-/no/chart}" ]
check_xml "the chart with a failed point is well-formed XML" "$chart"
check "the failed point is not drawn" [ "$(markers "$chart" | grep -c '^coro_timer|10|')" -eq 0 ]
check "the chart's points are still the table's" [ "$(chart_points "$chart")" = "$(table_points)" ]
check "the chart notes the failed point" grep -q 'coro_timer at N=10: failed' "$chart"

# 3b. The memory guard: an N whose max RSS, estimated from the cost per task at the last N (the
# fake's is 40 KB), exceeds the memory available now is not run; its row says so, and nothing failed.
rm -f args.log
bench RUNS=1 SWEEP="1 10 100000000" ./run.sh --sweep coro_timer
chart=$(chart_of_last_section)
check "a sweep whose largest N the guard refuses exits 0" [ "$rc" -eq 0 ]
check "--render gives its not-run row again too" renders_again
check "that N was not run" [ "$(grep -c -E '^coro_timer 100000000( |$)' args.log)" -eq 0 ]
check "the smaller N were" [ "$(grep -c -E '^coro_timer 10( |$)' args.log)" -eq 1 ]
check "its row says why: the estimate, the cost per task it comes from, the memory available" \
  has "$(table_rows)" '^\| coro_timer \| - \| 100000000 \| - \| not run: about [0-9.]+ GiB at its cost per task at N=10 \([0-9.]+ bytes\), more than the [0-9.]+ GiB (available now \(MemAvailable\)|left under the cgroup.s [a-z_.]+ \([^|]*\)) \| - \|'
check "the chart notes it" grep -q 'coro_timer at N=100000000: not run' "${chart:-/no/chart}"
check "no point is drawn for it" [ "$(markers "$chart" | grep -c '^coro_timer|100000000|')" -eq 0 ]

# 3c. A THREADS list: one series per T, told apart by the variant, each a line of the chart.
rm -f args.log
bench RUNS=1 SWEEP="1 10" THREADS="1 2" ./run.sh --sweep coro_timer
chart=$(chart_of_last_section)
check "a sweep with a THREADS list exits 0" [ "$rc" -eq 0 ]
check "rows: each T at each N, the variant naming T" \
  [ "$(table_rows | awk -F' [|] ' '{ printf "%s/%s ", $2, $3 }')" = "threads=1/1 threads=1/10 threads=2/1 threads=2/10 " ]
check "each T ran with --threads T" [ "$(grep -c -E '^coro_timer (1|10) --threads (1|2)$' args.log)" -eq 4 ]
check "the chart has one line per T" \
  [ "$(markers "$chart" | cut -d'|' -f1 | sort -u | tr '\n' ';')" = "coro_timer (threads=1);coro_timer (threads=2);" ]

# 4. An interrupted sweep leaves RESULTS byte-identical and writes no chart.
interrupt() { # interrupt SIGNAL EXPECTED_STATUS
  cp "$res" "$tmp/before"
  ls "$rdir/charts" >"$tmp/charts_before"
  interrupted "$1" slow_running_avg RUNS=1 SWEEP="1 10" ./run.sh --sweep coro_timer running_avg
  check "SIG$1 ends the sweep with $2" [ "$rc" -eq "$2" ]
  check "SIG$1 leaves RESULTS unchanged" cmp -s "$res" "$tmp/before"
  check "SIG$1 writes no chart" charts_unchanged
  check "SIG$1 leaves no temp files" no_temp_files
}
interrupt TERM 143
interrupt INT 130

# 5. Bad arguments: exit 2 with one line naming the problem; no RESULTS change, no chart.
cp "$res" "$tmp/before"
ls "$rdir/charts" >"$tmp/charts_before"
untouched() { charts_unchanged; } # bad_case: no chart written either
bad_case "SWEEP's N must be a whole number >= 1 [(]digits only[)], got '1e6'" SWEEP="1 1e6" ./run.sh --sweep
bad_case "SWEEP's N must be >= 1, got '0'" SWEEP="1 0" ./run.sh --sweep
bad_case "SWEEP is empty" SWEEP=" " ./run.sh --sweep
bad_case "--sweep takes no N" ./run.sh --sweep 10
bad_case "--sweep comes first" ./run.sh 10 --sweep
bad_case "unknown scenario 'nosuch'" ./run.sh --sweep nosuch
bad_case "THREAD_CAP must be" THREAD_CAP=0 ./run.sh --sweep
bench ./run.sh --help
check "--help shows the --sweep usage" has "$out" '^       ./run.sh --sweep \[scenario ...\]$'
check "--help describes SWEEP" has "$out" '^  SWEEP="1 10000 100000 1000000"$'

# 6. A SWEEP without 1 still runs the baseline, and says so.
rm -f args.log
bench RUNS=1 SWEEP="10" ./run.sh --sweep coro_timer
check "a SWEEP without 1 says it adds the baseline" exited 0 "SWEEP has no 1; running N=1 too"
check "N=1 is run" grep -q '^coro_timer 1$' args.log
check "its rows are N=1 and N=10" [ "$(table_rows | awk -F' [|] ' '{ printf "%s ", $3 }')" = "1 10 " ]

# 7. The charts on their own (y scale, escaping, bars, bad input): tests/test_harness.py.
check "no temp files are left at the end" no_temp_files

finish
