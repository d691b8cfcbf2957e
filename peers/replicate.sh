# peers/replicate.sh: ./run.sh --replicate [NAME]: a public write-up's tables run again here, in its
# own shape, with its published figures beside ours, its claims checked against both, and what
# differs between its runs and these listed. Each write-up is one data file, peers/published/NAME.tsv
# (peers/README.md, "Published figures", says what its lines mean). The run itself is a sweep of the
# write-up's programs over the N of its tables, a series per group of tables that share their
# settings (harness/plan.py plans it), run by run.sh's run_plan like any other. harness/replicate.py
# reads the data file, checks it and writes the section's tables, claims and differences from the
# store; this file has it checked (check_published), sets its settings, and gives the section its
# head (replicate_head) and its record's data (replicate_fields).
# run.sh sources it after peers/peers.sh; sourcing only defines variables and functions, which use
# run.sh's (dir_of_to, prefixed, plan_py...). Written for macOS's bash 3.2 and BSD tools too, like
# run.sh.

dir_of_to published_dir "${BASH_SOURCE[0]}"
published_dir=$(cd "$published_dir" && pwd)/published
harness_dir=${published_dir%/peers/published}/harness
harness_py=python3 # run.sh's need_python names the interpreter itself

# The variables a write-up's run lines may set (its table lines, all but RUNS).
replicate_vars="SLEEP_MS RUNS HITS MODE SPAWN_FROM POLL_MS BURST BURST_PAUSE_MS START"

# pub_value FILE KIND KEY: the third field of the first line "KIND KEY ...".
pub_value() { awk -F '\t' -v k="$2" -v key="$3" '$1 == k && $2 == key { print $3; exit }' "$1"; }

# check_published FILE: whether FILE parses, each problem on a line: every line a comment or one of
# the kinds with its fields; the about lines the listing needs; the run lines known variables; at
# least one table, column and row, no row or column given twice; the run lines' settings, and each
# table's over them, within run.sh's rules (settings_problem); every figure of a known row, table
# and column, given once, a number, readings or "-" with why, in one of its column's units; every
# fact of a known row; every claim in the grammar, and its recorded answer the one its published
# figures give (its precise form, where it has one, holding on them).
check_published() {
  local ok=1 what line settings problem
  # harness/replicate.py's check first (ok: 0 once its last line, the tables', has come), then the
  # run lines' settings and each table's over them, by run.sh's rules.
  while IFS=$tab read -r what line settings <&3; do
    case $what in
      bad) echo "$line"; ok=2; continue ;;
      tables) [ "$ok" -ne 1 ] || ok=0; continue ;;
    esac
    problem=$(settings_problem "$settings") && continue
    if [ "$what" = run ]; then what="its run lines"; else what="this table's settings, over the run lines'"; fi
    echo "$1:$line: $what: $problem"
    ok=2
    [ "$what" != "its run lines" ] || break # then every table has the problem: said once
  done 3< <("$harness_py" -B "$harness_dir/replicate.py" check "$1")
  [ "$ok" -ne 1 ] || echo "$1:0: harness/replicate.py could not check it (above)"
  [ "$ok" -eq 0 ]
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
      case " $replicate_vars " in *" ${kv%%=*} "*) ;; *) continue ;; esac # harness/replicate.py names the others
      case ${kv#*=} in 0[0-9]*) bad "$kv has a leading zero" ;; esac
      printf -v "${kv%%=*}" '%s' "${kv#*=}"
    done
    check_variants
  } 2>&1) && return 0
  echo "${problem#run.sh: }"
  return 1
}

# replicate_list: every write-up --replicate knows, one entry each, and how long its replication
# takes here: the estimate that --plan --replicate NAME ends with (harness/plan.py).
replicate_list() {
  local f name est
  echo "./run.sh --replicate NAME [--quick] runs one of these write-ups' tables again here:"
  for f in "$published_dir"/*.tsv; do
    [ -f "$f" ] || continue
    "$harness_py" -B "$harness_dir/replicate.py" listing "$f"
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
  local f=$published_dir/$1.tsv v value known problems nl=$'\n' p g pn
  if [ ! -f "$f" ]; then
    known=$(ls "$published_dir" 2>/dev/null | sed -n 's/[.]tsv$//p' | tr '\n' ' ')
    bad "--replicate: unknown write-up '$1' (known: ${known% }; ./run.sh --replicate lists them)"
  fi
  problems=$(check_published "$f" 2>&1) || bad "${problems%%$nl*}"
  pubfile=$f
  # TABLES: some of its tables only, by their ids (a table without one: its N), each once.
  if [ -n "${TABLES:-}" ]; then
    known=$("$harness_py" -B "$harness_dir/replicate.py" check "$f" | sed -n "s/^tables$tab[0-9]*$tab//p")
    known="$known "
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
    value=${!v:-}
    [ -z "$value" ] || bad "$v cannot be set with --replicate: $1 fixes its own (${v}=$(pub_value "$f" run "$v"))"
  done
  for v in $replicate_vars; do
    value=$(pub_value "$f" run "$v")
    [ -n "$value" ] || continue
    if [ "$v" = RUNS ] && [ -n "${RUNS:-}" ]; then continue; fi  # fewer runs: the user's to choose
    printf -v "$v" '%s' "$value"
  done
  scenarios=$(pub_value "$f" run scenarios)
  sweep_ns=$(replicate_groups | cut -f3 | tr ' ' '\n' | sort -n -u | tr '\n' ' ')
  sweep_ns=${sweep_ns% }
  [ -z "$quick" ] || [ -z "${HITS:-}" ] || [ "$HITS" -lt 10 ] || HITS=$((HITS / 10)) # as harness/replicate.py divides N
  if [ -z "${PEERS+set}" ]; then
    PEERS=' '
    while IFS=$tab read -r _ _ p _; do
      [ "$p" != - ] || continue
      catalogue_row_to g "$p" -
      g=${g#*"$tab"} && g=${g#*"$tab"} && g=${g%%"$tab"*}
      [ "$g" != ours ] || continue
      group_field_to pn 2 "$g"
      case $PEERS in *" $pn "*) ;; *) PEERS="$PEERS$pn " ;; esac
    done < <(replicate_rows)
    PEERS=${PEERS# } PEERS=${PEERS% }
  fi
}

# replicate_rows: the rows of the write-up ($pubfile), as ID, scenario, program here, variant,
# threads and its label, in its order, each followed by its program's copies built against a set of
# PEERS_PATCH or for a version of PEERS_DOTNET (program@SET: row ID+SET); then ours, one row per
# scenario, variant and threads among them ("ours" and those, joined by ":"), labelled as ours.
replicate_rows() { plan_py rows; }

# replicate_groups: the write-up's tables ($pubfile) by their settings, a line per group in their
# order, tab-separated: its number, its settings (VAR=VALUE ..., "-" for none), its N list in
# increasing order and its scenarios ("-": every scenario). With --quick, each N above 1 is divided
# by 10, and a table's HITS too. Then, where a group's coro_timer or coro_shared tables sleep less
# than --peers does (peers_sleep_ms), a group per such scenario that runs it again at the largest N
# of its tables with --peers' sleep, numbered after the others, its fifth field the groups' numbers
# (groups that differ only in their sleep share one).
# A task that ends before the last one is spawned frees memory, so at a write-up's short sleep some
# runtimes' rows here hold fewer than N tasks at once (the all-alive cell says so); this row holds all.
replicate_groups() { "$harness_py" -B "$harness_dir/replicate.py" groups "$pubfile" ${quick:+--quick} "$peers_sleep_ms"; }

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
      if ($3 == "-") { if ($2 == 1) base = $4; else if ($2 + 0 <= n + 0 && $2 + 0 > ln + 0) { ln = $2; lr = $4 } }
    }
    END { if (refused != "") print "refused\t" refused; else if (ln != "") print "guard\t" (base == "" ? 0 : base) "\t" ln "\t" lr }' "$work/rep")
  case $found in
    refused*) why=${found#refused"$tab"} ;;
    guard*) IFS=$tab read -r _ b ln lr <<<"$found" && { guard "$2" "$b" "$ln" "$lr" || :; } ;;
  esac
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

# replicate_head: the lines of a replication's section before its tables, in $work/head: its
# heading, the machine, the write-up and this run's settings, the chart; and its notes, in
# $work/table_notes. harness/replicate.py writes the rest from the section's record
# (replicate_fields): each of the write-up's tables in its own shape (a table per N, its rows in
# its order, ours last; per column the figure here in the write-up's unit, the published one and
# their ratio), the claims, and what differs.
replicate_head() {
  {
    echo "## $when — replicate $(pub_value "$pubfile" about name)${TABLES:+, tables $TABLES}${quick:+ --quick, N / 10: nothing set against the published figures}"
    echo
    cat "$work/machine"
    echo "- N=$(echo "$sweep_ns" | tr ' ' ','), RUNS=$RUNS${SLEEP_MS:+, SLEEP_MS=$SLEEP_MS}$(mode_settings)${quick:+; --quick: every N of the write-up above 1 divided by 10${HITS:+, and HITS too}, so no figure is set against a published one and no claim is judged (keeping N and cutting the sleep instead would change whether every task is alive at once)}"
    [ -z "${TABLES:-}" ] || echo "- TABLES=\"$TABLES\": only these of its tables ran here (of $(grep -c "^table$tab" "$pubfile")); a claim on another can be judged on its published figures only"
    [ "$resumed" -eq 0 ] || echo "- resumed: $resumed of the configurations were measured by an earlier run of this replication at commit $commit, kept in PEERS_BUILD/replicate"
    [ -n "$rep_cache" ] || echo "- not resumable: the tree has changes that are not committed, so no configuration's result is kept for a later run"
    peers_lines | grep -v '^- sleep: '
    echo
    prefixed '' "$work/chart_lines"
  } >"$work/head"
  {
    prefixed '- ' "$pw/limits" "$pw/notes"
    prefixed '- not run: ' "$pw/missing"
    # A worker count above the cores here runs oversubscribed: every worker shares them.
    replicate_rows | awk -F '\t' -v cores="${cores_text%% *}" '$5 ~ /^[0-9]+$/ && $5 + 0 > cores + 0 && !seen[$5]++ {
        printf "- T=%s is more than the %s cores here: its rows are oversubscribed, %s workers taking turns on %s cores\n", $5, cores, $5, cores }'
  } >"$work/table_notes"
}

# replicate_fields: the replication's part of its section's record, for harness/replicate.py, as
# JSON members: the data file's text and which of its tables ran, --quick, --peers' sleep, RUNS,
# the machine here, each row's program here ($work/rep.here, from replicate_here: ID, runtime,
# variant, program, build state) and each point ($work/rep, point_done: ID@GROUP, N, and the plan
# line that measured it or why none did).
replicate_fields() {
  local text='' v line sep='' id n why ref
  IFS= read -r -d '' text <"$pubfile" || :
  json_str_to v "$text" && printf ',"published":%s' "$v"
  json_str_to v "${TABLES:-}" && printf ',"tables":%s' "$v"
  printf ',"quick":"%s","long_ms":%s,"runs_here":"%s"' "$quick" "$peers_sleep_ms" "$RUNS"
  json_str_to v "$(grep -e '^- CPU: ' -e '^- cores: ' -e '^- memory: ' "$work/machine" | sed 's/^- //' | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
  printf ',"machine_here":%s,"here":[' "$v"
  while IFS= read -r line; do
    json_fields_to v "$line" && printf '%s%s' "$sep" "$v"
    sep=,
  done <"$work/rep.here"
  printf '],"points":['
  sep=''
  while IFS=$tab read -r id n why _ ref; do
    json_str_to id "$id"
    if [ "${ref:--}" != - ]; then v="\"ref\":\"$ref\""; else json_str_to v "$why" && v="\"why\":$v"; fi
    printf '%s{"label":%s,"n":%s,%s}' "$sep" "$id" "$n" "$v"
    sep=,
  done <"$work/rep"
  printf ']'
}
