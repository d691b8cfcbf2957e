//! coro_timer, Rust tokio + futures::future::join_all: N sleep futures polled by ONE task, no
//! spawn per sleep (the "Rust (futures)" entry of the 2024 re-run).
//! Run:    coro_timer_join_all N [SLEEP_MS=5000]
//! Prints: scenario=coro_timer runtime=tokio variant=join_all ... sleep_ms=MS spawn_ms=S
//!         ended_at_spawn=E rss_wait_kib=R ... completed=C; exits 1 if C != N. S: ms from start until join_all
//!         has built its collection of the N sleeps (a Sleep takes its deadline when made); E is
//!         always 0, see below.
use futures::future::join_all;
use std::time::{Duration, Instant};
use tokio::time::sleep;

#[path = "../rss.rs"]
mod rss;

// What #[tokio::main] expands to, written out (Cargo.toml says why): the multi-thread runtime with
// every driver enabled, blocking on the program.
fn main() {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("Failed building the Runtime").block_on(run())
}

async fn run() {
    let (n, ms) = args(5000);
    let start = Instant::now();
    let all = join_all((0..n).map(|_| sleep(Duration::from_millis(ms)))); // builds all N, polls none
    let spawn = start.elapsed();
    // No sleep is polled before join_all is awaited below, so none can have ended by now; there is
    // no per-sleep counter to read without wrapping each sleep (more memory per sleep).
    let ended_at_spawn = 0;
    let rss_wait = rss::kib(); // every task exists and waits
    let completed = all.await.len();
    let wall = start.elapsed();
    check(completed == n, &format!("completed {completed} of {n}"));
    check(wall >= Duration::from_millis(ms), "the run took less than one sleep");
    println!("scenario=coro_timer runtime=tokio variant=join_all n={n} sleep_ms={ms} spawn_ms={} ended_at_spawn={ended_at_spawn} rss_wait_kib={rss_wait} wall_ms={} completed={completed}", rounded_ms(spawn), wall.as_millis());
}

fn rounded_ms(d: Duration) -> u128 {
    (d.as_micros() + 500) / 1000
}

/// N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
fn args(default_ms: u64) -> (usize, u64) {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let n = a.first().and_then(|s| s.parse::<usize>().ok()).filter(|&n| n >= 1);
    let ms = a.get(1).map_or(Some(default_ms), |s| s.parse().ok());
    match (n, ms) {
        (Some(n), Some(ms)) if a.len() <= 2 => (n, ms),
        _ => {
            eprintln!("usage: coro_timer_join_all N [SLEEP_MS={default_ms}]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("coro_timer_join_all: check failed: {what}");
        std::process::exit(1);
    }
}
