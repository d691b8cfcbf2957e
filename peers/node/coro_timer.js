// coro_timer, Node: N promisified setTimeout sleeps, awaited together with Promise.all.
// Run:    node coro_timer.js N [SLEEP_MS=5000]
// Prints: scenario=coro_timer runtime=node n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R wall_ms=W completed=C;
//         exits 1 if C != N. S: ms from start until the spawn loop returns (every timer is
//         armed at setTimeout); E: tasks already ended by then, always 0 (see below).
'use strict';
const { promisify } = require('util');
const sleep = promisify(setTimeout);

async function main() {
  const [n, ms] = args(5000);
  const start = performance.now();
  const tasks = [];
  for (let i = 0; i < n; i++) tasks.push(sleep(ms));
  const spawnMs = Math.round(performance.now() - start);
  const endedAtSpawn = 0; // JS runs to completion: no timer callback runs before this synchronous loop returns.
  const rssWait = rssKib(); // every task exists and waits
  const completed = (await Promise.all(tasks)).length;
  const wall = performance.now() - start;
  check(completed === n, `completed ${completed} of ${n}`);
  check(wall >= ms - 1, 'the run took less than one sleep'); // Node may round a timer down by < 1 ms
  console.log(`scenario=coro_timer runtime=node n=${n} sleep_ms=${ms} spawn_ms=${spawnMs} ` +
    `ended_at_spawn=${endedAtSpawn} rss_wait_kib=${rssWait} wall_ms=${Math.round(wall)} completed=${completed}`);
}

// N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
function args(defaultMs) {
  const a = process.argv.slice(2);
  const n = /^\d+$/.test(a[0] ?? '') ? Number(a[0]) : 0;
  const ms = a.length > 1 ? (/^\d+$/.test(a[1]) ? Number(a[1]) : -1) : defaultMs;
  if (n < 1 || ms < 0 || a.length > 2) {
    console.error(`usage: node coro_timer.js N [SLEEP_MS=${defaultMs}]  (N >= 1)`);
    process.exit(2);
  }
  return [n, ms];
}

// The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status on Linux, else the
// runtime's own reading.
function rssKib() {
  try {
    return /^VmRSS:\s+(\d+)/m.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1];
  } catch {
    return String(Math.round(process.memoryUsage.rss() / 1024));
  }
}

function check(ok, what) {
  if (!ok) {
    console.error(`coro_timer: check failed: ${what}`);
    process.exit(1);
  }
}

main();
