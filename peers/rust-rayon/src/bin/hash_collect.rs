//! hash_collect, Rust rayon: `(0..N).into_par_iter().for_each`, one closure call per digest; each
//! makes a fresh version-4 UUID (the uuid crate, its random bytes from rand's thread_rng: the
//! "fast-rng" feature), takes the SHA-512 (sha2) of its 36-char text and hands the 64-byte digest
//! to ONE collector.
//!   mutex:   appended to a Vec (reserved to N first, as ours) under a std::sync::Mutex.
//!   channel: sent on one unbounded crossbeam-channel (sending never waits, as in ours) to one
//!            consumer thread, started before the par_iter, which collects them and stops after
//!            N digests.
//! Not gated, and never N tasks alive at once: rayon splits 0..N among its workers (one per core,
//! RAYON_NUM_THREADS) as they steal, and runs each part's calls one after another. Nothing is
//! spawned up front, so spawn_ms is 0.
//! Run:    hash_collect N mutex|channel
//! Prints: scenario=hash_collect runtime=rayon n=N sync=V spawn_ms=0 wall_ms=W completed=C;
//!         exits 1 if a digest is lost or repeated, or task 0's, recomputed, is not among them.
use rayon::prelude::*;
use sha2::{Digest as _, Sha512};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;
use uuid::Uuid;

type Digest = [u8; 64];

/// Call i's work: the UUID's text on the stack, then its digest; call 0 keeps its text in first.
fn hash(first: &Mutex<Option<String>>, i: usize) -> Digest {
    let mut text = [0u8; 36];
    let text = Uuid::new_v4().hyphenated().encode_lower(&mut text);
    if i == 0 {
        *first.lock().unwrap() = Some(text.to_owned());
    }
    Sha512::digest(text.as_bytes()).into()
}

fn main() {
    let (n, locked) = args();
    let first = Mutex::new(None); // for the check: hashed again, its digest must be collected
    eprintln!("hash_collect: spawning {n} tasks");
    let start = Instant::now();
    // No spawning phase (see the header): 0 ms, for the same lines as the other peers.
    eprintln!("hash_collect: {n} tasks spawned in 0 ms");
    let mut digests = if locked {
        let digests = Mutex::new(Vec::with_capacity(n));
        (0..n).into_par_iter().for_each(|i| {
            let d = hash(&first, i); // outside the lock
            digests.lock().unwrap().push(d);
        });
        digests.into_inner().unwrap()
    } else {
        let (tx, rx) = crossbeam_channel::unbounded::<Digest>();
        let consumer = thread::spawn(move || {
            let mut digests = Vec::with_capacity(n);
            while digests.len() < n {
                match rx.recv() {
                    Ok(d) => digests.push(d),
                    Err(_) => break, // every sender gone early: the check says so
                }
            }
            digests
        });
        (0..n).into_par_iter().for_each(|i| tx.send(hash(&first, i)).expect("the consumer waits for N digests"));
        drop(tx);
        consumer.join().expect("the consumer does not panic")
    };
    // for_each returned, so every call ran: a panic in one would have re-raised there.
    let completed = n;
    let wall = start.elapsed();
    check(digests.len() == n, &format!("collected {} digests of {n}", digests.len()));
    // Sorted in place, not put in a HashSet: the check then takes no memory per digest, so it adds
    // nothing to the max RSS being measured. Equal digests end up side by side.
    digests.sort_unstable();
    check(digests.windows(2).all(|w| w[0] != w[1]), "two digests are equal");
    let again = first.lock().unwrap().as_ref().map(|text| Digest::from(Sha512::digest(text.as_bytes())));
    let found = again.map_or(false, |d| digests.binary_search(&d).is_ok());
    check(found, "task 0's digest, recomputed, is not among those collected");
    println!(
        "scenario=hash_collect runtime=rayon n={n} sync={} spawn_ms=0 wall_ms={} completed={completed}",
        if locked { "mutex" } else { "channel" },
        wall.as_millis()
    );
}

/// N (digits only, >= 1) and the variant, mutex (true) or channel; anything else is a usage
/// error, exit 2.
fn args() -> (usize, bool) {
    let a: Vec<String> = std::env::args().skip(1).collect();
    // parse alone would take "+5".
    let n = a.first().filter(|s| s.bytes().all(|b| b.is_ascii_digit())).and_then(|s| s.parse::<usize>().ok());
    match (n, a.get(1).map(String::as_str)) {
        (Some(n), Some(v @ ("mutex" | "channel"))) if n >= 1 && a.len() == 2 => (n, v == "mutex"),
        _ => {
            eprintln!("usage: hash_collect N mutex|channel  (N >= 1)");
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
