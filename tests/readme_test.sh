#!/usr/bin/env bash
# tests/readme_test.sh: the documents answer first and every figure has a source. README's first
# table is on its first screen and every number in it is in the RESULTS.md section it cites; every
# section that README, peers/README.md or METHODOLOGY.md cites ("RESULTS.md, YYYY-MM-DD HH:MM")
# exists; every file they link exists.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

docs="README.md peers/README.md METHODOLOGY.md"

# section TIME: the RESULTS.md section whose heading is "## TIME UTC ..." (every one at that minute).
section() { awk -v t="## $1 UTC" 'index($0, "## ") == 1 { on = index($0, t) == 1 } on' RESULTS.md; }
# citations FILE: each "YYYY-MM-DD HH:MM" cited as "RESULTS.md, YYYY-MM-DD HH:MM", once.
citations() {
  tr '\n' ' ' <"$1" | grep -oE 'RESULTS\.md,[[:space:]]+20[0-9]{2}-[0-9]{2}-[0-9]{2}[[:space:]]+[0-9]{2}:[0-9]{2}' |
    sed -E 's/^RESULTS\.md,[[:space:]]+//; s/[[:space:]]+/ /' | sort -u
}

check "README is 300 lines or fewer" [ "$(wc -l <README.md)" -le 300 ]
first_table=$(awk '/^\|/ { print NR; exit }' README.md)
check "README's first table starts on its first screen (line ${first_table:-none})" [ "${first_table:-999}" -le 20 ]
table_end=$(awk -v s="${first_table:-1}" 'NR >= s && !/^\|/ { print NR - 1; exit }' README.md)
check "and ends within the first 45 lines" [ "${table_end:-999}" -le 45 ]
check "a chart is on the first screen too" eval 'head -n 45 README.md | grep -qE "<img src=\"charts/[^\"]+\.svg\"|!\[[^]]*\]\(charts/[^)]+\.svg\)"'

for f in $docs; do
  for c in $(citations "$f" | tr ' ' '_'); do
    c=${c/_/ }
    check "$f cites RESULTS.md, $c: that section exists" [ -n "$(section "$c")" ]
  done
  # Every file the document links (Markdown links and images, <img src>), relative to it.
  for l in $(grep -oE '\]\([^)#:]+|src="[^":]+"' "$f" | sed -E 's/^\]\(//; s/^src="//; s/"$//' | sort -u); do
    check "$f links $l: it exists" [ -e "$(dirname "$f")/$l" ]
  done
done

# The first table's sources: the section cited above it (with the machine), and for a row whose
# label carries a footnote mark, the section that footnote cites ("N. ..." under the table).
cite_in() { tr '\n' ' ' | grep -oE 'RESULTS\.md,[[:space:]]+20[0-9-]+[[:space:]]+[0-9:]{5}' | head -n 1 | sed -E 's/^RESULTS\.md,[[:space:]]+//; s/[[:space:]]+/ /'; }
above=$(sed -n "1,$((first_table - 1))p" README.md)
after=$(sed -n "$((table_end + 1)),\$p" README.md)
main=$(printf '%s\n' "$above" | cite_in)
check "the first table cites its section above it (${main:-none})" [ -n "$(section "${main:-x}")" ]
# The machine README names is the section's: each `key: value` above the table is a line of that
# section's heading, word for word (machine text is data: compared, never matched).
facts=$(printf '%s\n' "$above" | tr '\n' ' ' | grep -oE '`[A-Za-z ]+: [^`]+`' | tr -d '`')
check "the first screen names the machine (\`CPU: ...\` above the table)" eval 'printf "%s\n" "$facts" | grep -q "^CPU: "'
while IFS= read -r fact; do
  [ -n "$fact" ] || continue
  check "the machine fact '$fact' is in the heading of RESULTS.md, $main" eval 'section "$main" | grep -qxF -- "- $fact"'
done <<FACTS
$facts
FACTS
# footnote_source K: the section that the first table's footnote K ("K. ...") cites, if any.
footnote_source() {
  printf '%s\n' "$after" | awk -v k="$1." '$1 == k { on = 1; print; next } on && (/^[0-9]+[.] / || /^$/) { exit } on' | cite_in
}
cpu_of() { section "$1" | grep -m1 '^- CPU: '; }
# numbers_of TIME: every number the section's table rows hold, a cell each, and each row's user +
# sys (the columns headed "user s" and "sys s"), as the README writes CPU.
numbers_of() {
  section "$1" | awk -F' [|] ' '
    /^\| scenario / { for (i = 1; i <= NF; i++) { if ($i == "user s") u = i; if ($i == "sys s") s = i } next }
    /^\| [a-z]/ { for (i = 2; i <= NF; i++) { v = $i; sub(/ [|]$/, "", v); print v }
      if (u && s) printf "%.2f\n", $u + $s }' | grep -E '^[0-9]+([.][0-9]+)?$' | sort -u
}
rows=$(sed -n "$((first_table + 2)),${table_end}p" README.md)
while IFS= read -r row; do
  [ -n "$row" ] || continue
  label=$(printf '%s\n' "$row" | awk -F'|' '{ print $2 }' | sed 's/^ *//; s/ *$//')
  src=$main
  for mark in $(printf '%s\n' "$label" | grep -oE '[¹²³⁴⁵⁶⁷⁸⁹]' | sed 'y/¹²³⁴⁵⁶⁷⁸⁹/123456789/'); do
    alt=$(footnote_source "$mark")
    [ -z "$alt" ] || src=$alt
  done
  numbers_of "${src:-x}" >"$tmp/row.numbers"
  missing=$(printf '%s\n' "$row" | awk -F'|' '{ for (i = 3; i < NF; i++) print $i }' | tr -d ' *' |
    grep -E '^[0-9]+([.][0-9]+)?$' | while read -r v; do grep -qxF -- "$v" "$tmp/row.numbers" || printf '%s ' "$v"; done)
  check "every number of the first table's row '$label' is in its section, ${src:-none}${missing:+ (not: $missing)}" [ -z "$missing" ]
  [ "$src" = "$main" ] || check "the row '$label' was measured on the same machine as the rest ($src)" [ "$(cpu_of "$src")" = "$(cpu_of "$main")" ]
done <<ROWS
$rows
ROWS

finish
