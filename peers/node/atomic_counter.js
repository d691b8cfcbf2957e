// atomic_counter, Node (the scoreboard test): N async functions loop { hits++; await sleep };
// main polls every 100 ms and, at HITS (default 10 x N), tells them to stop and awaits them all.
// Run:    node atomic_counter.js N [SLEEP_MS=1000 [HITS]]
// Prints: scenario=atomic_counter runtime=node ... hits=H completed=C; exits 1 if C != N.
// Progress on stderr: the hits about once a second.
// One thread runs all JavaScript, so a plain counter is the atomic one.
'use strict';
const { promisify } = require('util');
const sleep = promisify(setTimeout);

let hits = 0;
let stop = false;

async function looper(ms) {
  while (!stop) {
    hits++;
    await sleep(ms);
  }
}

async function main() {
  const [n, ms, target] = args();
  const start = performance.now();
  const tasks = [];
  for (let i = 0; i < n; i++) tasks.push(looper(ms));
  for (let polls = 1; hits < target; polls++) {
    await sleep(100);
    if (polls % 10 === 0) {
      const rate = Math.round(hits / ((performance.now() - start) / 1000));
      console.error(`atomic_counter: ${hits} of ${target} hits, ${rate} hits/s`);
    }
  }
  const reached = performance.now() - start;
  stop = true; // each task sees it when it wakes, as in the Go version
  const completed = (await Promise.all(tasks)).length;
  const wall = performance.now() - start;
  check(hits >= target, `${hits} hits, fewer than the target ${target}`);
  check(completed === n, `completed ${completed} of ${n}`);
  console.log(`scenario=atomic_counter runtime=node n=${n} sleep_ms=${ms} wall_ms=${Math.round(wall)} hits=${hits} ` +
    `hits_per_s=${Math.round(hits / (reached / 1000))} completed=${completed}`);
}

// N (>= 1), SLEEP_MS and HITS (>= 1); anything else is a usage error, exit 2.
function args() {
  const a = process.argv.slice(2);
  const num = (s) => (/^\d+$/.test(s ?? '') ? Number(s) : -1);
  const n = num(a[0]);
  const ms = a.length > 1 ? num(a[1]) : 1000;
  const target = a.length > 2 ? num(a[2]) : 10 * n;
  if (n < 1 || ms < 0 || target < 1 || a.length > 3) {
    console.error('usage: node atomic_counter.js N [SLEEP_MS=1000 [HITS=10*N]]  (N >= 1)');
    process.exit(2);
  }
  return [n, ms, target];
}

function check(ok, what) {
  if (!ok) {
    console.error(`atomic_counter: check failed: ${what}`);
    process.exit(1);
  }
}

main();
