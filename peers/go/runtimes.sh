# peers/go/runtimes.sh: Go's goroutines, built with go build (and again with each Go of PEERS_GO).
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain go go golang-go
family_commands GO=go
family_runtime 'go | go | go | go @V@ | GOMAXPROCS=@T@ | -'
family_threads 'Go: GOMAXPROCS = cores' \
  'Go GOMAXPROCS=T'
family_programs <<'EOF'
coro_timer     | go-coro_timer          | go | -       | -       | -              | - | goroutine + time.Sleep, WaitGroup
coro_shared    | go-coro_shared         | go | -       | -       | -              | - | goroutines wait on one channel, close()
coro_shared    | go-coro_shared_sleeper | go | -       | -       | sleeper closes | - | goroutines wait on one channel a sleeping goroutine closes (the 2024 comparison)
atomic_counter | go-atomic_counter      | go | -       | counter | -              | - | goroutine loop + time.Sleep
running_avg    | go-running_avg         | go | mutex   | start   | -              | - | mutex: goroutine per task; sync.Mutex
running_avg    | go-running_avg         | go | channel | start   | -              | - | channel: goroutine per task; a chan to one consumer
hash_collect   | go-hash_collect        | go | mutex   | start   | -              | - | mutex: goroutine per task; sync.Mutex
hash_collect   | go-hash_collect        | go | channel | start   | -              | - | channel: goroutine per task; a chan to one consumer
EOF

detect_go() {
  local out
  have "$GO" || { missing go "\`$GO\`"; return 1; }
  out=$("$GO" version 2>&1 | head -n 1)
  first_version "$(echo "$out" | awk '{ print $3 }')" >"$pw/go.version"
  echo "$out"
}

# go_version GROUP: "" for the default Go's group; for a copy GROUP@SET, the Go of that set of PEERS_GO (1.23).
go_version() { case $1 in *@*) patch_set "${1##*@}" | sed 's/^go=//' ;; esac; }

# go_of VERSION: that Go's command: Debian's golang-VERSION holds it in /usr/lib/go-VERSION/bin, PEERS_GOROOT (its
# @V@ the version) names another place.
go_of() { local r=${PEERS_GOROOT:-/usr/lib/go-@V@}; echo "${r//@V@/$1}/bin/go"; }

# A copy's Go that is not there is Debian's golang-VERSION, installed as the missing toolchains are (as root, unless
# PEERS_INSTALL=no), from the suite of apt's sources that has it, the release's backports added where none does.
ready_go() {
  local v
  v=$(go_version "$1")
  [ -n "$v" ] && [ ! -x "$(go_of "$v")" ] && [ "$(go_of "$v")" = "/usr/lib/go-$v/bin/go" ] &&
    [ "$PEERS_INSTALL" != no ] && [ "$(id -u)" = 0 ] && have apt-get || return 0
  mkdir -p "$pb/logs" && apt_backports "golang-$v" "$pb/logs/install-go.log"
  tc_label="go $v (PEERS_GO)" install_toolchain go "golang-$v" || :
}

# go_missing VERSION: why that Go is not here, for its copy's rows.
go_missing() {
  local go
  go=$(go_of "$1")
  printf 'error: go %s is not installed ' "$1"
  if [ "$go" != "/usr/lib/go-$1/bin/go" ]; then echo "where PEERS_GOROOT says (no bin/go there)"; return; fi
  printf '(no %s)' "$go"
  if [ "$PEERS_INSTALL" = no ]; then echo "; PEERS_INSTALL=no: apt-get install golang-$1"
  elif [ "$(id -u)" != 0 ] || ! have apt-get; then
    echo "; run.sh installs it as root only: sudo apt-get install golang-$1 (Debian 12: bookworm-backports)"
  else echo "; apt-get install golang-$1 failed (PEERS_BUILD/logs/install-go.log)"; fi
}

# A copy builds with its own Go (its runtime column and a heading line name the version that Go reports), from its
# own copy of the sources, whose go.mod still says go 1.18: the language is 1.18's, the compiler and runtime that
# Go's. GOTOOLCHAIN=local: a Go from 1.21 on never fetches another toolchain instead.
build_go() {
  local g=${1:-go} go=$GO v p s
  v=$(go_version "$g")
  if [ -n "$v" ]; then
    echo "$v" >"$pw/$g.version" # until that Go names its whole version
    go=$(go_of "$v")
    [ -x "$go" ] || { go_missing "$v"; return 1; }
    first_version "$("$go" version 2>&1 | awk '{ print $3; exit }')" >"$pw/$g.version"
    echo "- go (PEERS_GO=$v): $("$go" version 2>&1 | head -n 1)" >>"$pw/tools"
  fi
  copy_src go "$g" || return 1
  for p in $(programs_of "$g"); do
    s=${p%@*}
    (cd "$pb/src/$g" && GOTOOLCHAIN=local "$go" build -o "$pb/bin/$p" "./${s#go-}") || return 1
  done
}
