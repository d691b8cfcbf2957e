//! atomic_counter, Rust tokio (the scoreboard test): N spawned tasks loop { hits += 1; sleep };
//! main polls every 100 ms and, at HITS (default 10 x N), tells them to stop and awaits them all.
//! --mode once: each task sleeps once, increments once and ends; main polls until N hits.
//! --spawn-from task: one spawned task spawns the N, pausing --burst-pause-ms after every --burst,
//! while main only polls, as in the 2022 follow-up to the scoreboard.
//! Run:    atomic_counter N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms 100]
//!                          [--spawn-from main|task] [--burst K] [--burst-pause-ms 1000]
//! Prints: scenario=atomic_counter runtime=tokio n=N ... spawn_ms=S reached_ms=R wall_ms=W hits=H
//!         hits_per_s=P completed=C; exits 1 if C != N, the hits fall short, a task ended before
//!         the stop (loop) or a hit came before its sleep was over (once).
//! Progress on stderr: the hits about once a second.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;
use tokio::time::sleep;

static HITS: AtomicU64 = AtomicU64::new(0);
static STOP: AtomicBool = AtomicBool::new(false);
// Set once before the first spawn, so that no task carries the start in its future.
static START: Mutex<Option<Instant>> = Mutex::new(None);
static FIRST_HIT: Mutex<Option<Duration>> = Mutex::new(None);

fn since_start() -> Duration {
    START.lock().unwrap().unwrap().elapsed()
}

async fn looper(d: Duration) {
    // Each task sees the flag when it wakes, as in the Go version.
    while !STOP.load(Relaxed) {
        HITS.fetch_add(1, Relaxed);
        sleep(d).await;
    }
}

async fn once(d: Duration) {
    sleep(d).await;
    if HITS.fetch_add(1, Relaxed) == 0 {
        *FIRST_HIT.lock().unwrap() = Some(since_start());
    }
}

/// Spawns the n tasks, pausing after every `burst` but the last; returns their handles and when
/// spawning ended.
async fn spawn_all(o: Options) -> (Vec<JoinHandle<()>>, Duration) {
    let d = Duration::from_millis(o.sleep_ms);
    let mut handles = Vec::with_capacity(o.n);
    for i in 1..=o.n {
        handles.push(if o.once { tokio::spawn(once(d)) } else { tokio::spawn(looper(d)) });
        if o.burst > 0 && i % o.burst == 0 && i < o.n {
            sleep(Duration::from_millis(o.pause_ms)).await;
        }
    }
    (handles, since_start())
}

// What #[tokio::main] expands to, written out (Cargo.toml says why): the multi-thread runtime with
// every driver enabled, blocking on the program.
fn main() {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("Failed building the Runtime").block_on(run())
}

async fn run() {
    let o = args();
    let start = Instant::now();
    *START.lock().unwrap() = Some(start);
    // From main: its own loop, before it polls; from a task: a spawned task's, while main polls.
    let spawner = if o.from_task { Some(tokio::spawn(spawn_all(o.clone()))) } else { None };
    let spawned = if o.from_task { None } else { Some(spawn_all(o.clone()).await) };
    let target = if o.once { o.n as u64 } else { o.hits };
    let poll = Duration::from_millis(o.poll_ms);
    let mut polls = 0u64;
    while HITS.load(Relaxed) < target || spawner.as_ref().map_or(false, |s| !s.is_finished()) {
        sleep(poll).await;
        polls += 1;
        if polls % (1000 / o.poll_ms).max(1) == 0 {
            let h = HITS.load(Relaxed);
            eprintln!("atomic_counter: {h} of {target} hits, {:.0} hits/s", h as f64 / start.elapsed().as_secs_f64());
        }
    }
    let reached = start.elapsed();
    let (handles, spawn_end) = match (spawned, spawner) {
        (Some(s), _) => s,
        (None, Some(spawner)) => spawner.await.unwrap(),
        (None, None) => unreachable!(),
    };
    let ended_early = handles.iter().filter(|h| h.is_finished()).count(); // before the stop, none can end
    STOP.store(true, Relaxed);
    let mut completed = 0;
    for h in handles {
        completed += h.await.is_ok() as usize;
    }
    let wall = start.elapsed();
    let hits = HITS.load(Relaxed);
    let d = Duration::from_millis(o.sleep_ms);
    check(completed == o.n, &format!("completed {completed} of {}", o.n));
    if o.once {
        check(hits == o.n as u64, &format!("{hits} hits, expected {}", o.n));
        let first = FIRST_HIT.lock().unwrap().unwrap();
        check(first >= d, &format!("the first hit came {first:?} after the start, before one sleep"));
        check(reached >= spawn_end + d, "the last hit came before the last task's sleep was over");
    } else {
        check(hits >= o.hits, &format!("{hits} hits, fewer than the target {}", o.hits));
        check(ended_early == 0, &format!("{ended_early} tasks ended before the stop"));
    }
    println!(
        "scenario=atomic_counter runtime=tokio n={} sleep_ms={} {} spawn_ms={} reached_ms={} wall_ms={} hits={hits} hits_per_s={:.0} completed={completed}",
        o.n,
        o.sleep_ms,
        o.echo,
        (spawn_end.as_micros() + 500) / 1000,
        reached.as_millis(),
        wall.as_millis(),
        hits as f64 / reached.as_secs_f64()
    );
}

#[derive(Clone)]
struct Options {
    n: usize,
    sleep_ms: u64,
    hits: u64,
    once: bool,
    poll_ms: u64,
    from_task: bool,
    burst: usize,
    pause_ms: u64,
    echo: String,
}

/// N [SLEEP_MS] and the options, as atomic_counter.cpp takes them; anything else is a usage error:
/// one line, exit 2.
fn args() -> Options {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.is_empty() {
        fail("N is missing");
    }
    let n = num(&a[0], 1, 1 << 40, "N") as usize;
    let mut i = 1;
    let mut sleep_ms = 1000;
    if a.get(i).map_or(false, |s| !s.starts_with("--")) {
        sleep_ms = num(&a[i], 0, 86_400_000, "SLEEP_MS");
        i += 1;
    }
    let (mut hits, mut mode, mut poll_ms, mut from, mut burst, mut pause) = (0, "loop", 100, "main", 0, None);
    let mut seen = Vec::new();
    while i < a.len() {
        let key = a[i].as_str();
        if !key.starts_with("--") {
            fail(&format!("unexpected argument '{key}'"));
        }
        if i + 1 >= a.len() || seen.contains(&key) {
            fail(&format!("'{key}' needs one value, once"));
        }
        seen.push(key);
        let v = a[i + 1].as_str();
        match key {
            "--hits" => hits = num(v, 1, u64::MAX, "--hits"),
            "--mode" if v == "loop" || v == "once" => mode = v,
            "--mode" => fail(&format!("--mode must be loop or once, got '{v}'")),
            "--poll-ms" => poll_ms = num(v, 1, 86_400_000, "--poll-ms"),
            "--spawn-from" if v == "main" || v == "task" => from = v,
            "--spawn-from" => fail(&format!("--spawn-from must be main or task, got '{v}'")),
            "--burst" => burst = num(v, 1, 1 << 40, "--burst") as usize,
            "--burst-pause-ms" => pause = Some(num(v, 0, 86_400_000, "--burst-pause-ms")),
            _ => fail(&format!("unknown argument '{key}'")),
        }
        i += 2;
    }
    let once = mode == "once";
    if once && hits > 0 {
        fail("--hits applies to --mode loop only");
    }
    if burst > 0 && from != "task" {
        fail("--burst needs --spawn-from task");
    }
    if pause.is_some() && burst == 0 {
        fail("--burst-pause-ms needs --burst");
    }
    let pause_echo = if burst == 0 { "-".to_string() } else { pause.unwrap_or(1000).to_string() };
    Options {
        n,
        sleep_ms,
        hits: if hits == 0 { 10 * n as u64 } else { hits },
        once,
        poll_ms,
        from_task: from == "task",
        burst,
        pause_ms: pause.unwrap_or(1000),
        echo: format!("mode={mode} spawn_from={from} poll_ms={poll_ms} burst={burst} burst_pause_ms={pause_echo}"),
    }
}

fn fail(why: &str) -> ! {
    eprintln!("usage: atomic_counter N [SLEEP_MS=1000] [--hits H] [--mode loop|once] [--poll-ms P] [--spawn-from main|task] [--burst K] [--burst-pause-ms P]  ({why})");
    std::process::exit(2)
}

fn num(s: &str, min: u64, max: u64, what: &str) -> u64 {
    match s.parse::<u64>() {
        Ok(v) if s.bytes().all(|b| b.is_ascii_digit()) && v >= min && v <= max => v,
        _ => fail(&format!("{what} must be a whole number from {min} to {max}, got '{s}'")),
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("atomic_counter: check failed: {what}");
        std::process::exit(1);
    }
}
