//! running_avg, Rust tokio: one `tokio::spawn`ed task per value; each draws one uniform f64 in
//! [0, 100) from rand's thread_rng and pushes it into ONE running mean and variance (Welford).
//!   mutex:   the state under a tokio::sync::Mutex, the runtime's own lock: a task that finds it
//!            taken is parked, its worker thread goes on (as a goroutine on Go's sync.Mutex).
//!            tokio's docs would take std's Mutex for a section this short; the async lock is
//!            the one that compares with the other runtimes' own locks.
//!   channel: each task sends its value on one unbounded tokio::sync::mpsc (sending never waits,
//!            as in ours) to one consumer task, which owns the state and stops after N values.
//! Gated (the default): every task first awaits one gate, opened after the last spawn, so that all
//! N exist before any runs. Eager (--start eager): the gate is never shut, so each task runs as soon
//! as a worker takes it, as the 2023 programs' tasks do.
//! Run:    running_avg N mutex|channel [--start gated|eager]
//! Prints: scenario=running_avg runtime=tokio n=N sync=V spawn_ms=S wall_ms=W mean=M variance=V2
//!         completed=C; exits 1 if a value is lost or the mean or variance is out of its bounds.
use rand::Rng;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, Mutex, RwLock};

/// A running mean and sample variance, one value at a time (Welford 1962).
#[derive(Default)]
struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    /// Divided by n - 1; a single value has no spread, so 0 below two.
    fn variance(&self) -> f64 {
        if self.n > 1 { self.m2 / (self.n - 1) as f64 } else { 0.0 }
    }
}

/// What every task holds one Arc of: the gate and, for mutex, the state.
struct Shared {
    gate: RwLock<()>, // write-locked by main while it spawns; each task takes a read first
    stats: Mutex<Welford>,
}

/// One task's value. ThreadRng is per thread and not Send: it stays in here, never in a future.
fn draw() -> f64 {
    rand::thread_rng().gen_range(0.0..100.0)
}

// What #[tokio::main] expands to, written out (Cargo.toml says why): the multi-thread runtime with
// every driver enabled, blocking on the program.
fn main() {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("Failed building the Runtime").block_on(run())
}

async fn run() {
    let (n, locked, eager) = args();
    let shared = Arc::new(Shared { gate: RwLock::new(()), stats: Mutex::new(Welford::default()) });
    let (tx, mut rx) = mpsc::unbounded_channel::<f64>();
    eprintln!("running_avg: spawning {n} tasks");
    let start = Instant::now();
    // Spawned before the gate, like ours: it only waits for values.
    let consumer = (!locked).then(|| {
        tokio::spawn(async move {
            let mut stats = Welford::default();
            while stats.n < n as u64 {
                match rx.recv().await {
                    Some(x) => stats.push(x),
                    None => break, // every sender gone early: a task failed, the check says so
                }
            }
            stats
        })
    });
    let closed = if eager { None } else { Some(shared.gate.write().await) };
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let shared = Arc::clone(&shared);
            if locked {
                tokio::spawn(async move {
                    drop(shared.gate.read().await);
                    let x = draw(); // outside the lock
                    shared.stats.lock().await.push(x);
                })
            } else {
                let tx = tx.clone();
                tokio::spawn(async move {
                    drop(shared.gate.read().await);
                    tx.send(draw()).expect("the consumer waits for N values");
                })
            }
        })
        .collect();
    let spawn = start.elapsed();
    drop(closed);
    drop(tx); // the tasks hold the only senders now
    eprintln!("running_avg: {n} tasks spawned in {} ms", spawn.as_millis());
    let mut completed = 0;
    for h in handles {
        completed += h.await.is_ok() as usize;
    }
    let stats = match consumer {
        Some(c) => c.await.expect("the consumer does not panic"),
        None => std::mem::take(&mut *shared.stats.lock().await),
    };
    let wall = start.elapsed();
    let (mean, variance) = (stats.mean, stats.variance());
    check(completed == n, &format!("completed {completed} of {n}"));
    check(stats.n == n as u64, &format!("counted {} values of {n}", stats.n));
    // Uniform on [0, 100): variance 100^2/12 = 833.333; six standard errors either side, the
    // variance's being sqrt(mu4 - sigma^4)/sqrt(N) = 745.36/sqrt(N) (mu4 = 100^4/80).
    let nf = n as f64;
    check((mean - 50.0).abs() <= 6.0 * (833.333 / nf).sqrt(), &format!("mean {mean:.6} is too far from 50"));
    // The variance is checked only when N >= 3: at N = 2 the sample variance exceeds the band
    // whenever the two values are more than 89.4 apart, about 1.1 % of honest runs. The mean's band
    // holds for every N.
    if n >= 3 {
        check((variance - 833.333).abs() <= 6.0 * 745.36 / nf.sqrt(), &format!("variance {variance:.6} is too far from 833.333"));
    }
    println!(
        "scenario=running_avg runtime=tokio n={n} sync={} start={} spawn_ms={} wall_ms={} mean={mean:.6} variance={variance:.6} completed={completed}",
        if locked { "mutex" } else { "channel" },
        if eager { "eager" } else { "gated" },
        spawn.as_millis(),
        wall.as_millis()
    );
}

/// N (digits only, >= 1) and the variant, mutex (true) or channel, then --start gated|eager
/// (default gated; eager: true); anything else is a usage error, exit 2.
fn args() -> (usize, bool, bool) {
    let mut a: Vec<String> = std::env::args().skip(1).collect();
    let mut eager = false;
    if a.len() == 4 && a[2] == "--start" && (a[3] == "gated" || a[3] == "eager") {
        eager = a[3] == "eager";
        a.truncate(2);
    }
    // parse alone would take "+5".
    let n = a.first().filter(|s| s.bytes().all(|b| b.is_ascii_digit())).and_then(|s| s.parse::<usize>().ok());
    match (n, a.get(1).map(String::as_str)) {
        (Some(n), Some(v @ ("mutex" | "channel"))) if n >= 1 && a.len() == 2 => (n, v == "mutex", eager),
        _ => {
            eprintln!("usage: running_avg N mutex|channel [--start gated|eager]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("running_avg: check failed: {what}");
        std::process::exit(1);
    }
}
