# peers/replicate.sh: ./run.sh --replicate [NAME]: a public write-up's tables run again here, in its
# own shape, with its published figures beside ours, its claims checked against both, and what
# differs between its runs and these listed. Each write-up is one data file, peers/published/NAME.tsv
# (peers/README.md, "Published figures", says what its lines mean). The run itself is a sweep of the
# write-up's programs over the N of its tables, a series per group of tables that share their
# settings (plan_replicate), made by run.sh's run_plan like any other; this file reads the data
# (published_awk), checks it (check_published), plans, and writes the section (write_replicate_section).
# run.sh sources it after peers/peers.sh; sourcing only defines variables and functions. Written for
# macOS's bash 3.2 and BSD tools too, like run.sh.

published_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/published

# The variables a write-up's run lines may set (its table lines, all but RUNS), and the measures
# and units its columns may have. Each unit's dimension and size are in published_awk.
replicate_vars="SLEEP_MS RUNS HITS MODE SPAWN_FROM POLL_MS BURST BURST_PAUSE_MS START"
replicate_measures="max_rss max_rss_mean avg_rss avg_rss_window rss_wait cpu_pct wall wall_mean user sys"
replicate_units="KB KiB KiB, MB MiB GB % s ms m:ss"

# pub_lines FILE KIND: the lines of KIND in FILE, the fields after the kind, tab-separated.
pub_lines() { awk -F '\t' -v k="$2" '$1 == k { sub(/^[^\t]*\t/, ""); print }' "$1"; }
# pub_value FILE KIND KEY: the third field of the first line "KIND KEY ...".
pub_value() { awk -F '\t' -v k="$2" -v key="$3" '$1 == k && $2 == key { print $3; exit }' "$1"; }

# published_awk: the data file as records, for every reader of it (the check, the listing, the
# plan and the section), each of which adds its own rules and END. The file is the first input.
# A table is keyed by its id= (else its N); its settings (VAR=VALUE) make its group: the tables of
# one group are one sweep over their N. A figure is stored as printed and, for comparing, as the
# lowest and highest of its readings ("2.75/3.31/4.00") in its dimension's base unit (KiB, s).
# judge(EXPR, LO, HI, SHOWN) evaluates a claim on either the published figures or those measured
# here, keyed by row, table and column, and sets verdict ("yes", "no", "cannot tell") and figures.
published_awk() {
  cat <<'AWK'
BEGIN {
  split("KB KiB KiB, MB MiB GB % s ms m:ss", unit_names, " ")
  split("mem mem mem mem mem mem pct time time time", unit_dims, " ")
  split("1 1 1 1024 1024 1048576 1 1 0.001 1", unit_sizes, " ")
  for (i in unit_names) { dim[unit_names[i]] = unit_dims[i]; size[unit_names[i]] = unit_sizes[i] }
  settable = " SLEEP_MS HITS MODE SPAWN_FROM POLL_MS BURST BURST_PAUSE_MS START "
}
function has(v) { return v != "" && v != "-" }
function isnum(v) { return v ~ /^[0-9][0-9,]*([.][0-9]+)?$/ || v ~ /^[0-9]+:[0-5][0-9]([.][0-9]+)?$/ }
function numeric(v,   ms) { gsub(/,/, "", v); if (v ~ /^[0-9]+:[0-9]+([.][0-9]+)?$/) { split(v, ms, ":"); return ms[1] * 60 + ms[2] } return v + 0 }
# A published value: a number, or several readings joined by "/" (no stable value).
function isvalue(v,   r, k, i) { k = split(v, r, "/"); for (i = 1; i <= k; i++) if (!isnum(r[i])) return 0; return k > 0 }
function first_unit(units) { sub(/\/.*/, "", units); return units }
# sleep_of(SETTINGS): the SLEEP_MS a table's settings ("VAR=VALUE ...") give, else the run lines'.
function sleep_of(set) { return match(" " set, / SLEEP_MS=[0-9]+/) ? substr(" " set, RSTART + 10, RLENGTH - 10) : run["SLEEP_MS"] }
# add_copy(ID, STATE): a row ID+SET (replicate_rows) is a copy of row ID's program, built against a
# set of PEERS_PATCH or for a .NET of PEERS_DOTNET; one that was built (or whose build failed: its
# rows say so) is kept as such, in copies[ID, K] and base[ID+SET]. Whether ID is a copy.
function add_copy(id, state,   b) {
  if (id !~ /[+][0-9]+$/) return 0
  if (state == "ok" || state ~ /^build failed/) { b = id; sub(/[+][0-9]+$/, "", b); copies[b, ++ncopies[b]] = id; base[id] = b; rscen[id] = rscen[b] }
  return 1
}
# readings(V, UNIT): sets lo and hi, V's lowest and highest reading in its dimension's base unit.
function readings(v, unit,   r, k, i, b) {
  k = split(v, r, "/")
  for (i = 1; i <= k; i++) { b = numeric(r[i]) * size[unit]; if (i == 1 || b < lo) lo = b; if (i == 1 || b > hi) hi = b }
}
FILENAME == ARGV[1] && !/^#/ && !/^$/ {
  kind = $1
  if (kind == "about") about[$2] = $3
  else if (kind == "run") run[$2] = $3
  else if (kind == "table") {
    tk = $2; for (i = 4; i <= NF; i++) if ($i ~ /^id=/) tk = substr($i, 4)
    # TABLES: a replication of some of the tables only (replicate_settings checks their ids).
    if (ENVIRON["TABLES"] != "" && index(" " ENVIRON["TABLES"] " ", " " tk " ") == 0) next
    nt++; tn[nt] = $2; ttitle[nt] = $3; tscen[nt] = "-"; tkey[nt] = tk; tset[nt] = ""; tline[nt] = FNR
    for (i = 4; i <= NF; i++) {
      if ($i !~ /=/) { if (i == 4) tscen[nt] = $i; else tattr_bad[nt] = $i }
      else if ($i !~ /^id=/) tset[nt] = tset[nt] (tset[nt] == "" ? "" : " ") $i
    }
    if (!(tset[nt] in group)) group[tset[nt]] = ++ng
    tgroup[nt] = group[tset[nt]]; tindex[tkey[nt]] = nt; tof[tkey[nt], tscen[nt]] = nt
  } else if (kind == "column") {
    nc++; cols[nc] = $2; measure[$2] = $3; units[$2] = $4; ctitle[$2] = $5
  } else if (kind == "row") {
    nr++; rows[nr] = $2; rscen[$2] = $3; prog[$2] = $4; rvariant[$2] = $5; rthreads[$2] = $6; label[$2] = $7; isrow[$2] = 1
  } else if (kind == "fig") {
    k = $2 SUBSEP $3 SUBSEP $4; fig[k] = $5; funit[k] = $6; if ($5 == "-") figwhy[k] = $7; else rowunit[$2, $4] = $6
    if (isvalue($5) && ($6 in size)) { readings($5, $6); plo[k] = lo; phi[k] = hi; pshown[k] = $5; npub[$3, $4]++ }
  } else if (kind == "fact") { nf++; fid[nf] = $2; fkey[nf] = $3; fval[nf] = $4; fwords[nf] = $5 }
  else if (kind == "nobuild") nobuild[$2] = $3
  else if (kind == "claim") { ncl++; claim[ncl] = $2; answer[ncl] = $3; cwords[ncl] = $4; precise[ncl] = $5; pwords[ncl] = $6; clline[ncl] = FNR }
}
# value(ID, T, COL, LO, HI, SHOWN): whether row ID has a figure at table T in COL ("A+B": the sum of
# two columns); sets vlo, vhi and vshown (with its unit where a column mixes units or sums them).
function value(id, t, col, lo_, hi_, shown,   k, ab) {
  if (index(col, "+")) {
    split(col, ab, "+")
    if (!value(id, t, ab[1], lo_, hi_, shown)) return 0
    a_lo = vlo; a_hi = vhi; a_shown = vshown
    if (!value(id, t, ab[2], lo_, hi_, shown)) return 0
    vlo += a_lo; vhi += a_hi; vshown = a_shown " + " vshown
    return 1
  }
  k = id SUBSEP t SUBSEP col
  if (!(k in lo_)) return 0
  vlo = lo_[k]; vhi = hi_[k]; vshown = shown[k]
  if (index(units[col], "/") || index(claim_col, "+")) vshown = vshown " " (k in funit ? funit[k] : first_unit(units[col]))
  return 1
}
# judge(EXPR, LO, HI, SHOWN): EXPR's verdict on those figures; several joined by " and " must all
# hold: one that does not decides "no", though another cannot be told.
function judge(expr, lo_, hi_, shown,   parts, np, i, all, figs) {
  np = split(expr, parts, / and /); all = "yes"; figs = ""
  for (i = 1; i <= np; i++) {
    judge_one(parts[i], lo_, hi_, shown)
    if (verdict == "no") all = "no"; else if (verdict == "cannot tell" && all == "yes") all = verdict
    figs = figs (i > 1 ? "; " : "") figures
  }
  verdict = all; figures = figs
}
# judge_one(EXPR, LO, HI, SHOWN): one comparison. Where a figure has several readings, "A below B"
# holds only if every reading of A is below every reading of B.
function judge_one(c, lo_, hi_, shown,   w, k, r, best, b_v, b_shown, x_lo, x_hi, col, t, counted, i, rt, ng_, glo, ghi, ok, figs) {
  k = split(c, w, " "); verdict = "cannot tell"; figures = "-"
  if (w[1] == "min" || w[1] == "max") {
    col = w[2]; t = w[4]; claim_col = col; best = ""; ok = 1
    if (!value(w[6], t, col, lo_, hi_, shown)) return
    x_lo = vlo; x_hi = vhi
    for (r = 1; r <= nr; r++) if (value(rows[r], t, col, lo_, hi_, shown)) {
      counted++
      if (best == "" || (w[1] == "min" ? vlo < b_v : vhi > b_v)) { best = rows[r]; b_v = w[1] == "min" ? vlo : vhi; b_shown = vshown }
      if (rows[r] != w[6] && (w[1] == "min" ? x_hi >= vlo : x_lo <= vhi)) ok = 0
    }
    figures = label[best] " " b_shown
    if (best != w[6] && value(w[6], t, col, lo_, hi_, shown)) figures = figures "; " label[w[6]] " " vshown
    if (counted < npub[t, col]) figures = figures " (of the " counted " rows with a figure, where " npub[t, col] " have one published)"
    verdict = ok ? "yes" : "no"
  } else if (w[1] == "ratio") {
    col = w[2]; t = w[7]; claim_col = col
    if (!value(w[5], t, col, lo_, hi_, shown) || vlo == 0) return
    x_lo = vlo; x_hi = vhi
    if (!value(w[3], t, col, lo_, hi_, shown)) return
    r = vlo / x_hi; b_v = vhi / x_lo
    figures = sprintf("%s / %s = %.2f", label[w[3]], label[w[5]], r) (sprintf("%.2f", b_v) != sprintf("%.2f", r) ? sprintf("–%.2f", b_v) : "")
    verdict = (w[8] == ">" ? r > w[9] : b_v < w[9]) ? "yes" : "no"
  } else if (w[1] == "chain") {
    # Groups of terms ranked together ("~"), each group wholly below ("<") or above (">") the next.
    col = w[2]; claim_col = col; ok = 1; figs = ""; ng_ = 0
    for (i = 3; i <= k; i += 2) {
      split(w[i], rt, "@")
      if (!value(rt[1], rt[2], col, lo_, hi_, shown)) return
      figs = figs (i > 3 ? " " w[i - 1] " " : "") label[rt[1]] "@" rt[2] " " vshown
      if (i == 3 || w[i - 1] != "~") { ng_++; glo[ng_] = vlo; ghi[ng_] = vhi; gop[ng_] = w[i - 1] }
      else { if (vlo < glo[ng_]) glo[ng_] = vlo; if (vhi > ghi[ng_]) ghi[ng_] = vhi }
    }
    for (i = 2; i <= ng_; i++) if (gop[i] == "<" ? ghi[i - 1] >= glo[i] : glo[i - 1] <= ghi[i]) ok = 0
    figures = figs; verdict = ok ? "yes" : "no"
  } else {
    col = w[1]; t = w[6]; claim_col = col
    if (!value(w[4], t, col, lo_, hi_, shown)) return
    x_lo = vlo; x_hi = vhi; b_shown = vshown
    if (!value(w[2], t, col, lo_, hi_, shown)) return
    figures = label[w[2]] " " vshown ", " label[w[4]] " " b_shown
    verdict = (w[3] == "<" ? vhi < x_lo : vlo > x_hi) ? "yes" : "no"
  }
}
AWK
}

# check_published FILE: whether FILE parses, each problem on a line: every line a comment or one of
# the kinds with its fields; the about lines the listing needs; the run lines known variables; at
# least one table, column and row, no row or column given twice; the run lines' settings, and each
# table's over them, within run.sh's rules (settings_problem); every figure of a known row, table
# and column, given once, a number, readings or "-" with why, in one of its column's units; every
# fact of a known row; every claim in the grammar, and its recorded answer the one its published
# figures give (its precise form, where it has one, holding on them).
check_published() {
  local ok=0 what line settings problem
  # The whole file, whatever TABLES picks for a run.
  TABLES='' awk -F '\t' -v file="$1" -v vars=" $replicate_vars scenarios ns " -v measures=" $replicate_measures " \
    -v unitlist=" $replicate_units " "$(published_awk)
$(check_awk)" "$1" || ok=1
  # The run lines' settings, then each table's over them, as its run has them.
  while IFS=$tab read -r what line settings <&3; do
    problem=$(settings_problem "$settings") && continue
    if [ "$what" = run ]; then what="its run lines"; else what="this table's settings, over the run lines'"; fi
    echo "$1:$line: $what: $problem"
    ok=1
    [ "$what" != "its run lines" ] || break # then every table has the problem: said once
  done 3< <(TABLES='' awk -F '\t' "$(published_awk)"'
    $1 == "run" && index(settable, " " $2 " ") { if (!first) first = FNR; all = all "\t" $2 "=" $3 }
    END {
      if (first) print "run\t" first all
      for (t = 1; t <= nt; t++) if (tset[t] != "") { s = tset[t]; gsub(/ /, "\t", s); print "table\t" tline[t] all "\t" s }
    }' "$1")
  return $ok
}

# settings_problem SETTINGS: the first problem of SETTINGS (VAR=VALUE, tab-separated, a later one
# overriding an earlier), the write-up's other variables unset, by run.sh's rules (check_variants)
# and a data file's own: a number as the text prints it, without a leading zero. Fails if it has one.
settings_problem() {
  local problem
  problem=$({
    set -f
    for v in $replicate_vars; do printf -v "$v" ''; done
    IFS=$tab
    for kv in $1; do
      case " $replicate_vars " in *" ${kv%%=*} "*) ;; *) continue ;; esac # check_awk names the others
      case ${kv#*=} in 0[0-9]*) bad "$kv has a leading zero" ;; esac
      printf -v "${kv%%=*}" '%s' "${kv#*=}"
    done
    check_variants
  } 2>&1) && return 0
  echo "${problem#run.sh: }"
  return 1
}

check_awk() {
  cat <<'AWK'
function bad(msg) { print file ":" FNR ": " msg; n_bad++ }
/^#/ || /^$/ { next }
{ kind = $1; want["about"] = 3; want["run"] = 3; want["column"] = 5; want["row"] = 7; want["fact"] = 5; want["nobuild"] = 3
  if (kind == "fig") { if (NF != 6 && NF != 7) bad("fig needs 6 or 7 fields, has " NF) }
  else if (kind == "table") { if (NF < 3) bad("table needs 3 fields or more, has " NF) }
  else if (kind == "claim") { if (NF != 4 && NF != 6) bad("claim needs 4 or 6 fields, has " NF) }
  else if (!(kind in want)) { bad("unknown kind \"" kind "\""); next }
  else if (NF != want[kind]) bad(kind " needs " want[kind] " fields, has " NF)
  for (i = 1; i <= NF; i++) if ($i == "") bad("field " i " is empty")
}
kind == "run" && index(vars, " " $2 " ") == 0 { bad("unknown run variable " $2) }
# The reader keeps the last of two lines of one key: a second is refused, not let overwrite.
kind == "row" { if ($2 in row_at) bad("second row " $2 " (first at line " row_at[$2] ")"); else row_at[$2] = FNR }
# A row's copies are ID+SET and its points ID@GROUP (replicate_rows, plan_replicate).
kind == "row" && ($2 ~ /[+][0-9]+$/ || index($2, "@")) { bad("a row's id has no @ and does not end in +DIGITS: " $2) }
kind == "column" {
  if ($2 in col_at) bad("second column " $2 " (first at line " col_at[$2] ")"); else col_at[$2] = FNR
  if (index(measures, " " $3 " ") == 0) bad("unknown measure " $3)
  k = split($4, us, "/")
  for (i = 1; i <= k; i++) if (index(unitlist, " " us[i] " ") == 0) bad("unknown unit " us[i]); else if (dim[us[i]] != dim[us[1]]) bad("a column in " us[1] " and " us[i] ", which measure different things")
}
kind == "table" {
  # Tables of different scenarios may share an N: a row's scenario says which one its figures are in.
  if ((tkey[nt], tscen[nt]) in keyline || (tscen[nt] == "-" ? tkey[nt] in anyscen : (tkey[nt], "-") in keyline))
    bad("a second table keyed " tkey[nt] " for the same rows; give it an id=")
  keyline[tkey[nt], tscen[nt]] = FNR; anyscen[tkey[nt]] = 1
  if (nt in tattr_bad) bad("after a table's scenario come id= and settings, not " tattr_bad[nt])
  if (tscen[nt] != "-" && index(" " run["scenarios"] " ", " " tscen[nt] " ") == 0) bad("a table of " tscen[nt] ", which is not one of run scenarios")
  if ("ns" in run && index(" " run["ns"] " ", " " tn[nt] " ") == 0) bad("a table at N=" tn[nt] ", which run ns does not list")
  # Their values are run.sh's to check (settings_problem).
  for (i = 4; i <= NF; i++) if ($i ~ /=/ && $i !~ /^id=/) {
    var = $i; sub(/=.*/, "", var)
    if (index(settable, " " var " ") == 0) bad("unknown table setting " $i " (id= or one of" settable ")")
  } else if ($i ~ /^id=/ && $i !~ /^id=[A-Za-z0-9_.-]+$/) bad("a table's id is one word: " $i)
}
kind == "fig" {
  if (($2, $3, $4) in fig_at) bad("second fig for " $2 " " $3 " " $4 " (first at line " fig_at[$2, $3, $4] ")"); else fig_at[$2, $3, $4] = FNR
  if (!($2 in isrow)) bad("fig of an unknown row " $2)
  if (!($3 in tindex)) bad("fig of no table: " $3)
  else if (($2 in isrow) && !at($2, $3)) bad("fig of " $2 " in table " $3 ", which holds another scenario's rows")
  if (!($4 in units)) bad("fig of an unknown column " $4)
  else if (index("/" units[$4] "/", "/" $6 "/") == 0) bad("fig in " $6 ", its column is in " units[$4])
  if ($5 == "-") { if ($7 == "") bad("a missing figure needs a reason") }
  else if (!isvalue($5)) bad("not a number: " $5)
}
(kind == "fact" || kind == "nobuild") && $2 != "*" && !($2 in isrow) { bad("of an unknown row " $2) }
END {
  split("name author year title url read measured machine versions unit runs", need, " ")
  if (!length(fig) && !("figures" in about)) { FNR = 0; bad("no figure, and no about line for figures saying why") }
  for (i in need) if (!(need[i] in about)) { FNR = 0; bad("no about line for " need[i]) }
  if (about["name"] != "" && file !~ ("(^|/)" about["name"] "[.]tsv$")) { FNR = 0; bad("its name is " about["name"] ", not its file name") }
  if (!("scenarios" in run)) { FNR = 0; bad("run needs scenarios") }
  if (!nt || !nc || !nr) { FNR = 0; bad("it needs a table, a column and a row") }
  for (i = 1; i <= ncl; i++) {
    FNR = clline[i]
    if (!valid(claim[i])) { bad("a claim outside the grammar: " claim[i] " (" fault ")"); continue }
    if (answer[i] != "yes" && answer[i] != "no") { bad("a claim's answer is yes or no, not " answer[i]); continue }
    judge(claim[i], plo, phi, pshown)
    if (verdict != answer[i]) bad("the claim \"" claim[i] "\" is recorded as " answer[i] ", and its published figures say " verdict ": " figures)
    if (precise[i] == "") continue
    if (!valid(precise[i])) { bad("a precise form outside the grammar: " precise[i] " (" fault ")"); continue }
    judge(precise[i], plo, phi, pshown)
    if (verdict != "yes") bad("the precise form \"" precise[i] "\" does not hold on the published figures (" verdict ": " figures ")")
  }
  exit n_bad > 0
}
# at(ROW, T): ROW is a row of table T (a table of one scenario holds that scenario's rows only).
function at(id, t) { return (id in isrow) && ((t, rscen[id]) in tof || (t, "-") in tof) }
# colok(C): a column, or the sum of two of one dimension ("user+sys").
function colok(c,   ab) { if (c in units) return 1; return split(c, ab, "+") == 2 && (ab[1] in units) && (ab[2] in units) && dim[first_unit(units[ab[1]])] == dim[first_unit(units[ab[2]])] }
# valid(EXPR): EXPR is in the grammar (peers/README.md); else fault names the term that is not.
function valid(e,   parts, np, i) { np = split(e, parts, / and /); for (i = 1; i <= np; i++) if (!valid_one(parts[i])) return 0; return np > 0 }
function valid_one(c,   w, k, i, rt, op) {
  k = split(c, w, " ")
  if (w[1] == "min" || w[1] == "max") return form(k == 6 && w[3] == "at" && w[5] == "=", "not of the form " w[1] " COLUMN at T = ROW") && col_known(w[2]) && in_table(w[6], w[4])
  if (w[1] == "ratio") return form(k == 9 && w[4] == "/" && w[6] == "at" && (w[8] == ">" || w[8] == "<") && isnum(w[9]), "not of the form ratio COLUMN ROW / ROW at T > X (or <)") &&
    col_known(w[2]) && in_table(w[3], w[7]) && in_table(w[5], w[7])
  if (w[1] == "chain") {
    if (!form(k >= 5 && k % 2 == 1, "not of the form chain COLUMN ROW@T < ROW@T ...") || !col_known(w[2])) return 0
    for (i = 3; i <= k; i += 2) {
      if (!form(split(w[i], rt, "@") == 2, "a chain's terms are ROW@T, not " w[i]) || !in_table(rt[1], rt[2])) return 0
      if (i == 3 || w[i - 1] == "~") continue
      if (!form(w[i - 1] == "<" || w[i - 1] == ">", "a chain's terms are joined by <, > or ~, not " w[i - 1])) return 0
      if (!form(op == "" || w[i - 1] == op, "a chain mixes < and >")) return 0
      op = w[i - 1]
    }
    return form(op != "", "a chain needs a < or > between two of its terms")
  }
  return form(k == 6 && (w[3] == "<" || w[3] == ">") && w[5] == "at", "not of the form COLUMN ROW < ROW at T (or >), nor min, max, ratio or chain") &&
    col_known(w[1]) && in_table(w[2], w[6]) && in_table(w[4], w[6])
}
function form(ok, f) { if (!ok) fault = f; return ok }
function col_known(c) { if (!colok(c)) fault = index(c, "+") ? c " is not two columns of one kind summed" : "no column " c; return colok(c) }
function in_table(id, t) {
  if (!at(id, t)) fault = !(id in isrow) ? "no row " id : !(t in tindex) ? "no table " t : "row " id " is not in table " t ", a table of another scenario's rows"
  return at(id, t)
}
AWK
}

# replicate_list: every write-up --replicate knows, one entry each, and how long its replication
# takes here: the estimate that --plan --replicate NAME ends with (estimate_plan in run.sh).
replicate_list() {
  local f name est
  echo "./run.sh --replicate NAME [--quick] runs one of these write-ups' tables again here:"
  for f in "$published_dir"/*.tsv; do
    [ -f "$f" ] || continue
    awk -F '\t' "$(published_awk)"'
      END { printf "\n  %s: %s (%s), \"%s\"\n    %s\n    %s\n", about["name"], about["author"], about["year"], about["title"], about["url"], about["measured"] }' "$f"
    name=$(pub_value "$f" about name)
    # run.sh itself, through bash: `bash run.sh` leaves a $0 that is no command (the listing runs
    # before run.sh leaves the user's directory, so a relative $0 still names it).
    est=$("$BASH" "$0" --plan --replicate "$name" 2>&1 | sed -n 's/^Estimated time here: about \([^:]*\):.*/about \1 here, its builds included/p; s/^run.sh: \(.*\)/cannot plan it: \1/p' | head -n 1)
    printf '    %s\n' "${est:-cannot plan it: its --plan gave no estimate}"
  done
}

# replicate_settings NAME: the write-up's run, from its data file: the scenarios, the N list (with
# --quick, each N above 1 divided by 10, and HITS too), the variables its run lines set (RUNS only
# where the user has not set one), PEERS (the runtimes of its rows, unless the user chose). A
# variable the write-up fixes, set by the user, is refused: the run would not be the write-up's.
replicate_settings() {
  local f=$published_dir/$1.tsv v value known problems nl=$'\n'
  if [ ! -f "$f" ]; then
    known=$(ls "$published_dir" 2>/dev/null | sed -n 's/[.]tsv$//p' | tr '\n' ' ')
    bad "--replicate: unknown write-up '$1' (known: ${known% }; ./run.sh --replicate lists them)"
  fi
  problems=$(check_published "$f" 2>&1) || bad "${problems%%$nl*}"
  pubfile=$f
  # TABLES: some of its tables only, by their ids (a table without one: its N), each once.
  if [ -n "${TABLES:-}" ]; then
    known=$(TABLES='' awk -F '\t' "$(published_awk)"' END { for (t = 1; t <= nt; t++) if (!seen[tkey[t]]++) printf "%s ", tkey[t] }' "$f")
    case $TABLES in *[!A-Za-z0-9_.\ -]*) bad "TABLES is a list of table ids (letters, digits, '_', '.', '-'), got '$TABLES'" ;; esac
    value=' '
    for v in $TABLES; do
      case " $known" in *" $v "*) ;; *) bad "TABLES: $1 has no table '$v' (its tables: ${known% })" ;; esac
      case $value in *" $v "*) bad "TABLES names '$v' twice" ;; esac
      value="$value$v "
    done
    value=${value# } TABLES=${value% }
    export TABLES
  fi
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
  sweep_ns=$(replicate_groups | cut -f3 | tr ' ' '\n' | sort -n -u | tr '\n' ' ')
  sweep_ns=${sweep_ns% }
  [ -z "$quick" ] || [ -z "${HITS:-}" ] || HITS=$((HITS / 10))
  [ -n "${PEERS+set}" ] || PEERS=$(replicate_rows | awk -F '\t' '$3 != "-" { print $3 }' | while IFS= read -r p; do
    g=$(catalogue_column 3 "$p")
    [ "$g" = ours ] || peer_name "$g"
  done | awk '!seen[$0]++' | tr '\n' ' ')
  PEERS=${PEERS% }
}

# replicate_rows: the rows of the write-up ($pubfile), as ID, scenario, program here, variant,
# threads and its label, in its order, each followed by its program's copies built against a set of
# PEERS_PATCH or for a version of PEERS_DOTNET (program@SET: row ID+SET); then ours, one row per
# scenario, variant and threads among them ("ours" and those, joined by ":"), labelled as ours.
replicate_rows() {
  printf '%s\n' "$catalogue_tab" | awk -F '\t' '
    NR == FNR { if ($2 ~ /@[0-9]+$/) { p = $2; sub(/@[0-9]+$/, "", p); if (!((p, $2) in copy)) { copy[p, $2] = 1; copies[p] = copies[p] " " $2 } } next }
    $1 == "row" {
      print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7
      n_c = split(copies[$4], c, " ")
      for (i = 1; i <= n_c; i++) print $2 "+" substr(c[i], index(c[i], "@") + 1) "\t" $3 "\t" c[i] "\t" $5 "\t" $6 "\t" $7
      k = $3 "\t" $5 "\t" $6; if (!(k in seen)) { seen[k] = 1; ours[++n] = k } }
    END { for (i = 1; i <= n; i++) { split(ours[i], f, "\t")
        printf "ours:%s%s%s\t%s\t%s\t%s\t%s\tc++20 (this repo)\n", f[1], f[2] == "-" ? "" : ":" f[2], f[3] == "-" ? "" : ":" f[3] "t", f[1], f[1], f[2], f[3] } }' - "$pubfile"
}

# replicate_groups: the write-up's tables ($pubfile) by their settings, a line per group in their
# order, tab-separated: its number, its settings (VAR=VALUE ..., "-" for none), its N list in
# increasing order and its scenarios ("-": every scenario). With --quick, each N above 1 is divided
# by 10, and a table's HITS too. Then, where a group's coro_timer or coro_shared tables sleep less
# than --peers does (peers_sleep_ms), a group per such scenario that runs it again at the largest N
# of its tables with --peers' sleep, numbered after the others, its fifth field the groups' numbers
# (groups that differ only in their sleep share one).
# A task that ends before the last one is spawned frees memory, so at a write-up's short sleep some
# runtimes' rows here hold fewer than N tasks at once (the all-alive cell says so); this row holds all.
replicate_groups() {
  awk -F '\t' -v quick="$quick" -v long_ms="$peers_sleep_ms" "$(published_awk)"'
    function q(n) { return quick && n >= 10 ? int(n / 10) : n }
    END {
      for (t = 1; t <= nt; t++) {
        g = tgroup[t]; ns[g] = ns[g] " " q(tn[t]); sc[g] = sc[g] " " tscen[t]
        if (!(g in set)) { set[g] = tset[t]; if (quick && match(set[g], /(^| )HITS=[0-9]+/)) {
          h = substr(set[g], RSTART, RLENGTH); sub(/HITS=[0-9]+/, "HITS=" q(substr(h, index(h, "=") + 1)), set[g]) } }
        # The largest N of each sleep scenario among the group of tables.
        k = split(tscen[t] == "-" ? run["scenarios"] : tscen[t], a, " ")
        for (i = 1; i <= k; i++) if ((a[i] == "coro_timer" || a[i] == "coro_shared") && q(tn[t]) + 0 > top[g, a[i]] + 0) top[g, a[i]] = q(tn[t])
      }
      nl = ng
      for (g = 1; g <= ng; g++) {
        k = split(ns[g], a, " "); list = ""
        for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { x = a[i]; a[i] = a[j]; a[j] = x }
        for (i = 1; i <= k; i++) if (i == 1 || a[i] != a[i - 1]) list = list (list == "" ? "" : " ") a[i]
        printf "%d\t%s\t%s\t%s\n", g, set[g] == "" ? "-" : set[g], list, sc[g] ~ / -( |$)/ ? "-" : substr(sc[g], 2)
        ms = sleep_of(set[g])
        # --quick is a first look: its N are not the write-ups, and it adds no rows at 30 s.
        if (quick || ms == "" || ms + 0 >= long_ms + 0) continue
        again = set[g]; gsub(/(^| )SLEEP_MS=[0-9]+/, "", again); sub(/^ /, "", again)
        again = again (again == "" ? "" : " ") "SLEEP_MS=" long_ms
        # Groups that differ in their sleep only share it.
        for (i = 1; i <= 2; i++) { s = i == 1 ? "coro_timer" : "coro_shared"
          if (!((g, s) in top)) continue
          k = again SUBSEP top[g, s] SUBSEP s
          if (k in made) of[made[k]] = of[made[k]] "," g
          else { made[k] = ++nl; lset[nl] = again; ln[nl] = top[g, s]; ls[nl] = s; of[nl] = g }
        }
      }
      for (l = ng + 1; l <= nl; l++) printf "%d\t%s\t%s\t%s\t%s\n", l, lset[l], ln[l], ls[l], of[l]
    }' "$pubfile"
}

# plan_replicate: the plan of the replication: for each group of tables, with its settings, for
# each row of its scenarios with a program here, a series over the group's N list, labelled with
# the row's ID and the group (ID@GROUP) (plan_peer, as a sweep); a limit line per scenario.
plan_replicate() {
  local g settings ns scen kv
  while IFS=$tab read -r g settings ns scen _ <&4; do
    (
      if [ "$settings" != - ]; then
        for kv in $settings; do printf -v "${kv%%=*}" '%s' "${kv#*=}"; done
      fi
      sweep_ns=$ns
      plan_replicate_group "$g" "$scen"
    ) || return 1
  done 4< <(replicate_groups)
}

# plan_replicate_group GROUP SCENARIOS: the series of one group's rows (SCENARIOS: "-" for all).
plan_replicate_group() {
  local pn id s prog sv t label g opts suffix variant sleep limit seen=' '
  while IFS=$tab read -r id s prog sv t label <&3; do
    [ "$prog" != - ] || continue
    [ "$2" = - ] || case " $2 " in *" $s "*) ;; *) continue ;; esac
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
    series_label=$id@$1 plan_peer "$s" "$prog" "$g" "$sv" "$t" yes "$sleep" "$limit" "$suffix" "$variant" "${START:--}" "$opts"
  done 3< <(replicate_rows)
}

# replicate_guard LABEL N: the memory guard where a series (ID@GROUP) has no
# cost per task of its own yet, from the same row's outcomes in the groups run before it (a write-up's
# tables differ in their settings, not their programs; a group replicate_groups adds runs a row again
# at N): refused, why saying so, where one of them was refused at N; else estimated from its largest
# N up to N with a figure, and its N = 1. A run that timed out is run again, with its own time limit.
replicate_guard() {
  local id=${1%@*} found b ln lr
  found=$(awk -F '\t' -v id="$id" -v n="$2" '
    index($1, id "@") == 1 && index(substr($1, length(id) + 2), "@") == 0 {
      if ($2 == n && $3 ~ /^not run: about /) refused = $3
      if ($3 == "-") { split($4, best, " "); if ($2 == 1) base = best[4]; else if ($2 + 0 <= n + 0 && $2 + 0 > ln + 0) { ln = $2; lr = best[4] } }
    }
    END { if (refused != "") print "refused\t" refused; else if (ln != "") print "guard\t" (base == "" ? 0 : base) "\t" ln "\t" lr }' "$work/rep")
  case $found in
    refused*) why=${found#refused"$tab"} ;;
    guard*) IFS=$tab read -r _ b ln lr <<<"$found" && { guard "$2" "$b" "$ln" "$lr" || :; } ;;
  esac
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
  local id s prog sv t label g variant here
  while IFS=$tab read -r id s prog sv t label <&3; do
    g=- variant=- here=''
    [ "$prog" = - ] || IFS=$tab read -r g variant <<ROW
$(catalogue "$s" | awk -F '\t' -v p="$prog" -v k="$sv" '$1 == p && (k == "-" || $3 == k) { print $2 "\t" $6; exit }')
ROW
    [ "$g" = - ] || here=$(runtime_label "$g")
    # Ours has a row per scenario, variant and worker count of the write-up's rows: each says which.
    if [ "$g" = ours ]; then
      [ "$s" != threads ] || here="$here, a thread per task"
      [ "$sv" = - ] || here="$here, $sv"
      case $t in '' | *[!0-9]*) ;; *) here="$here, T=$t" ;; esac
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$here" "$variant" "$prog" "$(
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
    echo "## $when — replicate $(pub_value "$pubfile" about name)${TABLES:+, tables $TABLES}${quick:+ --quick, N / 10: nothing set against the published figures}"
    echo
    cat "$work/machine"
    echo "- N=$(echo "$sweep_ns" | tr ' ' ','), RUNS=$RUNS${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}$(mode_settings)${quick:+; --quick: every N of the write-up above 1 divided by 10${HITS:+, and HITS too}, so no figure is set against a published one and no claim is judged (keeping N and cutting the sleep instead would change whether every task is alive at once)}"
    [ -z "${TABLES:-}" ] || echo "- TABLES=\"$TABLES\": only these of its tables ran here (of $(TABLES='' awk -F '\t' "$(published_awk)"' END { print nt }' "$pubfile")); a claim on another can be judged on its published figures only"
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
      -v runs_here="$RUNS" -v quick="$quick" -v notes_file="$work/rep.notes" -v long_ms="$peers_sleep_ms" \
      -f "$work/replicate.awk" "$pubfile" "$work/rep.values" "$work/rep.here" <(replicate_groups)
    echo
  } >"$work/section"
}

# replicate_bars: the chart's bars, from the first of the write-up's tables at its largest N: a bar
# per row of it measured here, its label the write-up's with the runtime here, its max RSS, the
# published figure in MiB (from the first column of max RSS, in its unit as the write-up defined
# it), and "no" where its tasks were not all alive at once; smallest first.
replicate_bars() {
  awk -F '\t' -v quick="$quick" "$(published_awk)"'
    FILENAME == ARGV[2] { here[$1] = $2; if ($1 ~ /^ours:/) { ours[$1] = 1; rscen[$1] = $4 }
      else add_copy($1, $5) }
    FILENAME == ARGV[3] { max_kib[$1, $2] = $7; why[$1, $2] = $3; alive[$1, $2] = $10 }
    END {
      for (t = 1; t <= nt; t++) if (!top || tn[t] + 0 > tn[top] + 0) top = t
      for (c = 1; c <= nc; c++) if (measure[cols[c]] == "max_rss") { col = cols[c]; break }
      n = tn[top]; if (quick && n >= 10) n = int(n / 10)
      for (r = 1; r <= nr; r++) {
        bar(rows[r], label[rows[r]] " (" here[rows[r]] ")")
        for (i = 1; i <= ncopies[rows[r]]; i++) bar(copies[rows[r], i], label[rows[r]] " (" here[copies[rows[r], i]] ")")
      }
      for (id in ours) bar(id, here[id])
    }
    function bar(id, name,   l, k, p) {
      if (tscen[top] != "-" && rscen[id] != tscen[top]) return
      l = id "@" tgroup[top]
      if (why[l, n] != "-" || max_kib[l, n] == "") return
      k = (id in base ? base[id] : id) SUBSEP tkey[top] SUBSEP col
      p = col == "" || quick || !(k in plo) ? "-" : sprintf("%.1f", (plo[k] + phi[k]) / 2 / 1024)
      printf "%s\t%.1f\t%s\t%s\n", name, max_kib[l, n] / 1024, p, alive[l, n] ~ /^no/ ? "no" : "-"
    }' "$pubfile" "$work/rep.here" "$work/rep.values" | sort -t "$tab" -k2,2n
}

# The section's tables, claims and differences, from the data file (first input, read by
# published_awk), the points (second) and the programs here (third).
replicate_awk() {
  published_awk
  cat <<'AWK'
# here(L, N, M, U): the figure measured here of label L (ROW@GROUP) at N, of measure M in unit U,
# as the table shows it; "" when there is none.
function here(l, n, m, u,   k, kib, v) {
  k = l SUBSEP n
  if (!(k in why) || why[k] != "-") return ""
  if (m == "max_rss") kib = rss[k]; else if (m == "avg_rss") kib = avg[k]; else if (m == "rss_wait") kib = wait[k]
  else if (m == "avg_rss_window") kib = wavg[k]; else if (m == "max_rss_mean") kib = rmean[k]
  else if (m == "cpu_pct") return wall[k] > 0 ? sprintf("%d", (user[k] + sys[k]) / wall[k] * 100 + 0.5) : ""
  else if (m == "wall") v = wall[k]; else if (m == "user") v = user[k]; else if (m == "sys") v = sys[k]
  else if (m == "wall_mean") v = wmean[k]
  if (m ~ /rss/) {
    if (!has(kib)) return ""
    if (u == "KiB,") return thousands(kib)
    if (u == "GB") return sprintf("%.2f", kib / size[u])
    return sprintf(size[u] > 1 ? "%.1f" : "%d", kib / size[u])
  }
  if (u == "m:ss") return sprintf("%d:%02d", int(v / 60), int(v) % 60)
  if (u == "ms") return sprintf("%.2f", v * 1000)
  return sprintf("%.2f", v)
}
# thousands(V): V with a comma between each three digits from the right ("992,608"); no regex
# intervals ({4}), which mawk 1.3.4 never matches.
function thousands(v,   s, t) { s = sprintf("%d", v); t = ""; while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) } return s t }
function cell(v) { gsub(/[|]/, "\\|", v); return v }
# unit_of(ID, T, C): the unit row ID's figures are in, in column C: its published figure's there,
# else the row's in another table, else the column's first.
function unit_of(id, t, c,   k) {
  k = id SUBSEP t SUBSEP c
  return k in funit ? funit[k] : (id, c) in rowunit ? rowunit[id, c] : first_unit(units[c])
}
FILENAME == ARGV[2] { k = $1 SUBSEP $2; why[k] = $3; wall[k] = $4; user[k] = $5; sys[k] = $6; rss[k] = $7; avg[k] = $8; wait[k] = $9; alive[k] = $10
  wavg[k] = $12; wmean[k] = $13; rmean[k] = $14; next }
FILENAME == ARGV[3] {
  hlabel[$1] = $2; hvariant[$1] = $3; hprog[$1] = $4; state[$1] = $5
  if ($1 ~ /^ours:/) { ours[++no] = $1; label[$1] = $2; rscen[$1] = $4 }
  else add_copy($1, $5)
  next
}
# The groups (replicate_groups): a group whose rows run again at --peers' sleep, and at which N.
FILENAME == ARGV[4] {
  if ($5 == "") { if ($2 != "-") gset[$1] = $2; next }
  k = split($5, of_, ","); for (i = 1; i <= k; i++) long_of[of_[i], $4] = $1
  long_n[$1] = $3; next
}
function base_of(id) { return id in base ? base[id] : id }
function secs(ms) { return sprintf("%g", ms / 1000) }
# row(T, N, ID, L, LONG): the line of row ID in table T, its figures those of label L at N; LONG: the
# row again at --peers' sleep, with no published figure beside it. Keeps each figure (hlo, hhi,
# hshown) for the claims, keyed by ID, table and column.
function row(t, n, id, l, long,   b, k, line, c, col, u, mixed, h, v, fk, hk, p, ra, x, mine) {
  b = base_of(id); k = l SUBSEP n; mine = id ~ /^ours:/ || long
  line = "| " cell(id ~ /^ours:/ ? "-" : label[b]) " | "
  if (id !~ /^ours:/ && prog[b] == "-") line = line "not to be had here |"
  else if (!(id in hlabel)) line = line "- |"
  else line = line cell(hlabel[id] (long ? ", at a " secs(long_ms) " s sleep" : "")) " |"
  for (c = 1; c <= nc; c++) {
    col = cols[c]; u = unit_of(b, tkey[t], col); mixed = index(units[col], "/") > 0
    h = here(l, n, measure[col], u); fk = b SUBSEP tkey[t] SUBSEP col; hk = id SUBSEP tkey[t] SUBSEP col; p = fig[fk]
    v = h == "" ? "" : numeric(h) * size[u]
    if (v != "" && !long) { hlo[hk] = hhi[hk] = v; hshown[hk] = h }
    if (h == "" && c == 1) h = id !~ /^ours:/ && prog[b] == "-" ? "-" : (k in why) ? why[k] : (state[id] == "" || state[id] == "ok" ? "-" : "not run: " state[id])
    else if (h == "") h = "-"
    ra = "-"
    if (v != "" && (fk in plo) && plo[fk] > 0) {
      ra = sprintf("%.2f", v / phi[fk]); x = sprintf("%.2f", v / plo[fk])
      if (x != ra) ra = ra "–" x
    }
    if (mixed && v != "") h = h " " u
    if (mixed && has(p)) p = p " " funit[fk]
    if (quick) line = line " " cell(h) " |"
    else line = line " " cell(h) " | " (mine ? "" : cell(p == "" ? "-" : p)) " | " (mine ? "" : ra) " |"
  }
  print line " " ((k in alive) && has(alive[k]) ? cell(alive[k]) : "-") " |"
}
END {
  # The rows in the write-up's order, each followed by its program's copies; then ours.
  for (r = 1; r <= nr; r++) { order[++nor] = rows[r]; for (i = 1; i <= ncopies[rows[r]]; i++) order[++nor] = copies[rows[r], i] }
  for (i = 1; i <= no; i++) order[++nor] = ours[i]
  # The tables, in the write-up's order.
  for (t = 1; t <= nt; t++) {
    key = tkey[t]; n = tn[t]; if (quick && n >= 10) n = int(n / 10); g = tgroup[t]
    settings = tset[t]; gsub(/ /, ", ", settings)
    printf "### %s%s%s\n\n", ttitle[t], settings == "" ? "" : " (" settings ")", quick && n != tn[t] ? " (here N=" n ", --quick)" : ""
    head = "| runtime there | runtime here |"; sep = "|---|---|"
    for (c = 1; c <= nc; c++) {
      u = units[cols[c]]; if (u == "KiB,") u = "KiB"
      # --quick measures at N / 10: no published figure stands beside it (here, or in the chart).
      if (quick) { head = head sprintf(" %s here %s |", ctitle[cols[c]], u); sep = sep "--:|" }
      else { head = head sprintf(" %s here %s | published %s | here / published |", ctitle[cols[c]], u, u); sep = sep "--:|--:|--:|" }
    }
    print head " all alive |"; print sep "---|"
    for (i = 1; i <= nor; i++) {
      id = order[i]
      if (tscen[t] != "-" && rscen[base_of(id)] != tscen[t]) continue
      row(t, n, id, id "@" g, 0)
      # At the group's largest N, the row again at --peers' sleep, where the write-up's was shorter.
      lg = long_of[g, rscen[base_of(id)]]
      if (lg != "" && n == long_n[lg] && (id ~ /^ours:/ || prog[base_of(id)] != "-")) {
        row(t, n, id, id "@" lg, 1)
        ms = secs(sleep_of(gset[g])) " s"; if (index(", " shorts ", ", ", " ms ", ") == 0) shorts = shorts (shorts == "" ? "" : ", ") ms
      }
    }
    # A row with no published figure in several columns, for one reason: one line.
    for (r = 1; r <= nr; r++) for (c = 1; c <= nc; c++) if ((rows[r], key, cols[c]) in figwhy) {
      nline = sprintf("- %s, %s: published \"-\": %s\n", label[rows[r]], ttitle[t], figwhy[rows[r], key, cols[c]])
      if (!(nline in noted)) { noted[nline] = 1; notes = notes nline }
    }
    print ""
  }
  printf "%s", notes
  if (shorts != "") printf "- \"at a %s s sleep\": the row's program again at that N, with --peers' sleep instead of the write-up's (%s). A task that ends before the last one is spawned frees memory that the max RSS then never holds, and spawning N tasks here can take longer than the write-up's sleep (the fresh-memory line above says why), so only a row whose tasks were all alive measures N tasks waiting at once. The published figure was measured at the write-up's sleep, so none stands beside this row\n", secs(long_ms), shorts
  if ("figures" in about) printf "- published: none here: %s\n", about["figures"]
  if (quick) printf "- each figure here is the run with the lowest wall time of RUNS=%s, max RSS and CPU from /usr/bin/time (CPU %% = (user + sys) / wall), in the write-up's unit as it defined it: %s\n", runs_here, about["unit"]
  else printf "- here / published: the figure measured here over the one published (over its lowest and highest reading where it printed several); each figure here is the run with the lowest wall time of RUNS=%s, max RSS and CPU from /usr/bin/time (CPU %% = (user + sys) / wall), converted to the write-up's unit as it defined it: %s\n", runs_here, about["unit"]
  printf "- the write-up: \"%s\", %s, %s (%s), read %s; its machine: %s; its versions: %s; its runs: %s\n", about["title"], about["author"], about["published"], about["url"], about["read"], about["machine"], about["versions"], about["runs"]
  while ((getline line < notes_file) > 0) print line
  print ""
  # Where the write-up states a version that the row's build here is not and a copy of its program
  # is (PEERS_PATCH, PEERS_DOTNET), the claims are judged on that copy's figures.
  for (i = 1; i <= nf; i++) if (fkey[i] == "version" && (fid[i] in isrow) && fval[i] != "-" && !same_version(fid[i], fval[i]))
    for (j = 1; j <= ncopies[fid[i]]; j++) if (state[copies[fid[i], j]] == "ok" && same_version(copies[fid[i], j], fval[i])) { judged_on[fid[i]] = copies[fid[i], j]; break }
  for (b in judged_on) for (t = 1; t <= nt; t++) for (c = 1; c <= nc; c++) {
    k = b SUBSEP tkey[t] SUBSEP cols[c]; kc = judged_on[b] SUBSEP tkey[t] SUBSEP cols[c]
    delete hlo[k]; delete hhi[k]; delete hshown[k]
    if (kc in hlo) { hlo[k] = hlo[kc]; hhi[k] = hhi[kc]; hshown[k] = hshown[kc] }
  }
  # The claims, each as the write-up states it and, where its own figures bear out something more
  # precise, that too; each checked on the published figures and on those measured here.
  if (ncl && quick) printf "- its claims: not judged with --quick, whose N are not the write-up's\n\n"
  if (ncl && !quick) {
    print "### Its claims, checked"
    print ""
    print "| claim | published | holds there? | here | holds here? |"
    print "|---|---|---|---|---|"
    for (i = 1; i <= ncl; i++) {
      claim_row(cwords[i], claim[i])
      if (precise[i] != "") claim_row("precisely: " pwords[i], precise[i])
    }
    print ""
    for (r = 1; r <= nr; r++) if (rows[r] in judged_on)
      say(sprintf("- here, %s is judged on its %s row, the write-up's version\n", label[rows[r]], hlabel[judged_on[rows[r]]]))
    if (length(judged_on)) print ""
  }
  # What differs, from the facts of the data file and this run.
  print "### What differs between its runs and these"
  print ""
  printf "- the machine: %s there; %s here\n", about["machine"], machine_here
  printf "- runs: %s there; the best of RUNS=%s here\n", about["runs"], runs_here
  if (quick) print "- N: the write-up's there; each N above 1 divided by 10 here (--quick)"
  for (i = 1; i <= nf; i++) for (r = 1; r <= nr; r++) {
    id = rows[r]
    if (fid[i] != id && fid[i] != "*") continue
    if (fid[i] == "*" && (prog[id] == "-" || done_all[i])) continue
    who = fid[i] == "*" ? "every program" : label[id]
    if (fid[i] == "*") done_all[i] = 1
    if (fkey[i] == "version" && prog[id] != "-") {
      beside = ""
      for (j = 1; j <= ncopies[id]; j++) beside = beside (j > 1 ? ", " : "") hlabel[copies[id, j]]
      if (fval[i] == "-" || !same_version(id, fval[i]))
        say(sprintf("- %s: %s there; %s here%s\n", who, fwords[i], hlabel[id] == "" ? "not run" : hlabel[id],
          (beside == "" ? "" : ", and beside it " beside) (id in judged_on && !quick ? "; its claims are judged on " hlabel[judged_on[id]] : "")))
    } else if (fkey[i] == "launcher" && fval[i] != "built") say(sprintf("- %s: %s there; a built binary here\n", who, fwords[i]))
    else if (fkey[i] == "shape" && prog[id] != "-" && index(hvariant[id], fval[i]) == 0) say(sprintf("- %s: %s there; %s here\n", who, fwords[i], hvariant[id]))
    else if (fkey[i] == "missing") say(sprintf("- %s: not run here: %s\n", who, fwords[i]))
    else if (fkey[i] != "version" && fkey[i] != "launcher" && fkey[i] != "shape") say(sprintf("- %s: %s there (%s)\n", who, fwords[i], fkey[i]))
  }
  for (r = 1; r <= nr; r++) if (rows[r] in nobuild) printf "- %s, as published: %s\n", label[rows[r]], nobuild[rows[r]]
}
# say(LINE): prints LINE once: rows of several tables under one label (a write-up's timer and
# shared rows, say) state the same difference once.
function say(line) { if (!(line in said)) { said[line] = 1; printf "%s", line } }
# same_version(ID, V): the runtime here of row ID is version V (V "1.41" holds 1.41.1, not 1.4.1).
function same_version(id, want,   v) { v = hlabel[id]; sub(/^[^0-9]*/, "", v); sub(/[^0-9.].*$/, "", v); return index(v ".", want ".") == 1 }
function claim_row(words, expr,   th, tf) {
  judge(expr, plo, phi, pshown); th = verdict; tf = figures
  judge(expr, hlo, hhi, hshown)
  printf "| %s (`%s`) | %s | %s | %s | %s |\n", cell(words), expr, cell(tf), th, cell(figures), verdict
}
AWK
}
