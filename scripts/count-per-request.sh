#!/usr/bin/env bash
# How many allocations, reference-count operations and WAL syncs each hot path costs per
# request: the release server pinned to core 1, wrk on core 0, perf uprobes on malloc,
# swift_retain and swift_release counted over a 3-second load and divided by the requests wrk
# completed; for writes, a second load without the uprobes (which slow the loop and so change how
# writes group) counts the fdatasync calls. Counts, unlike times, barely move with a noisy machine,
# so they show what a change to the request path saved. Needs root (uprobes).
#   scripts/count-per-request.sh                  # the current tree
#   scripts/count-per-request.sh --binary PATH    # another build, e.g. an older commit's
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/perf-target.sh "$@" # the server on core 1, wrk on core 0
libc=$(ldd "$binary" | awk '/libc\.so\.6/ {print $3}')
swift_core=$(ldd "$binary" | awk '/libswiftCore\.so/ {print $3}')
trap 'perf probe -q -d "ratings_count:*" 2>/dev/null || true; kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
perf probe -q -d "ratings_count:*" 2>/dev/null || true
perf probe -q -x "$libc" -a "ratings_count:count_malloc=malloc"
perf probe -q -x "$swift_core" -a "ratings_count:count_retain=swift_retain" -a "ratings_count:count_release=swift_release"
PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port)"

load() { # load NAME PATH SCRIPT EVENTS: prints "requests" after a 3 s load, perf counts in $work/stat
    local extra
    read -ra extra <<<"$(wrk_script "$work" "$3")"
    taskset -c 0 wrk -t1 -c64 -d1s "${extra[@]}" "http://127.0.0.1:$port$2" >/dev/null # warm up
    perf stat -x, -e "$4" -p "$server" -o "$work/stat" -- sleep 3.4 &
    local recorder=$!
    sleep 0.2
    local requests
    requests=$(taskset -c 0 wrk -t1 -c64 -d3s "${extra[@]}" "http://127.0.0.1:$port$2" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    wait $recorder
    echo "$requests"
}

count() { # count NAME PATH [SCRIPT]
    local requests syncs="" writes
    if [ "$2" = / ]; then
        writes=$(load "$1" "$2" "${3:-}" syscalls:sys_enter_fdatasync)
        syncs=$(awk -F, -v n="$writes" '/fdatasync/ && $1 > 0 { printf "%.1f", n / $1 }' "$work/stat")
    fi
    requests=$(load "$1" "$2" "${3:-}" ratings_count:count_malloc,ratings_count:count_retain,ratings_count:count_release)
    awk -F, -v name="$1" -v n="$requests" -v syncs="$syncs" '
        /count_malloc/ { m = $1 } /count_retain/ { r = $1 } /count_release/ { d = $1 }
        END { printf "| %s | %.1f | %.1f | %.1f | %s |\n", name, m / n, r / n, d / n, syncs }' "$work/stat"
}

echo "| per request | malloc | swift_retain | swift_release | requests per WAL sync |"
echo "|---|---:|---:|---:|---:|"
count '`GET /v1/items/{id}`, hot summary' /v1/items/bench-37
count '`GET /v1/display`' "/v1/display?value=3.3&max=5"
count '`GET /v1/items?ids=`, 20 ids' /v1/items get-batch.lua
count 'durable `PUT` (SQLite'"'"'s own allocations included)' / put-ratings.lua
