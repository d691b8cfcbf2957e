//! atomic_counter, Rust tokio (the scoreboard test): N spawned tasks loop { hits += 1; sleep };
//! main polls every 100 ms and, at HITS (default 10 x N), tells them to stop and awaits them all.
//! Run:    atomic_counter N [SLEEP_MS=1000 [HITS]]
//! Prints: scenario=atomic_counter runtime=tokio ... hits=H completed=C; exits 1 if C != N.
//! Progress on stderr: the hits about once a second.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio::time::sleep;

static HITS: AtomicU64 = AtomicU64::new(0);
static STOP: AtomicBool = AtomicBool::new(false);

async fn looper(d: Duration) {
    // Each task sees the flag when it wakes, as in the Go version.
    while !STOP.load(Relaxed) {
        HITS.fetch_add(1, Relaxed);
        sleep(d).await;
    }
}

#[tokio::main]
async fn main() {
    let (n, ms, target) = args();
    let start = Instant::now();
    let handles: Vec<_> = (0..n).map(|_| tokio::spawn(looper(Duration::from_millis(ms)))).collect();
    let mut polls = 0u64;
    while HITS.load(Relaxed) < target {
        sleep(Duration::from_millis(100)).await;
        polls += 1;
        if polls % 10 == 0 {
            let h = HITS.load(Relaxed);
            eprintln!("atomic_counter: {h} of {target} hits, {:.0} hits/s", h as f64 / start.elapsed().as_secs_f64());
        }
    }
    let reached = start.elapsed();
    STOP.store(true, Relaxed);
    let mut completed = 0;
    for h in handles {
        completed += h.await.is_ok() as usize;
    }
    let wall = start.elapsed();
    let hits = HITS.load(Relaxed);
    check(hits >= target, &format!("{hits} hits, fewer than the target {target}"));
    check(completed == n, &format!("completed {completed} of {n}"));
    println!(
        "scenario=atomic_counter runtime=tokio n={n} sleep_ms={ms} wall_ms={} hits={hits} hits_per_s={:.0} completed={completed}",
        wall.as_millis(),
        hits as f64 / reached.as_secs_f64()
    );
}

/// N (>= 1), SLEEP_MS and HITS (>= 1) from the command line; anything else is a usage error, exit 2.
fn args() -> (usize, u64, u64) {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let n = a.first().and_then(|s| s.parse::<usize>().ok()).filter(|&n| n >= 1);
    let ms = a.get(1).map_or(Some(1000), |s| s.parse::<u64>().ok());
    let hits = match (n, a.get(2)) {
        (Some(n), None) => Some(10 * n as u64),
        (_, Some(s)) => s.parse::<u64>().ok().filter(|&h| h >= 1),
        _ => None,
    };
    match (n, ms, hits) {
        (Some(n), Some(ms), Some(hits)) if a.len() <= 3 => (n, ms, hits),
        _ => {
            eprintln!("usage: atomic_counter N [SLEEP_MS=1000 [HITS=10*N]]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("atomic_counter: check failed: {what}");
        std::process::exit(1);
    }
}
