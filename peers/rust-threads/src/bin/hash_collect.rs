//! hash_collect, Rust std threads: one OS thread per digest (std's default stack; run.sh caps N at
//! THREAD_CAP, as for the threads scenario); each makes a fresh version-4 UUID (the uuid crate, its
//! random bytes from rand's thread_rng: the "fast-rng" feature), takes the SHA-512 (sha2) of its
//! 36-char text and hands the 64-byte digest to ONE collector.
//!   mutex:   appended to a Vec (reserved to N first, as ours) under a std::sync::Mutex.
//!   channel: sent on one std::sync::mpsc channel (unbounded: sending never waits, as in ours) to
//!            one consumer thread, which collects them and stops after N digests.
//! Gated (the default): every thread first waits at one gate (a flag and a Condvar), opened after
//! the last spawn, so that all N exist before any runs. Eager (--start eager): the gate is open from
//! the start, so each thread runs as soon as it is spawned, as the 2023 programs' threads do.
//! Run:    hash_collect N mutex|channel [--start gated|eager]
//! Prints: scenario=hash_collect runtime=rust-std n=N sync=V spawn_ms=S wall_ms=W completed=C;
//!         exits 1 if a thread cannot start, a digest is lost or repeated, or task 0's,
//!         recomputed, is not among them.
use sha2::{Digest as _, Sha512};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::thread;
use std::time::Instant;
use uuid::Uuid;

type Digest = [u8; 64];

/// What every thread holds one Arc of: the gate, the mutex variant's Vec, task 0's UUID text.
struct Shared {
    open: Mutex<bool>, // the gate: false while main spawns
    opened: Condvar,
    digests: Mutex<Vec<Digest>>,
    first: Mutex<Option<String>>, // kept for the check: hashed again, its digest must be collected
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

/// Task i's work: the UUID's text on the stack, then its digest.
fn hash(shared: &Shared, i: usize) -> Digest {
    let mut text = [0u8; 36];
    let text = Uuid::new_v4().hyphenated().encode_lower(&mut text);
    if i == 0 {
        *shared.first.lock().unwrap() = Some(text.to_owned());
    }
    Sha512::digest(text.as_bytes()).into()
}

fn main() {
    let (n, locked, eager) = args();
    let digests = Mutex::new(Vec::with_capacity(if locked { n } else { 0 }));
    let shared = Arc::new(Shared { open: Mutex::new(eager), opened: Condvar::new(), digests, first: Mutex::new(None) });
    let (tx, rx) = mpsc::channel::<Digest>();
    eprintln!("hash_collect: spawning {n} tasks");
    let start = Instant::now();
    // Started before the gate, like ours: it only waits for digests.
    let consumer = (!locked).then(|| {
        thread::spawn(move || {
            let mut digests = Vec::with_capacity(n);
            while digests.len() < n {
                match rx.recv() {
                    Ok(d) => digests.push(d),
                    Err(_) => break, // every sender gone early: a thread failed, the check says so
                }
            }
            digests
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
                let d = hash(&shared, i); // outside the lock
                match tx {
                    Some(tx) => tx.send(d).expect("the consumer waits for N digests"),
                    None => shared.digests.lock().unwrap().push(d),
                }
            }
        };
        // Builder::spawn returns the OS's refusal instead of panicking like thread::spawn.
        match thread::Builder::new().spawn(work) {
            Ok(h) => handles.push(h),
            Err(e) => {
                eprintln!("hash_collect: thread {} of {n} not started: {e}; joining the others", i + 1);
                shared.open();
                handles.into_iter().for_each(|h| drop(h.join()));
                std::process::exit(1);
            }
        }
    }
    let spawn = start.elapsed();
    shared.open();
    drop(tx); // the threads hold the only senders now
    eprintln!("hash_collect: {n} tasks spawned in {} ms", spawn.as_millis());
    let completed = handles.into_iter().map(|h| h.join().is_ok() as usize).sum::<usize>();
    let mut digests = match consumer {
        Some(c) => c.join().expect("the consumer does not panic"),
        None => std::mem::take(&mut *shared.digests.lock().unwrap()),
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
        "scenario=hash_collect runtime=rust-std n={n} sync={} start={} spawn_ms={} wall_ms={} completed={completed}",
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
