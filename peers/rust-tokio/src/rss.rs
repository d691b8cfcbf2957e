//! The program's own resident set: rss_wait_kib=, once every task exists and waits (coro_timer and
//! coro_shared). Each of those programs includes this file (`#[path = "../rss.rs"] mod rss;`).

/// VmRSS in KiB from /proc/self/status (Linux), "-" where there is no such file.
pub fn kib() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:"));
    line.and_then(|l| l.split_whitespace().nth(1)).unwrap_or("-").to_string()
}
