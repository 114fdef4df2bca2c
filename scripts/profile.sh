#!/usr/bin/env bash
# Where the time goes on the GET and PUT paths: runs the release server pinned to one core,
# loads it with wrk from the other, samples it with `perf record -g`, and prints for each path
# the hottest functions (self time, demangled), the shares of each library and thread, and the
# system calls (with what they called) that took over 1 % of the server's time.
#   scripts/profile.sh                   # the current tree
#   scripts/profile.sh --binary PATH     # another build, e.g. an older commit's, for before/after
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/perf-target.sh "$@" # the server on core 1, wrk on core 0
PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port)"

profile() { # profile NAME URL [SCRIPT]
    local args=(-t1 -c64 -d8s) script
    read -ra script <<<"$(wrk_script "$work" "${3:-}")"
    args+=("${script[@]}")
    perf record -q -F 999 -g -p "$server" -o "$work/$1.data" -- sleep 9 >/dev/null 2>&1 &
    local recorder=$!
    sleep 0.5
    echo "== $1: $(taskset -c 0 wrk "${args[@]}" "$2" | grep -E 'Requests/sec')"
    wait $recorder || true
    perf report -i "$work/$1.data" --no-children --sort symbol -g none --percent-limit 1.2 2>/dev/null \
        | grep '%' | swift demangle --simplified | cut -c1-140
    echo "-- $1 by library (the kernel, SQLite, the binary, libc, the Swift runtime):"
    perf report -i "$work/$1.data" --no-children --sort dso -g none --percent-limit 0.5 2>/dev/null | grep '%'
    echo "-- $1 by thread (the loops are loop-N, the SQLite writer sqlite-writer, SQLite's readers Dispatch workers),"
    echo "   and the system calls that took over 1 % (with what they called):"
    perf report -i "$work/$1.data" --no-children --sort comm -g none 2>/dev/null | grep '%'
    perf report -i "$work/$1.data" --children --sort comm,symbol -g none --percent-limit 1 2>/dev/null \
        | grep -E '\[k\] (__x64_sys_|handle_softirqs)' | cut -c1-100
}
profile GET "http://127.0.0.1:$port/v1/items/bench-37"
profile PUT "http://127.0.0.1:$port/" put-ratings.lua
