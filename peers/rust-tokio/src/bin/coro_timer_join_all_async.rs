//! coro_timer, Rust tokio, the 2024 comparison's shape: futures::future::join_all of N `async`
//! blocks that each await a sleep, in the multi-thread runtime. An async block makes its Sleep when
//! it is first polled, so every deadline starts when join_all is awaited, not as it is built
//! (tokio-coro_timer_join_all joins the N Sleep futures themselves).
//! Run:    coro_timer_join_all_async N [SLEEP_MS=5000]
//! Prints: scenario=coro_timer runtime=tokio variant=join_all_async n=N sleep_ms=MS spawn_ms=S
//!         ended_at_spawn=0 rss_wait_kib=R wall_ms=W completed=C; exits 1 if C != N or the run took
//!         less than one sleep. S: ms from start until join_all has taken the N blocks; none is
//!         polled before join_all is awaited, so none has ended then.
use futures::future::join_all;
use std::time::{Duration, Instant};
use tokio::time::sleep;

#[path = "../rss.rs"]
mod rss;

// What #[tokio::main] expands to, written out (Cargo.toml says why).
fn main() {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("Failed building the Runtime").block_on(run())
}

async fn run() {
    let (n, ms) = args(5000);
    let start = Instant::now();
    let all = join_all((0..n).map(|_| async move { sleep(Duration::from_millis(ms)).await }));
    let spawn = start.elapsed();
    // The sleeps exist only once polled: the RSS at wait is read on a worker while join_all waits.
    let waiting = tokio::spawn(async move {
        sleep(Duration::from_millis(ms / 2)).await;
        rss::kib()
    });
    let completed = all.await.len();
    let rss_wait = waiting.await.expect("the RSS reader panicked");
    let wall = start.elapsed();
    check(completed == n, &format!("completed {completed} of {n}"));
    check(wall >= Duration::from_millis(ms), "the run took less than one sleep");
    println!("scenario=coro_timer runtime=tokio variant=join_all_async n={n} sleep_ms={ms} spawn_ms={} ended_at_spawn=0 rss_wait_kib={rss_wait} wall_ms={} completed={completed}", rounded_ms(spawn), wall.as_millis());
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
            eprintln!("usage: coro_timer_join_all_async N [SLEEP_MS={default_ms}]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("coro_timer_join_all_async: check failed: {what}");
        std::process::exit(1);
    }
}
