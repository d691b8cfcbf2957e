# peers/java/runtimes.sh: Java: CompletableFuture and executors on the JDK on PATH; virtual threads
# and platform threads per task on a JDK of 21 or newer.
# The descriptor of this family of peers, sourced by peers/lib.sh (its header says what each line
# declares); then the functions that find its toolchain and build its programs.

family_toolchain java openjdk default-jdk-headless
family_commands JAVA=java JAVAC=javac
family_runtime 'java | java | java | java @V@ | BENCH_THREADS=@T@ | -'
family_runtime 'javathreads | java | java | java @V@ | - | one per task'
family_runtime 'java21 | java | java | java @V@ | JAVA_TOOL_OPTIONS=-Djdk.virtualThreadScheduler.parallelism=@T@ | -'
# The JVM (17 on) writes /tmp/perf-PID.map of its compiled methods as it exits, and keeps frame pointers in them.
for g in java javathreads java21; do
  family_profile "$g" 'JAVA_TOOL_OPTIONS=-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer'
done
family_threads "Java: the timer executor one thread, running_avg's and hash_collect's pool one per core" \
  "Java BENCH_THREADS=T (the executor's size: the timer's, or running_avg's and hash_collect's pool; virtual threads: jdk.virtualThreadScheduler.parallelism)"
family_programs <<'EOF'
threads      | java-threads              | java        | -       | -     | -                 | Threads            | platform Thread per task
coro_timer   | java-coro_timer           | java        | -       | -     | CompletableFuture | CoroTimer          | CompletableFuture + ScheduledExecutorService (not virtual threads)
coro_timer   | java-virtual-coro_timer   | java21      | -       | -     | virtual threads   | VirtualTimer       | virtual thread + Thread.sleep
coro_shared  | java-coro_shared          | java        | -       | -     | CompletableFuture | CoroShared         | thenRun on one CompletableFuture (not virtual threads)
coro_shared  | java-virtual-coro_shared  | java21      | -       | -     | virtual threads   | VirtualShared      | virtual threads await one CountDownLatch
running_avg  | java-running_avg          | java        | mutex   | -     | -                 | RunningAvg         | mutex: Runnable per task on a fixed pool, queued; ReentrantLock
running_avg  | java-running_avg          | java        | channel | -     | -                 | RunningAvg         | channel: Runnable per task on a fixed pool, queued; a queue to one consumer thread
running_avg  | java-threads-running_avg  | javathreads | mutex   | start | platform threads  | ThreadsRunningAvg  | mutex: platform Thread per task; ReentrantLock
running_avg  | java-threads-running_avg  | javathreads | channel | start | platform threads  | ThreadsRunningAvg  | channel: platform Thread per task; a queue to one consumer thread
running_avg  | java-virtual-running_avg  | java21      | mutex   | start | virtual threads   | VirtualRunningAvg  | mutex: virtual thread per task; ReentrantLock
running_avg  | java-virtual-running_avg  | java21      | channel | start | virtual threads   | VirtualRunningAvg  | channel: virtual thread per task; a queue to one consumer thread
hash_collect | java-hash_collect         | java        | mutex   | -     | -                 | HashCollect        | mutex: Runnable per task on a fixed pool, queued; ReentrantLock
hash_collect | java-hash_collect         | java        | channel | -     | -                 | HashCollect        | channel: Runnable per task on a fixed pool, queued; a queue to one consumer thread
hash_collect | java-threads-hash_collect | javathreads | mutex   | start | platform threads  | ThreadsHashCollect | mutex: platform Thread per task; ReentrantLock
hash_collect | java-threads-hash_collect | javathreads | channel | start | platform threads  | ThreadsHashCollect | channel: platform Thread per task; a queue to one consumer thread
hash_collect | java-virtual-hash_collect | java21      | mutex   | start | virtual threads   | VirtualHashCollect | mutex: virtual thread per task; ReentrantLock
hash_collect | java-virtual-hash_collect | java21      | channel | start | virtual threads   | VirtualHashCollect | channel: virtual thread per task; a queue to one consumer thread
EOF

detect_java() {
  local out v j
  have "$JAVAC" || { missing java "\`$JAVAC\`"; return 1; }
  have "$JAVA" || { missing java "\`$JAVA\`"; return 1; }
  # grep: JAVA_TOOL_OPTIONS adds a "Picked up ..." line first.
  out=$("$JAVA" -version 2>&1 | grep -m 1 'version "')
  first_version "$out" >"$pw/java.version"
  out="$out; $("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')"
  # Virtual threads need 21 or newer, often a second JDK beside the one on PATH.
  v=$(jdk21)
  if [ -n "$v" ]; then
    printf '%s\n' "$v" >"$pw/java21.jdk"
    j=$("$(echo "$v" | cut -d'|' -f2)" -version 2>&1 | grep -m 1 'version "')
    first_version "$j" >"$pw/java21.version"
    out="$out; virtual threads: $j (${v%%|*})"
  fi
  echo "$out"
}

build_java() {
  local p
  copy_src java && rm -rf "$pb/java" && mkdir -p "$pb/java" && "$JAVAC" -d "$pb/java" "$pb/src/java"/*.java || return 1
  for p in $(programs_of java); do launcher "$p" "$(command -v "$JAVA")" -cp "$pb/java" "$(java_class "$p")" || return 1; done
}

# jdk_major DIR: the major version of the JDK in DIR (its bin/javac and bin/java), "" if none.
jdk_major() {
  [ -x "$1/bin/javac" ] && [ -x "$1/bin/java" ] || return 0
  first_version "$("$1/bin/javac" -version 2>&1 | grep -m 1 '^javac ')" | sed 's/\..*//'
}

# jdk21: "WHERE|JAVA|JAVAC" of the JDK that runs the virtual-thread peers, 21 or newer: JAVA_HOME's,
# else the newest in PEERS_JDKS (Linux's /usr/lib/jvm, macOS's JavaVirtualMachines), else the one on
# PATH ($JAVAC, $JAVA); nothing when there is none.
jdk21() {
  local d v best='' bestv=0
  v=$(jdk_major "${JAVA_HOME:-/nonexistent}")
  if [ "${v:-0}" -ge 21 ]; then echo "JAVA_HOME=$JAVA_HOME|$JAVA_HOME/bin/java|$JAVA_HOME/bin/javac"; return; fi
  # shellcheck disable=SC2086 # a list of globs
  for d in $PEERS_JDKS; do
    v=$(jdk_major "$d")
    if [ "${v:-0}" -gt "$bestv" ] && [ "${v:-0}" -ge 21 ]; then best=$d bestv=$v; fi
  done
  if [ -n "$best" ]; then echo "$best|$best/bin/java|$best/bin/javac"; return; fi
  v=$(first_version "$("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')")
  [ "${v%%.*}" -lt 21 ] 2>/dev/null || [ -z "$v" ] || echo "PATH|$(command -v "$JAVA")|$(command -v "$JAVAC")"
}

# The programs in java/jdk21 need a JDK of 21 or newer, found by detect (jdk21): the virtual
# threads (java21) and the platform thread per task of running_avg and hash_collect (javathreads,
# written with Thread.ofPlatform() beside Thread.ofVirtual()).
ready_java21() { jdk21_ready "virtual threads"; }

ready_javathreads() { jdk21_ready "platform threads (running_avg, hash_collect)"; }

jdk21_ready() {
  [ ! -s "$pw/java21.jdk" ] || return 0
  echo "java $1: not run, they need JDK 21 or newer and none was found (JAVA_HOME, then PEERS_JDKS=$PEERS_JDKS, then PATH, whose javac is $(first_version "$("$JAVAC" -version 2>&1 | grep -m 1 '^javac ')"))" >>"$pw/notes"
  return 1
}

build_java21() { build_jdk21 java21; }

build_javathreads() { build_jdk21 javathreads && cp "$pw/java21.version" "$pw/javathreads.version"; }

# build_jdk21 GROUP: compiles java/jdk21 (and Rss.java, which its programs share with the JDK 17
# ones) into $pb/GROUP with that JDK, and a launcher for each program of GROUP.
build_jdk21() {
  local p java
  java=$(cut -d'|' -f2 "$pw/java21.jdk")
  copy_src java "$1" && rm -rf "${pb:?}/$1" && mkdir -p "$pb/$1" &&
    "$(cut -d'|' -f3 "$pw/java21.jdk")" -d "$pb/$1" "$pb/src/$1/jdk21"/*.java "$pb/src/$1/Rss.java" || return 1
  for p in $(programs_of "$1"); do launcher "$p" "$java" -cp "$pb/$1" "$(java_class "$p")" || return 1; done
}
