%% coro_timer, Erlang: N processes from spawn/1, each waits SLEEP_MS in `receive after` and then
%% tells main it is done; main waits for N of those messages. These are the raw processes that
%% Elixir's Task.async wraps (elixir/coro_timer.exs), without a Task's reply and monitor.
%% Build:  erlc coro_timer.erl
%% Run:    erl -noshell +P PROCS -run coro_timer main -extra N [SLEEP_MS=5000]   (+P: room for N processes)
%% Prints: scenario=coro_timer runtime=erlang n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E
%%         rss_wait_kib=R wall_ms=W completed=C; exits 1 if C != N. S: ms from start until the
%%         spawn loop returned (a process may run at once); E: processes that had already ended
%%         by then, the done messages already in main's mailbox.
-module(coro_timer).
-export([main/0]).

%% Run by erl -run, which would go on running after a crash: any failure ends the run, exit 1. The
%% arguments come after -extra, so that erl takes none of them ("-5") for one of its own flags.
main() ->
    try run(init:get_plain_arguments())
    catch Class:Reason ->
        io:format(standard_error, "coro_timer: ~p: ~p~n", [Class, Reason]),
        halt(1)
    end.

run(Args) ->
    {N, Ms} = args(Args, 5000),
    Main = self(),
    Start = erlang:monotonic_time(),
    spawn_all(N, fun() -> receive after Ms -> Main ! done end end),
    SpawnMs = ms_since(Start),
    {message_queue_len, EndedAtSpawn} = process_info(Main, message_queue_len),
    RssWait = rss_kib(), % every process exists (the last spawned may not have begun its wait yet)
    Completed = wait(N, 0),
    WallMs = ms_since(Start),
    check(Completed =:= N, io_lib:format("completed ~b of ~b", [Completed, N])),
    check(WallMs >= Ms, "the run took less than one sleep"),
    io:format("scenario=coro_timer runtime=erlang n=~b sleep_ms=~b spawn_ms=~b ended_at_spawn=~b "
              "rss_wait_kib=~s wall_ms=~b completed=~b~n",
              [N, Ms, SpawnMs, EndedAtSpawn, RssWait, WallMs, Completed]),
    halt(0).

spawn_all(0, _) -> ok;
spawn_all(K, Task) -> spawn(Task), spawn_all(K - 1, Task).

wait(0, Done) -> Done;
wait(K, Done) -> receive done -> wait(K - 1, Done + 1) end.

ms_since(Start) ->
    erlang:convert_time_unit(erlang:monotonic_time() - Start, native, millisecond).

%% N (>= 1) and SLEEP_MS from the command line, digits only; anything else is a usage error, exit 2.
args(Args, DefaultMs) ->
    case [number(A) || A <- Args] of
        [N] when N >= 1 -> {N, DefaultMs};
        [N, Ms] when N >= 1, Ms >= 0 -> {N, Ms};
        _ ->
            io:format(standard_error, "usage: coro_timer N [SLEEP_MS=~b]  (N >= 1)~n", [DefaultMs]),
            halt(2)
    end.

number(S) ->
    case S =/= "" andalso length(S) < 10 andalso lists:all(fun(C) -> C >= $0 andalso C =< $9 end, S) of
        true -> list_to_integer(S);
        false -> -1
    end.

%% The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status (Linux), else "-".
rss_kib() ->
    case file:read_file("/proc/self/status") of
        {ok, Status} ->
            case re:run(Status, "VmRSS:\\s+(\\d+)", [{capture, [1], list}]) of
                {match, [Kib]} -> Kib;
                nomatch -> "-"
            end;
        {error, _} -> "-"
    end.

check(true, _) -> ok;
check(false, What) ->
    io:format(standard_error, "coro_timer: check failed: ~s~n", [What]),
    halt(1).
