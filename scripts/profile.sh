#!/usr/bin/env bash
# Where the time goes on the GET and PUT paths: runs the release server pinned to one core,
# loads it with wrk from the other, samples it with `perf record -g`, and prints for each path
# the hottest functions (self time, demangled), the shares of each library and thread, and the
# system calls (with what they called) that took over 1 % of the server's time. Last it profiles
# the C floor of the benchmark (bench/put-floor-server.c) under the same PUT load, on the same
# core, alone and with the service's hand-over to a writer thread, so the by-thread-and-library
# table in microseconds of CPU per request sets a PUT through the server beside one through the
# least HTTP server in front of the same statements.
#   scripts/profile.sh                   # the current tree
#   scripts/profile.sh --binary PATH     # another build, e.g. an older commit's, for before/after
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/perf-target.sh "$@" # the server on core 1, wrk on core 0
PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port)"

# The table rows of a `perf report --stdio`, without its header comments (one of which, a random
# tip, mentions --percent-limit and a percentage).
rows() { grep -E '^ +[0-9.]+%'; }

profile() { # profile NAME PID URL [SCRIPT]
    local args=(-t1 -c64 -d8s) script output requests
    read -ra script <<<"$(wrk_script "$work" "${4:-}")"
    args+=("${script[@]}")
    perf record -q -F 999 -g -p "$2" -o "$work/$1.data" -- sleep 9 >/dev/null 2>&1 &
    local recorder=$!
    sleep 0.5
    output=$(taskset -c 0 wrk "${args[@]}" "$3")
    requests=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' <<<"$output")
    echo "== $1: $(grep -E 'Requests/sec' <<<"$output")"
    wait $recorder || true
    perf report -i "$work/$1.data" --no-children --sort symbol -g none --percent-limit 1.2 2>/dev/null \
        | rows | swift demangle --simplified | cut -c1-140
    echo "-- $1 by thread and library (the kernel, SQLite, the binary, libc, the Swift runtime), and in µs of CPU per request:"
    # A sample stands for 1/999 s of the one core the server has (wrk ran all the while).
    perf report -i "$work/$1.data" --no-children --sort comm,dso -g none -n --percent-limit 0.5 2>/dev/null |
        rows | awk -v n="$requests" '{printf "%9s %8.2f µs  %-16s %s\n", $1, $2 * 1e6 / 999 / n, $3, $4}'
    echo "-- $1 by thread (in the server the loops are loop-N, the SQLite writer sqlite-writer and its WAL syncer sqlite-sync, SQLite's readers Dispatch workers),"
    echo "   and the system calls that took over 1 % (with what they called):"
    perf report -i "$work/$1.data" --no-children --sort comm -g none 2>/dev/null | rows
    perf report -i "$work/$1.data" --children --sort comm,symbol -g none --percent-limit 1 2>/dev/null \
        | grep -E '\[k\] (__x64_sys_|handle_softirqs)' | cut -c1-100
}
profile GET "$server" "http://127.0.0.1:$port/v1/items/bench-37"
profile PUT "$server" "http://127.0.0.1:$port/" put-ratings.lua

# The floor answers with as many bytes as the server's PUT does, on a fresh database of its own.
# Built by the benchmark's own PutFloor, into $work/put-floor-server, as scripts/bench.sh builds it.
answer_bytes=$(PYTHONPATH=bench python3 -c "import benchlib, sys
print(benchlib.PutFloor(sys.argv[1], benchlib.put_answer_bytes(sys.argv[2])).answer_bytes)" "$work" "http://127.0.0.1:$port")
kill -TERM "$server"
wait "$server" || true
floor=
trap 'if [ -n "$floor" ]; then kill -TERM $floor 2>/dev/null || true; wait $floor 2>/dev/null || true; fi; rm -rf "'"$work"'"' EXIT

profile_floor() { # profile_floor NAME HANDOVER: the floor on a fresh database, HANDOVER=1 with the
    # service's hand-over (its threads named as the service's, loop-1 and sqlite-writer, so each
    # thread's libraries stand beside the server's own)
    rm -f "$work"/floor.sqlite*
    ANSWER_BYTES=$answer_bytes HANDOVER=$2 taskset -c 1 "$work/put-floor-server" "$work/floor.sqlite" migrations/sqlite/*.sql >"$work/floor.log" &
    floor=$!
    local floor_port
    floor_port=$(listening_port "$work/floor.log") || { echo "the floor server did not start" >&2; exit 1; }
    profile "$1" "$floor" "http://127.0.0.1:$floor_port/" put-ratings.lua
    kill -TERM "$floor"
    wait "$floor" || true
}
profile_floor "PUT, the C floor" 0
profile_floor "PUT, the C floor with the hand-over" 1
