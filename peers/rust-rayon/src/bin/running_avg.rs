//! running_avg, Rust rayon: `(0..N).into_par_iter().for_each`, one closure call per value; each
//! draws one uniform f64 in [0, 100) from rand's thread_rng and pushes it into ONE running mean
//! and variance (Welford).
//!   mutex:   the state under a std::sync::Mutex.
//!   channel: each call sends its value on one unbounded crossbeam-channel (sending never waits,
//!            as in ours) to one consumer thread, started before the par_iter, which owns the
//!            state and stops after N values.
//! Not gated, and never N tasks alive at once: rayon splits 0..N among its workers (one per core,
//! RAYON_NUM_THREADS) as they steal, and runs each part's calls one after another. Nothing is
//! spawned up front, so spawn_ms is 0.
//! Run:    running_avg N mutex|channel
//! Prints: scenario=running_avg runtime=rayon n=N sync=V spawn_ms=0 wall_ms=W mean=M variance=V2
//!         completed=C; exits 1 if a value is lost or the mean or variance is out of its bounds.
use rand::Rng;
use rayon::prelude::*;
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

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

fn draw() -> f64 {
    rand::thread_rng().gen_range(0.0..100.0)
}

fn main() {
    let (n, locked) = args();
    eprintln!("running_avg: spawning {n} tasks");
    let start = Instant::now();
    // No spawning phase (see the header): 0 ms, for the same lines as the other peers.
    eprintln!("running_avg: {n} tasks spawned in 0 ms");
    let stats = if locked {
        let stats = Mutex::new(Welford::default());
        (0..n).into_par_iter().for_each(|_| {
            let x = draw(); // outside the lock
            stats.lock().unwrap().push(x);
        });
        stats.into_inner().unwrap()
    } else {
        let (tx, rx) = crossbeam_channel::unbounded::<f64>();
        let consumer = thread::spawn(move || {
            let mut stats = Welford::default();
            while stats.n < n as u64 {
                match rx.recv() {
                    Ok(x) => stats.push(x),
                    Err(_) => break, // every sender gone early: the check says so
                }
            }
            stats
        });
        (0..n).into_par_iter().for_each(|_| tx.send(draw()).expect("the consumer waits for N values"));
        drop(tx);
        consumer.join().expect("the consumer does not panic")
    };
    // for_each returned, so every call ran: a panic in one would have re-raised there.
    let completed = n;
    let wall = start.elapsed();
    let (mean, variance) = (stats.mean, stats.variance());
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
        "scenario=running_avg runtime=rayon n={n} sync={} spawn_ms=0 wall_ms={} mean={mean:.6} variance={variance:.6} completed={completed}",
        if locked { "mutex" } else { "channel" },
        wall.as_millis()
    );
}

/// N (digits only, >= 1) and the variant, mutex (true) or channel; anything else is a usage
/// error, exit 2.
fn args() -> (usize, bool) {
    let a: Vec<String> = std::env::args().skip(1).collect();
    // parse alone would take "+5".
    let n = a.first().filter(|s| s.bytes().all(|b| b.is_ascii_digit())).and_then(|s| s.parse::<usize>().ok());
    match (n, a.get(1).map(String::as_str)) {
        (Some(n), Some(v @ ("mutex" | "channel"))) if n >= 1 && a.len() == 2 => (n, v == "mutex"),
        _ => {
            eprintln!("usage: running_avg N mutex|channel  (N >= 1)");
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
