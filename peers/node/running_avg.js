// running_avg, Node: N async functions each draw one Math.random() value in [0, 100) and push it
// into ONE running mean and variance (Welford): a shared object updated in place (mutex: one
// thread runs all JavaScript, so no lock is needed), or pushed into a queue that one consumer async
// function drains, owning the statistics and stopping after N values (channel); Promise.all waits.
// Gated (the default): every task first awaits one promise, resolved after the last task was made,
// so that all N exist before any of them runs (ours makes every task before any runs). Eager
// (--start eager): there is no gate to await, so each async function runs to its end inside the
// call that makes it, as the 2023 programs' tasks start at once.
// Run:    node running_avg.js N mutex|channel [--start gated|eager]
// Prints: scenario=running_avg runtime=node n=N sync=V start=G spawn_ms=S wall_ms=W mean=M variance=V completed=C;
// exits 1 if a value is lost or the mean or variance is more than 6 standard errors off.
'use strict';

// Welford's running mean and sample variance (Welford 1962; Knuth, TAOCP vol. 2, 4.2.2): one
// pass, and no cancellation between two large sums.
function push(stats, x) {
  stats.n++;
  const d = x - stats.mean;
  stats.mean += d / stats.n;
  stats.m2 += d * (x - stats.mean);
}

// The sample variance (divided by n - 1); a single value has no spread: 0.
function variance(stats) {
  return stats.n > 1 ? stats.m2 / (stats.n - 1) : 0;
}

// One consumer's queue: send() never waits (an array has no bound). The consumer, finding it
// empty, awaits a promise that the next send() resolves, so it sleeps instead of polling.
class Queue {
  constructor() {
    this.items = [];
    this.wake = null;
  }

  send(x) {
    this.items.push(x);
    if (this.wake) {
      const wake = this.wake;
      this.wake = null;
      wake();
    }
  }

  // Every value sent since the last call, waiting while there is none.
  async receive() {
    while (this.items.length === 0) await new Promise((resolve) => { this.wake = resolve; });
    const batch = this.items;
    this.items = [];
    return batch;
  }
}

async function drawShared(gate, stats) {
  if (gate) await gate;
  push(stats, Math.random() * 100);
}

async function drawSent(gate, queue) {
  if (gate) await gate;
  queue.send(Math.random() * 100);
}

async function consume(queue, stats, n) {
  while (stats.n < n) for (const x of await queue.receive()) push(stats, x);
}

async function main() {
  const [n, variant, startMode] = args();
  const stats = { n: 0, mean: 0, m2: 0 };
  console.error(`running_avg: spawning ${n} tasks`);
  const start = performance.now();
  let open = () => {};
  const gate = startMode === 'gated' ? new Promise((resolve) => { open = resolve; }) : null;
  const queue = new Queue();
  const consumer = variant === 'channel' ? consume(queue, stats, n) : null;
  const tasks = [];
  for (let i = 0; i < n; i++) tasks.push(variant === 'mutex' ? drawShared(gate, stats) : drawSent(gate, queue));
  const spawnMs = Math.round(performance.now() - start);
  console.error(`running_avg: ${n} tasks spawned in ${spawnMs} ms`);
  open();
  const completed = (await Promise.all(tasks)).length;
  await consumer;
  const wall = performance.now() - start;

  // Uniform on [0, 100): mean 50, variance 100^2/12; the standard error of the sample variance
  // is sqrt(mu4 - sigma^4)/sqrt(N), mu4 = 100^4/80.
  const mean = stats.mean;
  const v = variance(stats);
  check(completed === n, `completed ${completed} of ${n}`);
  check(stats.n === n, `pushed ${stats.n} values of ${n}`);
  check(Math.abs(mean - 50) <= 6 * Math.sqrt(833.333 / n), `mean ${mean.toFixed(6)} is more than 6 standard errors from 50`);
  // The variance is checked only when N >= 3: at N = 2 the sample variance exceeds the band
  // whenever the two values are more than 89.4 apart, about 1.1 % of honest runs. The mean's band
  // holds for every N.
  if (n >= 3) {
    check(Math.abs(v - 833.333) <= 6 * 745.36 / Math.sqrt(n),
      `variance ${v.toFixed(6)} is more than 6 standard errors from 833.333`);
  }
  console.log(`scenario=running_avg runtime=node n=${n} sync=${variant} start=${startMode} spawn_ms=${spawnMs} wall_ms=${Math.round(wall)} ` +
    `mean=${mean.toFixed(6)} variance=${v.toFixed(6)} completed=${completed}`);
}

// N (digits only, >= 1) and the variant, then --start gated|eager (default gated); anything else
// is a usage error, exit 2.
function args() {
  const a = process.argv.slice(2);
  let start = 'gated';
  if (a.length === 4 && a[2] === '--start' && ['gated', 'eager'].includes(a[3])) start = a.splice(2)[1];
  const n = /^\d+$/.test(a[0] ?? '') ? Number(a[0]) : 0;
  if (a.length !== 2 || n < 1 || !Number.isSafeInteger(n) || !['mutex', 'channel'].includes(a[1])) {
    console.error('usage: node running_avg.js N mutex|channel [--start gated|eager]  (N >= 1)');
    process.exit(2);
  }
  return [n, a[1], start];
}

function check(ok, what) {
  if (!ok) {
    console.error(`running_avg: check failed: ${what}`);
    process.exit(1);
  }
}

main();
