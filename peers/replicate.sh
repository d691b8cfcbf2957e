# peers/replicate.sh: ./run.sh --replicate [NAME]: a public write-up's tables run again here, in its
# own shape, with its published figures beside ours, its claims checked against both, and what
# differs between its runs and these listed. Each write-up is one data file, peers/published/NAME.tsv
# (peers/README.md, "Published figures", says what its lines mean). The run itself is a sweep of the
# write-up's programs over its N list (plan_replicate), made by run.sh's run_plan like any other;
# this file reads the data, plans, and writes the section (write_replicate_section).
# run.sh sources it after peers/peers.sh; sourcing only defines variables and functions. Written for
# macOS's bash 3.2 and BSD tools too, like run.sh.

published_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/published

# The variables a write-up's run lines may set, and the measures and units its columns may have.
replicate_vars="SLEEP_MS RUNS HITS MODE SPAWN_FROM POLL_MS BURST BURST_PAUSE_MS START"
replicate_measures="max_rss max_rss_mean avg_rss avg_rss_window rss_wait cpu_pct wall wall_mean user sys"
replicate_units="KB KiB KiB, MB MiB % s m:ss"

# pub_lines FILE KIND: the lines of KIND in FILE, the fields after the kind, tab-separated.
pub_lines() { awk -F '\t' -v k="$2" '$1 == k { sub(/^[^\t]*\t/, ""); print }' "$1"; }
# pub_value FILE KIND KEY: the third field of the first line "KIND KEY ...".
pub_value() { awk -F '\t' -v k="$2" -v key="$3" '$1 == k && $2 == key { print $3; exit }' "$1"; }

# check_published FILE: whether FILE parses, each problem on a line: every line a comment or one of
# the kinds with its fields; the about lines the listing needs; the run lines known variables; at
# least one table, column and row; every figure of a known row, table N and column, a number (or
# "-" with why) in its column's unit; every fact of a known row; every claim in the grammar.
check_published() {
  awk -F '\t' -v file="$1" -v vars=" $replicate_vars scenarios ns " -v measures=" $replicate_measures " \
    -v units=" $replicate_units " '
    function bad(msg) { print file ":" FNR ": " msg; n_bad++ }
    function num(v) { return v ~ /^[0-9][0-9,]*([.][0-9]+)?$/ || v ~ /^[0-9]+:[0-5][0-9]([.][0-9]+)?$/ }
    /^#/ || /^$/ { next }
    { kind = $1; want["about"] = 3; want["run"] = 3; want["table"] = 3; want["column"] = 5; want["row"] = 7
      want["fact"] = 5; want["nobuild"] = 3; want["claim"] = 3
      if (kind == "fig") { if (NF != 6 && NF != 7) bad("fig needs 6 or 7 fields, has " NF) }
      else if (!(kind in want)) { bad("unknown kind \"" kind "\""); next }
      else if (NF != want[kind] && !(kind == "fact" && NF == 4) && !(kind == "table" && NF == 4)) bad(kind " needs " want[kind] " fields, has " NF)
      for (i = 1; i <= NF; i++) if ($i == "") bad("field " i " is empty")
    }
    kind == "about" { about[$2] = $3 }
    kind == "run" { if (index(vars, " " $2 " ") == 0) bad("unknown run variable " $2); run[$2] = $3 }
    kind == "table" { table[$2] = 1; tables++; if (NF == 4) table_scenario[FNR] = $4 }
    kind == "column" { unit[$2] = $4; columns++
      if (index(measures, " " $3 " ") == 0) bad("unknown measure " $3)
      if (index(units, " " $4 " ") == 0) bad("unknown unit " $4) }
    kind == "row" { row[$2] = 1; rows++ }
    kind == "fig" { figs[FNR] = $0 }
    kind == "fact" || kind == "nobuild" { refs[FNR] = $2 }
    kind == "claim" { claims[FNR] = $2 }
    END {
      split("name author year title url read measured machine versions unit runs", need, " ")
      if (!length(figs) && !("figures" in about)) { FNR = 0; bad("no figure, and no about line for figures saying why") }
      for (i in need) if (!(need[i] in about)) { FNR = 0; bad("no about line for " need[i]) }
      if (about["name"] != "" && file !~ ("(^|/)" about["name"] "[.]tsv$")) { FNR = 0; bad("its name is " about["name"] ", not its file name") }
      if (!("ns" in run) || !("scenarios" in run)) { FNR = 0; bad("run needs ns and scenarios") }
      if (!tables || !columns || !rows) { FNR = 0; bad("it needs a table, a column and a row") }
      for (l in table_scenario) if (index(" " run["scenarios"] " ", " " table_scenario[l] " ") == 0) {
        FNR = l; bad("a table of " table_scenario[l] ", which is not one of run scenarios")
      }
      for (l in figs) {
        FNR = l; split(figs[l], f, "\t")
        if (!(f[2] in row)) bad("fig of an unknown row " f[2])
        if (!(f[3] in table)) bad("fig at an N with no table: " f[3])
        if (!(f[4] in unit)) bad("fig of an unknown column " f[4])
        else if (f[6] != unit[f[4]]) bad("fig in " f[6] ", its column is in " unit[f[4]])
        if (f[5] == "-") { if (f[7] == "") bad("a missing figure needs a reason") }
        else if (!num(f[5])) bad("not a number: " f[5])
      }
      for (l in refs) if (refs[l] != "*" && !(refs[l] in row)) { FNR = l; bad("of an unknown row " refs[l]) }
      for (l in claims) {
        FNR = l; k = split(claims[l], w, " ")
        if (w[1] == "min" || w[1] == "max") ok = k == 6 && w[3] == "at" && w[5] == "=" && (w[2] in unit) && (w[6] in row)
        else if (w[1] == "ratio") ok = k == 9 && w[4] == "/" && w[6] == "at" && (w[8] == ">" || w[8] == "<") && num(w[9]) && (w[2] in unit) && (w[3] in row) && (w[5] in row)
        else ok = k == 6 && (w[3] == "<" || w[3] == ">") && w[5] == "at" && (w[1] in unit) && (w[2] in row) && (w[4] in row)
        if (!ok) bad("a claim outside the grammar: " claims[l])
      }
      exit n_bad > 0
    }' "$1"
}

# replicate_list: every write-up --replicate knows, one entry each, and how long its replication
# takes here, about: its runs times the time each must last (its sleep, the rounds of sleep
# atomic_counter needs, 5 s for a task without a sleep), plus 3 s each.
replicate_list() {
  local f
  echo "./run.sh --replicate NAME [--quick] runs one of these write-ups' tables again here:"
  for f in "$published_dir"/*.tsv; do
    [ -f "$f" ] || continue
    awk -F '\t' '
      $1 == "about" { a[$2] = $3 } $1 == "run" { r[$2] = $3 } $1 == "row" && $4 != "-" { rows++ }
      $1 == "row" && $4 != "-" { k = $3 "\t" $5 "\t" $6; if (!(k in ours)) { ours[k] = 1; rows++ } }
      END {
        n = split(r["ns"], ns, " "); runs = r["RUNS"] == "" ? 5 : r["RUNS"]; ms = r["SLEEP_MS"] == "" ? 1000 : r["SLEEP_MS"]
        for (i = 1; i <= n; i++) {
          rounds = 1
          if (r["scenarios"] ~ /atomic_counter/ && r["MODE"] != "once") rounds = r["HITS"] == "" ? 10 : r["HITS"] / ns[i]
          t = r["scenarios"] ~ /^(running_avg|hash_collect)/ ? 5 : ms / 1000 * rounds
          s += rows * runs * (t + 3)
        }
        printf "\n  %s: %s (%s), \"%s\"\n    %s\n    %s\n    about %d min here\n", a["name"], a["author"], a["year"], a["title"], a["url"], a["measured"], (s + 59) / 60
      }' "$f"
  done
}

# replicate_settings NAME: the write-up's run, from its data file: the scenarios, the N list (with
# --quick, each N above 1 divided by 10, and HITS too), the variables its run lines set (RUNS only
# where the user has not set one), PEERS (the runtimes of its rows, unless the user chose). A
# variable the write-up fixes, set by the user, is refused: the run would not be the write-up's.
replicate_settings() {
  local f=$published_dir/$1.tsv v value known n
  if [ ! -f "$f" ]; then
    known=$(ls "$published_dir" 2>/dev/null | sed -n 's/[.]tsv$//p' | tr '\n' ' ')
    bad "--replicate: unknown write-up '$1' (known: ${known% }; ./run.sh --replicate lists them)"
  fi
  check_published "$f" >"${TMPDIR:-/tmp}/check_published.$$" 2>&1 ||
    { head -n 1 "${TMPDIR:-/tmp}/check_published.$$" >&2; rm -f "${TMPDIR:-/tmp}/check_published.$$"; exit 2; }
  rm -f "${TMPDIR:-/tmp}/check_published.$$"
  pubfile=$f
  for v in THREADS SWEEP $replicate_vars; do
    [ "$v" != RUNS ] || continue
    eval "value=\${$v:-}"
    [ -z "$value" ] || bad "$v cannot be set with --replicate: $1 fixes its own (${v}=$(pub_value "$f" run "$v"))"
  done
  for v in $replicate_vars; do
    value=$(pub_value "$f" run "$v")
    [ -n "$value" ] || continue
    if [ "$v" = RUNS ] && [ -n "${RUNS:-}" ]; then continue; fi  # fewer runs: the user's to choose
    eval "$v=\$value"
  done
  scenarios=$(pub_value "$f" run scenarios)
  sweep_ns=
  for n in $(pub_value "$f" run ns); do
    [ -z "$quick" ] || [ "$n" -lt 10 ] || n=$((n / 10))
    sweep_ns="$sweep_ns $n"
  done
  sweep_ns=$(printf '%s\n' $sweep_ns | sort -n -u | tr '\n' ' ')
  sweep_ns=${sweep_ns% }
  [ -z "$quick" ] || [ -z "${HITS:-}" ] || HITS=$((HITS / 10))
  [ -n "${PEERS+set}" ] || PEERS=$(replicate_rows | awk -F '\t' '$3 != "-" { print $3 }' | while IFS= read -r p; do
    g=$(catalogue_column 3 "$p")
    [ "$g" = ours ] || peer_name "$g"
  done | awk '!seen[$0]++' | tr '\n' ' ')
  PEERS=${PEERS% }
}

# replicate_rows: the rows of the write-up ($pubfile), as ID, scenario, program here, variant,
# threads and its label, in its order; then ours, one row per scenario, variant and threads among
# them ("ours" and those, joined by ":"), labelled as ours.
replicate_rows() {
  awk -F '\t' '$1 == "row" { print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7; k = $3 "\t" $5 "\t" $6; if (!(k in seen)) { seen[k] = 1; ours[++n] = k } }
    END { for (i = 1; i <= n; i++) { split(ours[i], f, "\t")
        printf "ours:%s%s%s\t%s\t%s\t%s\t%s\tc++20 (this repo)\n", f[1], f[2] == "-" ? "" : ":" f[2], f[3] == "-" ? "" : ":" f[3] "t", f[1], f[1], f[2], f[3] } }' "$pubfile"
}

# plan_replicate: the plan of the replication: for each row with a program here, a series over the
# N list, labelled with the row's ID (plan_peer, as a sweep); a limit line per scenario.
plan_replicate() {
  local pn id s prog sv t label g opts suffix variant sleep limit seen=' '
  while IFS=$tab read -r id s prog sv t label <&3; do
    [ "$prog" != - ] || continue
    IFS=$tab read -r g opts suffix variant <<ROW
$(catalogue "$s" | awk -F '\t' -v p="$prog" -v k="$sv" '$1 == p && (k == "-" || $3 == k) { print $2 "\t" $4 "\t" $5 "\t" $6; exit }')
ROW
    [ -n "$g" ] || { echo "run.sh: --replicate: no program $prog for $s in the catalogue" >&2; continue; }
    [ "$g" = ours ] || { group_field_to pn 2 "$g"; case " $PEERS " in *" $pn "*) ;; *) continue ;; esac; }
    case $s in
      running_avg | hash_collect) sleep='' ;;
      atomic_counter) sleep=${SLEEP_MS:-1000} ;;
      *) sleep=${SLEEP_MS:-$peers_sleep_ms} ;;
    esac
    limit=${PEER_TIMEOUT:-$(peer_timeout "$s" "${sleep:-0}" "${sweep_ns##* }")}
    case $seen in *" $s "*) ;; *)
      plan_line limit "$s" ours - - - - - - - "$s: a run is stopped after $limit s${PEER_TIMEOUT:+ (PEER_TIMEOUT)}" - -
      seen="$seen$s " ;;
    esac
    [ "$s" != threads ] || t=-
    [ "$t" != - ] || [ "$s" = threads ] || t=default
    series_label=$id plan_peer "$s" "$prog" "$g" "$sv" "$t" yes "$sleep" "$limit" "$suffix" "$variant" "${START:--}" "$opts"
  done 3< <(replicate_rows)
}

# replicate_values: each point's outcome ($work/rep) with what the tables need, tab-separated:
# ID, N, why it has no figure ("-" if it has one), wall, user, sys, max RSS, run.sh's avg RSS,
# RSS at wait (KiB), the all-alive cell, the spread of max RSS, run.sh's avg RSS over the spawned
# to target window (KiB), and the means over the runs of the wall (s) and max RSS (KiB).
replicate_values() {
  local id n why best spread means wall user sys rss avg wavg summary
  while IFS=$tab read -r id n why best spread means; do
    if [ "$why" != - ]; then
      printf '%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n' "$id" "$n" "$why"
      continue
    fi
    read -r wall user sys rss avg wavg summary <<BEST
$best
BEST
    printf '%s\t%s\t-\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$n" "$wall" "$user" "$sys" "$rss" "$avg" \
      "$(field rss_wait_kib "$summary")" "$(alive_cell "$summary")" "$spread" "$wavg" "$(echo "$means" | tr ' ' '\t')"
  done <"$work/rep"
}

# replicate_here: each row's program here, tab-separated: ID, the runtime column here (with its
# version), the variant cell, the program, and its build's state (ok, missing, "build failed: ...").
replicate_here() {
  local id s prog sv t label g variant
  while IFS=$tab read -r id s prog sv t label <&3; do
    g=- variant=-
    [ "$prog" = - ] || IFS=$tab read -r g variant <<ROW
$(catalogue "$s" | awk -F '\t' -v p="$prog" -v k="$sv" '$1 == p && (k == "-" || $3 == k) { print $2 "\t" $6; exit }')
ROW
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$( [ "$g" = - ] || runtime_label "$g")" "$variant" "$prog" "$(
      [ "$g" = - ] || case $(state_of "$g") in
        ok) echo ok ;;
        missing) echo "its toolchain is missing (see below)" ;;
        skip) echo "see the notes below" ;;
        "build failed"*) state_of "$g" ;;
        *) echo "not in PEERS=$PEERS" ;;
      esac)"
  done 3< <(replicate_rows)
}

# write_replicate_section: the section of a replication, in $work/section: its heading, the machine,
# the write-up and this run's settings, the chart, each of the write-up's tables in its own shape
# (a table per N, its rows in its order, ours last; per column the figure here in the write-up's
# unit, the published one and their ratio), the claims, and what differs. Reads the data file, the
# points' outcomes ($work/rep.values, from replicate_values) and the rows' programs here
# ($work/rep.here, from replicate_here).
write_replicate_section() {
  replicate_awk >"$work/replicate.awk"
  {
    echo "## $when — replicate $(pub_value "$pubfile" about name)"
    echo
    cat "$work/machine"
    echo "- N=$(echo "$sweep_ns" | tr ' ' ','), RUNS=$RUNS${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}$(mode_settings)${quick:+; --quick: every N of the write-up above 1 divided by 10${HITS:+, and HITS too}}"
    [ "$resumed" -eq 0 ] || echo "- resumed: $resumed of the configurations were measured by an earlier run of this replication at commit $commit, kept in PEERS_BUILD/replicate"
    [ -n "$rep_cache" ] || echo "- not resumable: the tree has changes that are not committed, so no configuration's result is kept for a later run"
    peers_lines | grep -v '^- sleep: '
    echo
    cat "$work/chart_lines"
    {
      sed 's/^/- /' "$pw/limits" "$pw/notes"
      sed 's/^/- not run: /' "$pw/missing"
      # A worker count above the cores here runs oversubscribed: every worker shares them.
      replicate_rows | awk -F '\t' -v cores="${cores_text%% *}" '$5 ~ /^[0-9]+$/ && $5 + 0 > cores + 0 && !seen[$5]++ {
          printf "- T=%s is more than the %s cores here: its rows are oversubscribed, %s workers taking turns on %s cores\n", $5, cores, $5, cores }'
    } >"$work/rep.notes"
    awk -F '\t' -v machine_here="$(grep -e '^- CPU: ' -e '^- cores: ' -e '^- memory: ' "$work/machine" | sed 's/^- //' | tr '\n' ';' | sed 's/;$//; s/;/; /g')" \
      -v runs_here="$RUNS" -v quick="$quick" -v notes_file="$work/rep.notes" -f "$work/replicate.awk" "$pubfile" "$work/rep.values" "$work/rep.here"
    echo
  } >"$work/section"
}

# replicate_bars: the chart's bars, at the write-up's largest N: a bar per row measured there, its
# label the write-up's with the runtime here, its max RSS and the published figure in MiB (from the
# first column of max RSS, in KB or MB as the write-up defined them), smallest first.
replicate_bars() {
  local top=${sweep_ns##* }
  awk -F '\t' -v top="$top" -v quick="$quick" '
    FILENAME == ARGV[1] && $1 == "column" && $3 == "max_rss" && col == "" { col = $2; unit = $4 }
    FILENAME == ARGV[1] && $1 == "row" { label[$2] = $7 }
    FILENAME == ARGV[1] && $1 == "fig" { fig[$2, $3, $4] = $5 }
    FILENAME == ARGV[1] && $1 == "run" && $2 == "ns" { n = split($3, ns, " "); pubtop = ns[n] }
    FILENAME == ARGV[2] { here[$1] = $2 }
    FILENAME == ARGV[3] && $2 == top && $3 == "-" {
      p = fig[$1, pubtop, col]; gsub(/,/, "", p)
      p = p == "" || p == "-" || quick ? "-" : sprintf("%.1f", unit ~ /^KB|^KiB/ ? p / 1024 : p)
      printf "%s\t%.1f\t%s\n", $1 ~ /^ours:/ ? here[$1] : label[$1] " (" here[$1] ")", $7 / 1024, p }' \
    "$pubfile" "$work/rep.here" "$work/rep.values" | sort -t "$tab" -k2,2n
}

# The section's tables, claims and differences, from the data file (first input), the points
# (second) and the programs here (third).
replicate_awk() {
  cat <<'AWK'
function has(v) { return v != "" && v != "-" }
function numeric(v,   ms) { gsub(/,/, "", v); if (v ~ /^[0-9]+:[0-9]+([.][0-9]+)?$/) { split(v, ms, ":"); return ms[1] * 60 + ms[2] } return v + 0 }
# here(id, n, c): the figure here of row id at n in column c's measure and unit, "" when none.
function here(id, n, c,   k, kib, v) {
  k = id SUBSEP n
  if (!(k in why) || why[k] != "-") return ""
  m = measure[c]; u = unit[c]
  if (m == "max_rss") kib = rss[k]; else if (m == "avg_rss") kib = avg[k]; else if (m == "rss_wait") kib = wait[k]
  else if (m == "avg_rss_window") kib = wavg[k]; else if (m == "max_rss_mean") kib = rmean[k]
  else if (m == "cpu_pct") return wall[k] > 0 ? sprintf("%d", (user[k] + sys[k]) / wall[k] * 100 + 0.5) : ""
  else if (m == "wall") v = wall[k]; else if (m == "user") v = user[k]; else if (m == "sys") v = sys[k]
  else if (m == "wall_mean") v = wmean[k]
  if (m ~ /rss/) {
    if (!has(kib)) return ""
    if (u == "MB" || u == "MiB") return sprintf("%.1f", kib / 1024)
    if (u == "KiB,") return thousands(kib)
    return sprintf("%d", kib)
  }
  if (u == "m:ss") return sprintf("%d:%02d", int(v / 60), int(v) % 60)
  return sprintf("%.2f", v)
}
function thousands(v,   s) { s = sprintf("%d", v); while (s ~ /[0-9]{4}/) sub(/[0-9]{3}($|,)/, ",&", s); sub(/,,/, ",", s); return s }
function ratio(a, b) { return has(a) && has(b) && numeric(b) > 0 ? sprintf("%.2f", numeric(a) / numeric(b)) : "-" }
function cell(v) { gsub(/[|]/, "\\|", v); return v }
FILENAME == ARGV[1] && /^#/ { next }
FILENAME == ARGV[1] {
  if ($1 == "about") about[$2] = $3
  else if ($1 == "table") { tables[++nt] = $2; title[nt] = $3; tscen[nt] = $4 }
  else if ($1 == "column") { cols[++nc] = $2; measure[$2] = $3; unit[$2] = $4; ctitle[$2] = $5 }
  else if ($1 == "row") { rows[++nr] = $2; label[$2] = $7; scen[$2] = $3; prog[$2] = $4 }
  else if ($1 == "fig") { fig[$2, $3, $4] = $5; if ($5 == "-") figwhy[$2, $3, $4] = $7 }
  else if ($1 == "fact") { nf++; fid[nf] = $2; fkey[nf] = $3; fval[nf] = $4; fwords[nf] = $5 }
  else if ($1 == "nobuild") nobuild[$2] = $3
  else if ($1 == "claim") { ncl++; claim[ncl] = $2; cwords[ncl] = $3 }
  next
}
FILENAME == ARGV[2] { k = $1 SUBSEP $2; why[k] = $3; wall[k] = $4; user[k] = $5; sys[k] = $6; rss[k] = $7; avg[k] = $8; wait[k] = $9; alive[k] = $10
  wavg[k] = $12; wmean[k] = $13; rmean[k] = $14; next }
FILENAME == ARGV[3] {
  hlabel[$1] = $2; hvariant[$1] = $3; hprog[$1] = $4; state[$1] = $5
  if ($1 ~ /^ours:/) { ours[++no] = $1; label[$1] = $2; scen[$1] = $4 }
  next
}
END {
  # The tables: one per N of the write-up, in its order; its rows, then ours.
  for (t = 1; t <= nt; t++) {
    n = tables[t]; if (quick && n >= 10) n = int(n / 10)
    printf "### %s%s\n\n", title[t], quick && n != tables[t] ? " (here N=" n ", --quick)" : ""
    head = "| runtime there | runtime here |"; sep = "|---|---|"
    for (c = 1; c <= nc; c++) {
      u = unit[cols[c]] == "KiB," ? "KiB" : unit[cols[c]]
      head = head sprintf(" %s here %s | published %s | here / published |", ctitle[cols[c]], u, u); sep = sep "--:|--:|--:|"
    }
    print head " all alive |"; print sep "---|"
    for (r = 1; r <= nr + no; r++) {
      id = r <= nr ? rows[r] : ours[r - nr]
      if (tscen[t] != "" && scen[id] != tscen[t]) continue
      k = id SUBSEP n
      line = "| " cell(r <= nr ? label[id] : "-") " | "
      if (prog[id] == "-") line = line "not to be had here |"
      else if (!(id in hlabel)) line = line "- |"
      else line = line cell(hlabel[id]) " |"
      for (c = 1; c <= nc; c++) {
        h = here(id, n, cols[c]); p = fig[id, tables[t], cols[c]]
        if (h == "" && c == 1) h = prog[id] == "-" ? "-" : (k in why) ? why[k] : (state[id] == "" || state[id] == "ok" ? "-" : "not run: " state[id])
        else if (h == "") h = "-"
        if (h != "-" && !(h ~ /^[0-9:.,]+$/)) ratio_ = "-"; else ratio_ = ratio(h, p)
        line = line " " cell(h) " | " (id ~ /^ours:/ ? "" : cell(p == "" ? "-" : p)) " | " (id ~ /^ours:/ ? "" : ratio_) " |"
        if (h ~ /^[0-9:.,]+$/) { hv[id, tables[t], cols[c]] = numeric(h); hs[id, tables[t], cols[c]] = h }
        if (has(p)) { pv[id, tables[t], cols[c]] = numeric(p); ps[id, tables[t], cols[c]] = p; npub[tables[t], cols[c]]++ }
      }
      print line " " ((k in alive) && has(alive[k]) ? cell(alive[k]) : "-") " |"
    }
    for (r = 1; r <= nr; r++) for (c = 1; c <= nc; c++) if ((rows[r], tables[t], cols[c]) in figwhy && (tscen[t] == "" || scen[rows[r]] == tscen[t]))
      notes = notes sprintf("- %s, %s: published \"-\": %s\n", label[rows[r]], title[t], figwhy[rows[r], tables[t], cols[c]])
    print ""
  }
  printf "%s", notes
  if ("figures" in about) printf "- published: none here: %s\n", about["figures"]
  printf "- here / published: the figure measured here over the one published; each figure here is the run with the lowest wall time of RUNS=%s, max RSS and CPU from /usr/bin/time (CPU %% = (user + sys) / wall), converted to the write-up's unit as it defined it: %s\n", runs_here, about["unit"]
  printf "- the write-up: \"%s\", %s, %s (%s), read %s; its machine: %s; its versions: %s; its runs: %s\n", about["title"], about["author"], about["published"], about["url"], about["read"], about["machine"], about["versions"], about["runs"]
  while ((getline line < notes_file) > 0) print line
  print ""
  # The claims, each checked on the published figures and on those measured here.
  if (ncl) {
    print "### Its claims, checked"
    print ""
    print "| claim | published | holds there? | here | holds here? |"
    print "|---|---|---|---|---|"
    for (i = 1; i <= ncl; i++) {
      check(claim[i], pv, ps); th = verdict; tf = figures
      check(claim[i], hv, hs); hh = verdict; hf = figures
      printf "| %s (`%s`) | %s | %s | %s | %s |\n", cell(cwords[i]), claim[i], cell(tf), th, cell(hf), hh
    }
    print ""
  }
  # What differs, from the facts of the data file and this run.
  print "### What differs between its runs and these"
  print ""
  printf "- the machine: %s there; %s here\n", about["machine"], machine_here
  printf "- runs: %s there; the best of RUNS=%s here\n", about["runs"], runs_here
  for (i = 1; i <= nf; i++) for (r = 1; r <= nr; r++) {
    id = rows[r]
    if (fid[i] != id && fid[i] != "*") continue
    if (fid[i] == "*" && (prog[id] == "-" || done_all[i])) continue
    who = fid[i] == "*" ? "every program" : label[id]
    if (fid[i] == "*") done_all[i] = 1
    if (fkey[i] == "version" && prog[id] != "-") {
      v = hlabel[id]; sub(/^[^0-9]*/, "", v); sub(/[^0-9.].*$/, "", v)
      if (fval[i] == "-" || index(v ".", fval[i] ".") != 1) printf "- %s: %s there; %s here\n", who, fwords[i], hlabel[id] == "" ? "not run" : hlabel[id]
    } else if (fkey[i] == "launcher" && fval[i] != "built") printf "- %s: %s there; a built binary here\n", who, fwords[i]
    else if (fkey[i] == "shape" && prog[id] != "-" && index(hvariant[id], fval[i]) == 0) printf "- %s: %s there; %s here\n", who, fwords[i], hvariant[id]
    else if (fkey[i] == "missing") printf "- %s: not run here: %s\n", who, fwords[i]
    else if (fkey[i] != "version" && fkey[i] != "launcher" && fkey[i] != "shape") printf "- %s: %s there (%s)\n", who, fwords[i], fkey[i]
  }
  for (r = 1; r <= nr; r++) if (rows[r] in nobuild) printf "- %s, as published: %s\n", label[rows[r]], nobuild[rows[r]]
}
# check(claim, values, shown): sets verdict ("yes", "no", or "cannot tell" without the figures) and
# figures, the values as the table shows them.
function check(c, v, shown,   w, k, r, best, bestv, x, ra, col, n, counted) {
  k = split(c, w, " "); verdict = "cannot tell"; figures = "-"
  if (w[1] == "min" || w[1] == "max") {
    col = w[2]; n = w[4]; best = ""
    for (r = 1; r <= nr; r++) if ((rows[r], n, col) in v) {
      x = v[rows[r], n, col]; counted++
      if (best == "" || (w[1] == "min" ? x < bestv : x > bestv)) { best = rows[r]; bestv = x }
    }
    if (best == "") return
    figures = label[best] " " shown[best, n, col]
    if (best != w[6] && (w[6], n, col) in v) figures = figures "; " label[w[6]] " " shown[w[6], n, col]
    if (counted < npub[n, col]) figures = figures " (of the " counted " rows with a figure, where " npub[n, col] " have one published)"
    verdict = best == w[6] ? "yes" : "no"
  } else if (w[1] == "ratio") {
    col = w[2]; n = w[7]
    if (!((w[3], n, col) in v) || !((w[5], n, col) in v) || v[w[5], n, col] == 0) return
    ra = v[w[3], n, col] / v[w[5], n, col]
    figures = sprintf("%s / %s = %.2f", label[w[3]], label[w[5]], ra)
    verdict = (w[8] == ">" ? ra > w[9] : ra < w[9]) ? "yes" : "no"
  } else {
    col = w[1]; n = w[6]
    if (!((w[2], n, col) in v) || !((w[4], n, col) in v)) return
    figures = label[w[2]] " " shown[w[2], n, col] ", " label[w[4]] " " shown[w[4], n, col]
    verdict = (w[3] == "<" ? v[w[2], n, col] < v[w[4], n, col] : v[w[2], n, col] > v[w[4], n, col]) ? "yes" : "no"
  }
}
AWK
}
