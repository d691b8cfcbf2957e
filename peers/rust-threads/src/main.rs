//! threads, Rust std: N OS threads (std's default stack), each `thread::sleep`s; all joined.
//! Run:    threads N [SLEEP_MS=5000]
//! Prints: scenario=threads runtime=rust-std ... completed=C; exits 1 if a thread cannot start.
use std::thread;
use std::time::{Duration, Instant};

fn main() {
    let (n, ms) = args(5000);
    let start = Instant::now();
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        // Builder::spawn returns the OS's refusal instead of panicking like thread::spawn.
        match thread::Builder::new().spawn(move || thread::sleep(Duration::from_millis(ms))) {
            Ok(h) => handles.push(h),
            Err(e) => {
                eprintln!("threads: thread {} of {n} not started: {e}; joining the others", i + 1);
                handles.into_iter().for_each(|h| drop(h.join()));
                std::process::exit(1);
            }
        }
    }
    let completed = handles.into_iter().map(|h| h.join().is_ok() as usize).sum::<usize>();
    let wall = start.elapsed();
    check(completed == n, &format!("completed {completed} of {n}"));
    check(wall >= Duration::from_millis(ms), "the run took less than one sleep");
    println!("scenario=threads runtime=rust-std n={n} sleep_ms={ms} wall_ms={} completed={completed}", wall.as_millis());
}

/// N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
fn args(default_ms: u64) -> (usize, u64) {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let n = a.first().and_then(|s| s.parse::<usize>().ok()).filter(|&n| n >= 1);
    let ms = a.get(1).map_or(Some(default_ms), |s| s.parse().ok());
    match (n, ms) {
        (Some(n), Some(ms)) if a.len() <= 2 => (n, ms),
        _ => {
            eprintln!("usage: threads N [SLEEP_MS={default_ms}]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("threads: check failed: {what}");
        std::process::exit(1);
    }
}
