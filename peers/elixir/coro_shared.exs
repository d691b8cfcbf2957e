# coro_shared, Elixir: one timer process sleeps SLEEP_MS and exits; N processes started with
# Task.async each monitor it and wait for its :DOWN message; Task.await_many waits for the N.
# Run:    elixir --erl "+P 2000000" coro_shared.exs N [SLEEP_MS=5000]   (+P: room for N processes)
# Prints: scenario=coro_shared runtime=elixir n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E rss_wait_kib=R wall_ms=W
#         completed=C; exits 1 if C != N. S: ms from start (the timer process is spawned first) until
#         the spawn comprehension returns (Task.async starts each process at once); E: waiters whose
#         process had already exited then (the timer fired while spawning went on).
defmodule CoroShared do
  def main(argv) do
    {n, ms} = args(argv, 5000)
    start = System.monotonic_time()
    timer = spawn(fn -> Process.sleep(ms) end)

    # A monitor set on a process that has already exited delivers :DOWN at once.
    waiter = fn ->
      ref = Process.monitor(timer)
      receive do
        {:DOWN, ^ref, :process, _, _} -> :ok
      end
    end

    tasks = for _ <- 1..n, do: Task.async(waiter)
    spawn_ms = round(System.convert_time_unit(System.monotonic_time() - start, :native, :microsecond) / 1000)
    # A scan after the moment: a process that ran to its end is no longer alive (no per-task memory added).
    ended = Enum.count(tasks, &(not Process.alive?(&1.pid)))
    rss_wait = rss_kib()  # every task exists and waits
    completed = Enum.count(Task.await_many(tasks, :infinity), &(&1 == :ok))
    wall = System.convert_time_unit(System.monotonic_time() - start, :native, :millisecond)
    check(completed == n, "completed #{completed} of #{n}")
    check(wall >= ms, "the run took less than one sleep")
    IO.puts("scenario=coro_shared runtime=elixir n=#{n} sleep_ms=#{ms} spawn_ms=#{spawn_ms} " <>
              "ended_at_spawn=#{ended} rss_wait_kib=#{rss_wait} wall_ms=#{wall} completed=#{completed}")
  end

  # N (>= 1) and SLEEP_MS from the command line; anything else is a usage error, exit 2.
  defp args(argv, default_ms) do
    case Enum.map(argv, &Integer.parse/1) do
      [{n, ""}] when n >= 1 -> {n, default_ms}
      [{n, ""}, {ms, ""}] when n >= 1 and ms >= 0 -> {n, ms}
      _ ->
        IO.puts(:stderr, "usage: elixir coro_shared.exs N [SLEEP_MS=#{default_ms}]  (N >= 1)")
        System.halt(2)
    end
  end

  # The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status (Linux), else "-".
  defp rss_kib do
    with {:ok, status} <- File.read("/proc/self/status"),
         [_, kib] <- Regex.run(~r/^VmRSS:\s+(\d+)/m, status) do
      kib
    else
      _ -> "-"
    end
  end

  defp check(true, _what), do: :ok

  defp check(false, what) do
    IO.puts(:stderr, "coro_shared: check failed: #{what}")
    System.halt(1)
  end
end

CoroShared.main(System.argv())
