// atomic_counter, Node (the scoreboard test): N async functions loop { hits++; await sleep };
// main polls every 100 ms and, at HITS (default 10 x N), tells them to stop and awaits them all.
// --mode once: each sleeps once, increments once and ends; main polls until N hits.
// --spawn-from task: one async function spawns the N, pausing --burst-pause-ms after every --burst,
// while main only polls, as in the 2022 follow-up to the scoreboard.
// Run:    node atomic_counter.js N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms 100]
//                               [--spawn-from main|task] [--burst K] [--burst-pause-ms 1000]
// Prints: scenario=atomic_counter runtime=node n=N ... spawn_ms=S reached_ms=R wall_ms=W hits=H
//         hits_per_s=P completed=C; exits 1 if C != N, the hits fall short, a task ended before the
//         stop (loop) or a hit came before its sleep was over (once).
// Progress on stderr: the hits about once a second.
// One thread runs all JavaScript, so a plain counter is the atomic one; "from a task" here means
// from an async function that main does not wait for, which yields to the others at each pause.
'use strict';
const { promisify } = require('util');
const sleep = promisify(setTimeout);

let hits = 0;
let stop = false;
let completed = 0;
let firstHit = -1;
const start = performance.now();

async function looper(ms) {
  while (!stop) {
    hits++;
    await sleep(ms);
  }
  completed++;
}

async function once(ms) {
  await sleep(ms);
  if (++hits === 1) firstHit = performance.now() - start;
  completed++;
}

// Spawns the n tasks, pausing after every burst but the last; returns when spawning ended.
async function spawnAll(o, tasks) {
  for (let i = 1; i <= o.n; i++) {
    tasks.push(o.once ? once(o.ms) : looper(o.ms));
    if (o.burst > 0 && i % o.burst === 0 && i < o.n) await sleep(o.pause);
  }
  return performance.now() - start;
}

async function main() {
  const o = args();
  const tasks = [];
  let spawnEnd = -1;
  const spawning = spawnAll(o, tasks).then((t) => { spawnEnd = t; });
  if (!o.fromTask) await spawning; // from main: the loop ran to its end before main polls
  const target = o.once ? o.n : o.hits;
  for (let polls = 1; hits < target || spawnEnd < 0; polls++) {
    await sleep(o.poll);
    if (polls % Math.max(1, Math.floor(1000 / o.poll)) === 0) {
      const rate = Math.round(hits / ((performance.now() - start) / 1000));
      console.error(`atomic_counter: ${hits} of ${target} hits, ${rate} hits/s`);
    }
  }
  const reached = performance.now() - start;
  const endedEarly = completed; // in loop mode, before the stop no task can end
  stop = true; // each task sees it when it wakes, as in the Go version
  await Promise.all(tasks);
  const wall = performance.now() - start;
  check(completed === o.n, `completed ${completed} of ${o.n}`);
  if (o.once) {
    check(hits === o.n, `${hits} hits, expected ${o.n}`);
    // Node may round a timer down by < 1 ms, as in coro_timer.js.
    check(firstHit >= o.ms - 1, `the first hit came ${firstHit.toFixed(1)} ms after the start, before one sleep`);
    check(reached >= spawnEnd + o.ms - 1, 'the last hit came before the last task\'s sleep was over');
  } else {
    check(hits >= o.hits, `${hits} hits, fewer than the target ${o.hits}`);
    check(endedEarly === 0, `${endedEarly} tasks ended before the stop`);
  }
  console.log(`scenario=atomic_counter runtime=node n=${o.n} sleep_ms=${o.ms} ${o.echo} spawn_ms=${Math.round(spawnEnd)} ` +
    `reached_ms=${Math.round(reached)} wall_ms=${Math.round(wall)} hits=${hits} ` +
    `hits_per_s=${Math.round(hits / (reached / 1000))} completed=${completed}`);
}

// N [SLEEP_MS] and the options, as atomic_counter.cpp takes them; anything else is a usage error:
// one line, exit 2.
function args() {
  const a = process.argv.slice(2);
  const fail = (why) => {
    console.error('usage: node atomic_counter.js N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms P] ' +
      `[--spawn-from main|task] [--burst K] [--burst-pause-ms P]  (${why})`);
    process.exit(2);
  };
  const num = (s, min, max, what) => {
    const v = /^\d+$/.test(s) ? Number(s) : -1;
    if (v < min || v > max) fail(`${what} must be a whole number from ${min} to ${max}, got '${s}'`);
    return v;
  };
  if (a.length === 0) fail('N is missing');
  const o = { n: num(a[0], 1, 2 ** 32, 'N'), ms: 1000, hits: 0, poll: 100, burst: 0, pause: 1000 };
  let i = 1;
  if (i < a.length && !a[i].startsWith('--')) o.ms = num(a[i++], 0, 86400000, 'SLEEP_MS');
  let mode = 'loop', from = 'main', pause = '-';
  const seen = new Set();
  for (; i < a.length; i += 2) {
    const key = a[i], v = a[i + 1];
    if (!key.startsWith('--')) fail(`unexpected argument '${key}'`);
    if (v === undefined || seen.has(key)) fail(`'${key}' needs one value, once`);
    seen.add(key);
    switch (key) {
      case '--hits': o.hits = num(v, 1, Number.MAX_SAFE_INTEGER, '--hits'); break;
      case '--mode': if (v !== 'loop' && v !== 'once') fail(`--mode must be loop or once, got '${v}'`); mode = v; break;
      case '--poll-ms': o.poll = num(v, 1, 86400000, '--poll-ms'); break;
      case '--spawn-from': if (v !== 'main' && v !== 'task') fail(`--spawn-from must be main or task, got '${v}'`); from = v; break;
      case '--burst': o.burst = num(v, 1, 2 ** 32, '--burst'); break;
      case '--burst-pause-ms': o.pause = num(v, 0, 86400000, '--burst-pause-ms'); pause = v; break;
      default: fail(`unknown argument '${key}'`);
    }
  }
  o.once = mode === 'once';
  o.fromTask = from === 'task';
  if (o.once && o.hits > 0) fail('--hits applies to --mode loop only');
  if (o.burst > 0 && !o.fromTask) fail('--burst needs --spawn-from task');
  if (pause !== '-' && o.burst === 0) fail('--burst-pause-ms needs --burst');
  if (o.hits === 0) o.hits = 10 * o.n;
  if (o.burst > 0 && pause === '-') pause = '1000';
  o.echo = `mode=${mode} spawn_from=${from} poll_ms=${o.poll} burst=${o.burst} burst_pause_ms=${pause}`;
  return o;
}

function check(ok, what) {
  if (!ok) {
    console.error(`atomic_counter: check failed: ${what}`);
    process.exit(1);
  }
}

main();
