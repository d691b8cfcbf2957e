//! running_avg, Rust std threads: one OS thread per value (std's default stack; run.sh caps N at
//! THREAD_CAP, as for the threads scenario); each draws one uniform f64 in [0, 100) from rand's
//! thread_rng and pushes it into ONE running mean and variance (Welford).
//!   mutex:   the state under a std::sync::Mutex.
//!   channel: each thread sends its value on one std::sync::mpsc channel (unbounded: sending
//!            never waits, as in ours) to one consumer thread, which owns the state and stops
//!            after N values.
//! Gated (the default): every thread first waits at one gate (a flag and a Condvar), opened after
//! the last spawn, so that all N exist before any runs. Eager (--start eager): the gate is open from
//! the start, so each thread runs as soon as it is spawned, as the 2023 programs' threads do.
//! Run:    running_avg N mutex|channel [--start gated|eager]
//! Prints: scenario=running_avg runtime=rust-std n=N sync=V spawn_ms=S wall_ms=W mean=M
//!         variance=V2 completed=C; exits 1 if a thread cannot start, a value is lost or the mean
//!         or variance is out of its bounds.
use rand::Rng;
use std::sync::{mpsc, Arc, Condvar, Mutex};
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

/// What every thread holds one Arc of: the gate and, for mutex, the state.
struct Shared {
    open: Mutex<bool>, // the gate: false while main spawns
    opened: Condvar,
    stats: Mutex<Welford>,
}

impl Shared {
    fn wait(&self) {
        drop(self.opened.wait_while(self.open.lock().unwrap(), |open| !*open).unwrap());
    }
    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }
}

fn draw() -> f64 {
    rand::thread_rng().gen_range(0.0..100.0)
}

fn main() {
    let (n, locked, eager) = args();
    let shared = Arc::new(Shared { open: Mutex::new(eager), opened: Condvar::new(), stats: Mutex::new(Welford::default()) });
    let (tx, rx) = mpsc::channel::<f64>();
    eprintln!("running_avg: spawning {n} tasks");
    let start = Instant::now();
    // Started before the gate, like ours: it only waits for values.
    let consumer = (!locked).then(|| {
        thread::spawn(move || {
            let mut stats = Welford::default();
            while stats.n < n as u64 {
                match rx.recv() {
                    Ok(x) => stats.push(x),
                    Err(_) => break, // every sender gone early: a thread failed, the check says so
                }
            }
            stats
        })
    });
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        // The thread's own handles, in a block: the failure path below still needs main's Arc.
        let work = {
            let shared = Arc::clone(&shared);
            let tx = (!locked).then(|| tx.clone());
            move || {
                shared.wait();
                let x = draw(); // outside the lock
                match tx {
                    Some(tx) => tx.send(x).expect("the consumer waits for N values"),
                    None => shared.stats.lock().unwrap().push(x),
                }
            }
        };
        // Builder::spawn returns the OS's refusal instead of panicking like thread::spawn.
        match thread::Builder::new().spawn(work) {
            Ok(h) => handles.push(h),
            Err(e) => {
                eprintln!("running_avg: thread {} of {n} not started: {e}; joining the others", i + 1);
                shared.open();
                handles.into_iter().for_each(|h| drop(h.join()));
                std::process::exit(1);
            }
        }
    }
    let spawn = start.elapsed();
    shared.open();
    drop(tx); // the threads hold the only senders now
    eprintln!("running_avg: {n} tasks spawned in {} ms", spawn.as_millis());
    let completed = handles.into_iter().map(|h| h.join().is_ok() as usize).sum::<usize>();
    let stats = match consumer {
        Some(c) => c.join().expect("the consumer does not panic"),
        None => std::mem::take(&mut *shared.stats.lock().unwrap()),
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
        "scenario=running_avg runtime=rust-std n={n} sync={} start={} spawn_ms={} wall_ms={} mean={mean:.6} variance={variance:.6} completed={completed}",
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
