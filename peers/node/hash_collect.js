// hash_collect, Node: N async functions each SHA-512 a fresh crypto.randomUUID() (its 36-character
// text, crypto.createHash('sha512')) and hand the 64-byte digest to one collector: pushed straight
// onto a shared array (mutex: one thread runs all JavaScript, so no lock is needed), or into a queue
// that one consumer async function drains into the array, stopping after N digests (channel);
// Promise.all waits. Gated (the default): every task first awaits one promise, resolved after the
// last task was made, so that all N exist before any of them hashes (ours makes every task before
// any runs). Eager (--start eager): there is no gate to await, so each async function runs to its
// end inside the call that makes it, as the 2023 programs' tasks start at once.
// Run:    node hash_collect.js N mutex|channel [--start gated|eager]
// Prints: scenario=hash_collect runtime=node n=N sync=V start=G spawn_ms=S wall_ms=W completed=C;
// exits 1 if a digest is lost, repeated or wrong.
'use strict';
const crypto = require('crypto');

const sha512 = (text) => crypto.createHash('sha512').update(text).digest();

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

// Task i's UUID text and digest; the check hashes task 0's text again, so it is kept.
function hashed(i, c) {
  const text = crypto.randomUUID();
  if (i === 0) c.first = text;
  return sha512(text);
}

async function hashShared(gate, c, i) {
  if (gate) await gate;
  c.digests.push(hashed(i, c));
}

async function hashSent(gate, c, i) {
  if (gate) await gate;
  c.queue.send(hashed(i, c));
}

async function collect(c, n) {
  while (c.digests.length < n) for (const d of await c.queue.receive()) c.digests.push(d);
}

async function main() {
  const [n, variant, startMode] = args();
  console.error(`hash_collect: spawning ${n} tasks`);
  const start = performance.now();
  let open = () => {};
  const gate = startMode === 'gated' ? new Promise((resolve) => { open = resolve; }) : null;
  const c = { digests: [], queue: new Queue(), first: '' };
  const collector = variant === 'channel' ? collect(c, n) : null;
  const tasks = [];
  for (let i = 0; i < n; i++) tasks.push(variant === 'mutex' ? hashShared(gate, c, i) : hashSent(gate, c, i));
  const spawnMs = Math.round(performance.now() - start);
  console.error(`hash_collect: ${n} tasks spawned in ${spawnMs} ms`);
  open();
  const completed = (await Promise.all(tasks)).length;
  await collector;
  const wall = performance.now() - start;

  check(completed === n, `completed ${completed} of ${n}`);
  check(c.digests.length === n, `collected ${c.digests.length} digests of ${n}`);
  // Sorted in place, not put in a Set: the check then makes nothing per digest (V8's sort only
  // needs scratch arrays of references), so it adds next to nothing to the max RSS being
  // measured. Equal digests end up side by side.
  const digests = c.digests.sort(Buffer.compare);
  for (let i = 1; i < n; i++) check(!digests[i].equals(digests[i - 1]), 'two digests are equal');
  check(sortedHas(digests, sha512(c.first)), "the digest of task 0's UUID, recomputed, is not among those collected");
  console.log(`scenario=hash_collect runtime=node n=${n} sync=${variant} start=${startMode} spawn_ms=${spawnMs} wall_ms=${Math.round(wall)} ` +
    `completed=${completed}`);
}

// Whether sorted (in Buffer.compare's order) holds a digest equal to d: a binary search.
function sortedHas(sorted, d) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = Buffer.compare(sorted[mid], d);
    if (order === 0) return true;
    if (order < 0) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

// N (digits only, >= 1) and the variant, then --start gated|eager (default gated); anything else
// is a usage error, exit 2.
function args() {
  const a = process.argv.slice(2);
  let start = 'gated';
  if (a.length === 4 && a[2] === '--start' && ['gated', 'eager'].includes(a[3])) start = a.splice(2)[1];
  const n = /^\d+$/.test(a[0] ?? '') ? Number(a[0]) : 0;
  if (a.length !== 2 || n < 1 || !Number.isSafeInteger(n) || !['mutex', 'channel'].includes(a[1])) {
    console.error('usage: node hash_collect.js N mutex|channel [--start gated|eager]  (N >= 1)');
    process.exit(2);
  }
  return [n, a[1], start];
}

function check(ok, what) {
  if (!ok) {
    console.error(`hash_collect: check failed: ${what}`);
    process.exit(1);
  }
}

main();
