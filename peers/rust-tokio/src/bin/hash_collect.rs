//! hash_collect, Rust tokio: one `tokio::spawn`ed task per digest; each makes a fresh version-4
//! UUID (the uuid crate, its random bytes from rand's thread_rng: the "fast-rng" feature), takes
//! the SHA-512 (sha2) of its 36-char text and hands the 64-byte digest to ONE collector.
//!   mutex:   appended to a Vec (reserved to N first, as ours) under a tokio::sync::Mutex, the
//!            runtime's own lock (parks a waiting task; see running_avg.rs for why not std's).
//!   channel: sent on one unbounded tokio::sync::mpsc (sending never waits, as in ours) to one
//!            consumer task, which collects them and stops after N digests.
//! Gated (the default): every task first awaits one gate, opened after the last spawn, so that all
//! N exist before any runs. Eager (--start eager): the gate is never shut, so each task runs as soon
//! as a worker takes it, as the 2023 programs' tasks do.
//! Run:    hash_collect N mutex|channel [--start gated|eager]
//! Prints: scenario=hash_collect runtime=tokio n=N sync=V spawn_ms=S wall_ms=W completed=C;
//!         exits 1 if a digest is lost or repeated, or task 0's, recomputed, is not among them.
use sha2::{Digest as _, Sha512};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, Mutex, RwLock};
use uuid::Uuid;

type Digest = [u8; 64];

/// What every task holds one Arc of: the gate, the mutex variant's Vec, task 0's UUID text.
struct Shared {
    gate: RwLock<()>, // write-locked by main while it spawns; each task takes a read first
    digests: Mutex<Vec<Digest>>,
    first: std::sync::Mutex<Option<String>>, // kept for the check: hashed again, its digest must be collected
}

/// Task i's work: the UUID's text on the stack, then its digest.
fn hash(shared: &Shared, i: usize) -> Digest {
    let mut text = [0u8; 36];
    let text = Uuid::new_v4().hyphenated().encode_lower(&mut text);
    if i == 0 {
        *shared.first.lock().unwrap() = Some(text.to_owned());
    }
    Sha512::digest(text.as_bytes()).into()
}

// What #[tokio::main] expands to, written out (Cargo.toml says why): the multi-thread runtime with
// every driver enabled, blocking on the program.
fn main() {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("Failed building the Runtime").block_on(run())
}

async fn run() {
    let (n, locked, eager) = args();
    let digests = Mutex::new(Vec::with_capacity(if locked { n } else { 0 }));
    let shared = Arc::new(Shared { gate: RwLock::new(()), digests, first: std::sync::Mutex::new(None) });
    let (tx, mut rx) = mpsc::unbounded_channel::<Digest>();
    eprintln!("hash_collect: spawning {n} tasks");
    let start = Instant::now();
    // Spawned before the gate, like ours: it only waits for digests.
    let consumer = (!locked).then(|| {
        tokio::spawn(async move {
            let mut digests = Vec::with_capacity(n);
            while digests.len() < n {
                match rx.recv().await {
                    Some(d) => digests.push(d),
                    None => break, // every sender gone early: a task failed, the check says so
                }
            }
            digests
        })
    });
    let closed = if eager { None } else { Some(shared.gate.write().await) };
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let shared = Arc::clone(&shared);
            if locked {
                tokio::spawn(async move {
                    drop(shared.gate.read().await);
                    let d = hash(&shared, i); // outside the lock
                    shared.digests.lock().await.push(d);
                })
            } else {
                let tx = tx.clone();
                tokio::spawn(async move {
                    drop(shared.gate.read().await);
                    tx.send(hash(&shared, i)).expect("the consumer waits for N digests");
                })
            }
        })
        .collect();
    let spawn = start.elapsed();
    drop(closed);
    drop(tx); // the tasks hold the only senders now
    eprintln!("hash_collect: {n} tasks spawned in {} ms", spawn.as_millis());
    let mut completed = 0;
    for h in handles {
        completed += h.await.is_ok() as usize;
    }
    let mut digests = match consumer {
        Some(c) => c.await.expect("the consumer does not panic"),
        None => std::mem::take(&mut *shared.digests.lock().await),
    };
    let wall = start.elapsed();
    check(completed == n, &format!("completed {completed} of {n}"));
    check(digests.len() == n, &format!("collected {} digests of {n}", digests.len()));
    // Sorted in place, not put in a HashSet: the check then takes no memory per digest, so it adds
    // nothing to the max RSS being measured. Equal digests end up side by side.
    digests.sort_unstable();
    check(digests.windows(2).all(|w| w[0] != w[1]), "two digests are equal");
    let again = shared.first.lock().unwrap().as_ref().map(|text| Digest::from(Sha512::digest(text.as_bytes())));
    let found = again.map_or(false, |d| digests.binary_search(&d).is_ok());
    check(found, "task 0's digest, recomputed, is not among those collected");
    println!(
        "scenario=hash_collect runtime=tokio n={n} sync={} start={} spawn_ms={} wall_ms={} completed={completed}",
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
            eprintln!("usage: hash_collect N mutex|channel [--start gated|eager]  (N >= 1)");
            std::process::exit(2)
        }
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("hash_collect: check failed: {what}");
        std::process::exit(1);
    }
}
