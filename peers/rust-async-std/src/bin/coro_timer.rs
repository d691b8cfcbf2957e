//! coro_timer, Rust async-std: one `task::spawn`ed task per sleep; main awaits every handle.
//! Run:    coro_timer N [SLEEP_MS=5000]
//! Prints: scenario=coro_timer runtime=async-std ... sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R ...
//!         completed=C; exits 1 if C != N. S: ms from start until the spawn loop returned
//!         (task::spawn hands the task to the multi-threaded executor at once); E: tasks that had
//!         already ended by then, read from the static ENDED counter each task bumps as it ends.
use async_std::task;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

#[path = "../rss.rs"]
mod rss;

/// Tasks that have run to their end (async-std's JoinHandle cannot tell whether its task is done).
static ENDED: AtomicUsize = AtomicUsize::new(0);

/// The sleep itself, bumping ENDED as it completes. Same size as the bare sleep future: an
/// `async move` block instead would keep its captured Duration beside the sleep (+24 bytes a task).
struct Counted<F>(F);

impl<F: Future> Future for Counted<F> {
    type Output = F::Output;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        // SAFETY: structural pinning of the only field, which is never moved out of.
        let out = unsafe { self.map_unchecked_mut(|c| &mut c.0) }.poll(cx);
        if out.is_ready() {
            ENDED.fetch_add(1, Relaxed);
        }
        out
    }
}

fn main() {
    let (n, ms) = args(5000);
    // block_on rather than #[async_std::main], which needs the "attributes" feature.
    let (completed, wall, spawn, ended_at_spawn, rss_wait) = task::block_on(async {
        let start = Instant::now();
        let handles: Vec<_> = (0..n).map(|_| task::spawn(Counted(task::sleep(Duration::from_millis(ms))))).collect();
        let (spawn, ended_at_spawn, rss_wait) = (start.elapsed(), ENDED.load(Relaxed), rss::kib());
        let mut completed = 0;
        for h in handles {
            h.await; // a task's panic would resurface here
            completed += 1;
        }
        (completed, start.elapsed(), spawn, ended_at_spawn, rss_wait)
    });
    check(completed == n, &format!("completed {completed} of {n}"));
    check(wall >= Duration::from_millis(ms), "the run took less than one sleep");
    println!("scenario=coro_timer runtime=async-std variant=spawn n={n} sleep_ms={ms} spawn_ms={} ended_at_spawn={ended_at_spawn} rss_wait_kib={rss_wait} wall_ms={} completed={completed}", rounded_ms(spawn), wall.as_millis());
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
            eprintln!("usage: coro_timer N [SLEEP_MS={default_ms}]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("coro_timer: check failed: {what}");
        std::process::exit(1);
    }
}
