"""Each scenario, described once: plan.py plans from this table, run.py takes the list of scenarios from it, and
tests/cli_test.sh checks each binary against it (`python3 harness/scenarios.py` prints the table for the shell)."""

# The keys of the one summary line every binary prints on stdout; a scenario's own follow in its row.
COMMON = ("scenario n spawn_ms waiting_ms wall_ms rss_base_kib rss_wait_kib rss_avg_kib rss_peak_kib bytes_per_task"
          " completed")
# A row: its name; the sleep in ms the binary takes when given none (None: none); the sleep --peers gives every runtime
# when SLEEP_MS is unset ("long": peers_sleep_ms, long enough for every task to be alive at once; None: none); its
# variant keys ("-": none; ours takes --sync KEY, a peer PROGRAM N KEY); whether each task is an OS thread (then it
# takes no THREADS and runs min(N, THREAD_CAP)); the options run.sh passes our binary, each when its setting is set (a
# peer takes the same after its first two arguments, except --sleep-ms, --threads and --sync); what a peer's program
# takes first, N and the sleep (N MS) or N and the variant (N KEY); the keys of its summary line beyond COMMON.
TIMER, LATE = "--sleep-ms --threads", "threads frame_bytes late_max_ms late_p99_ms"
ROWS = (
    ("threads", 5000, "long", "-", True, "--sleep-ms", "N MS", "sleep_ms stack_kib"),
    ("coro_timer", 5000, "long", "-", False, TIMER, "N MS", f"sleep_ms jitter_ms {LATE} ended_at_spawn"),
    ("coro_shared", 5000, "long", "-", False, TIMER, "N MS", f"sleep_ms {LATE} ended_at_spawn"),
    ("atomic_counter", 1000, "1000", "-", False,
     f"{TIMER} --hits --mode --spawn-from --poll-ms --burst --burst-pause-ms", "N MS",
     "mode hits_target poll_ms spawn_from burst burst_pause_ms sleep_ms threads frame_bytes hits reached_ms hits_per_s"
     " late_max_ms late_p99_ms"),
    ("running_avg", None, None, "mutex channel", False, "--sync --start --threads", "N KEY",
     "sync start threads seed frame_bytes mean variance"),
    ("hash_collect", None, None, "mutex channel", False, "--sync --start --threads", "N KEY",
     "sync start threads seed frame_bytes"))
SCENARIOS = {name: {"sleep": sleep, "peers_sleep": peers_sleep, "keys": keys.split(), "threads": thread_each,
                    "options": options.split(), "start": "--start" in options, "counter": "--hits" in options,
                    "peer_args": peer_args, "summary": f"{COMMON} {summary}".split()}
             for name, sleep, peers_sleep, keys, thread_each, options, peer_args, summary in ROWS}

if __name__ == "__main__":  # a line a scenario, NAME|OPTIONS|SUMMARY KEYS, after the common keys' line "*||COMMON"
    print(f"*||{COMMON}")
    for name, d in SCENARIOS.items():
        print(name, " ".join(d["options"]), " ".join(d["summary"]), sep="|")
