//! coro_shared, Rust async-std: one `task::spawn`ed task per waiter, each blocked in `recv` on a
//! clone of one channel's receiver; when a single sleep ends, main closes the channel (as Go does).
//! Run:    coro_shared N [SLEEP_MS=5000]
//! Prints: scenario=coro_shared runtime=async-std ... sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R ...
//!         completed=C; exits 1 if C != N. S: ms from start until the spawn loop returned
//!         (task::spawn hands the task to the multi-threaded executor at once); E: tasks that had
//!         already ended by then, read from the static ENDED counter each task bumps as its last
//!         act (its future stays 56 bytes). E is 0 by construction (the channel is closed only
//!         after the loop), but is measured.
use async_std::{channel, task};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

#[path = "../rss.rs"]
mod rss;

/// Tasks that have run to their end (async-std's JoinHandle cannot tell whether its task is done).
static ENDED: AtomicUsize = AtomicUsize::new(0);

fn main() {
    let (n, ms) = args(5000);
    let (completed, wall, spawn, ended_at_spawn, rss_wait) = task::block_on(async {
        let start = Instant::now();
        let timer = task::spawn(task::sleep(Duration::from_millis(ms))); // running before any waiter
        let (tx, rx) = channel::bounded::<()>(1);
        let handles: Vec<_> = (0..n)
            .map(|_| {
                let rx = rx.clone();
                // Closed and empty: recv fails at once, which is the signal.
                task::spawn(async move {
                    let closed = rx.recv().await.is_err();
                    ENDED.fetch_add(1, Relaxed);
                    closed
                })
            })
            .collect();
        let (spawn, ended_at_spawn, rss_wait) = (start.elapsed(), ENDED.load(Relaxed), rss::kib());
        timer.await;
        tx.close();
        let mut completed = 0;
        for h in handles {
            completed += h.await as usize;
        }
        (completed, start.elapsed(), spawn, ended_at_spawn, rss_wait)
    });
    check(completed == n, &format!("completed {completed} of {n}"));
    check(wall >= Duration::from_millis(ms), "the run took less than one sleep");
    println!("scenario=coro_shared runtime=async-std variant=spawn n={n} sleep_ms={ms} spawn_ms={} ended_at_spawn={ended_at_spawn} rss_wait_kib={rss_wait} wall_ms={} completed={completed}", rounded_ms(spawn), wall.as_millis());
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
            eprintln!("usage: coro_shared N [SLEEP_MS={default_ms}]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("coro_shared: check failed: {what}");
        std::process::exit(1);
    }
}
