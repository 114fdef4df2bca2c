#!/usr/bin/env bash
# How many allocations, reference-count operations and WAL syncs each hot path costs per
# request: the release server pinned to core 1, wrk on core 0, perf uprobes on malloc,
# swift_retain and swift_release counted over a 3-second load and divided by the requests wrk
# completed; for writes, a second load without the uprobes (which slow the loop and so change how
# writes group) counts the system calls by thread: the requests per fdatasync in the first table,
# and a second table that sets the file system calls of the writer and its WAL syncer per `PUT`
# beside those the C reference (bench/sqlite-ceiling.c) makes per rating written, into a database
# that holds as many ratings as the server's did (its warm-up's), with 64 ratings per commit and
# with the server's own group size. Counts, unlike times, barely move with a noisy machine, so they show what a change to
# the request path saved. Needs root (uprobes).
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

load() { # load NAME PATH SCRIPT EVENTS [PERF_OPTION...]: prints "requests" after a 3 s load, perf counts in $work/stat
    local extra
    read -ra extra <<<"$(wrk_script "$work" "$3")"
    taskset -c 0 wrk -t1 -c64 -d1s "${extra[@]}" "http://127.0.0.1:$port$2" \
        | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' >"$work/warm-up" # warm up
    perf stat -x, "${@:5}" -e "$4" -p "$server" -o "$work/stat" -- sleep 3.4 &
    local recorder=$!
    sleep 0.2
    local requests
    requests=$(taskset -c 0 wrk -t1 -c64 -d3s "${extra[@]}" "http://127.0.0.1:$port$2" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    wait $recorder
    echo "$requests"
}

count() { # count NAME PATH [SCRIPT]
    local requests syncs=""
    if [ "$2" = / ]; then
        writes=$(load "$1" "$2" "${3:-}" "$(syscall_events)" --per-thread)
        cp "$work/stat" "$work/write-syscalls"
        cp "$work/warm-up" "$work/write-warm-up"
        syncs=$(awk -F, -v n="$writes" '/fdatasync/ && $2 > 0 { s += $2 } END { if (s) printf "%.1f", n / s }' "$work/stat")
        server_group=$(printf '%.0f' "${syncs:-64}")
    fi
    requests=$(load "$1" "$2" "${3:-}" ratings_count:count_malloc,ratings_count:count_retain,ratings_count:count_release)
    awk -F, -v name="$1" -v n="$requests" -v syncs="$syncs" '
        /count_malloc/ { m = $1 } /count_retain/ { r = $1 } /count_release/ { d = $1 }
        END { printf "| %s | %.1f | %.1f | %.1f | %s |\n", name, m / n, r / n, d / n, syncs }' "$work/stat"
}

# The system calls of the second table, in its order: the file's, the writer's hand-over, the socket's.
calls=(pwrite64 pread64 fdatasync fcntl futex sched_yield read write sendto recvfrom epoll_wait)
syscall_events() { local call; for call in "${calls[@]}"; do printf 'syscalls:sys_enter_%s,' "$call"; done | sed 's/,$//'; }

echo "| per request | malloc | swift_retain | swift_release | requests per WAL sync |"
echo "|---|---:|---:|---:|---:|"
count '`GET /v1/items/{id}`, hot summary' /v1/items/bench-37
count '`GET /v1/display`' "/v1/display?value=3.3&max=5"
count '`GET /v1/items?ids=`, 20 ids' /v1/items get-batch.lua
count 'durable `PUT` (SQLite'"'"'s own allocations included)' / put-ratings.lua

# The C reference, as scripts/bench.sh builds and runs it, from a fresh database each time: once
# for as many ratings as the server's warm-up wrote, once for those and the counted load's too; the
# difference is what the counted ratings cost it. It runs with its 64 ratings per commit, and again
# with the server's own group size (its requests per WAL sync, rounded), so the table shows how much
# of any difference the group size alone makes.
# Built by the benchmark's own SQLiteCeiling, into $work/sqlite-ceiling.
PYTHONPATH=bench python3 -c "import benchlib, sys; benchlib.SQLiteCeiling(sys.argv[1])" "$work"
migrations=(migrations/sqlite/*.sql)
warm_up=$(cat "$work/write-warm-up")
[ "${warm_up:-0}" -gt 0 ] || { echo "the PUT warm-up wrote nothing" >&2; exit 1; } # 0 would mean "no limit"
reference() { # reference GROUP FILE: "call,per rating" lines for the counted ratings, GROUP per commit
    local run ratings=$warm_up
    for run in before after; do
        rm -f "$work"/ceiling.sqlite*
        perf stat -x, -e "$(syscall_events)" -o "$work/$run" -- env RATINGS_PER_COMMIT="$1" taskset -c 1 \
            "$work/sqlite-ceiling" "$work/ceiling.sqlite" 600 "$ratings" "${migrations[@]}" >/dev/null
        ratings=$((warm_up + writes))
    done
    # Each run writes whole commits.
    local counted=$(( (warm_up + writes + $1 - 1) / $1 * $1 - (warm_up + $1 - 1) / $1 * $1 ))
    awk -F, -v counted="$counted" '/syscalls/ { if (FILENAME ~ /before$/) b[$3] = $1; else printf "%s,%.3f\n", substr($3, 20), ($1 - b[$3]) / counted }' \
        "$work/before" "$work/after" >"$2"
}
reference 64 "$work/reference-64"
reference "$server_group" "$work/reference-server-group"
echo
echo "| system calls per durable write | the server's \`sqlite-writer\` and \`sqlite-sync\`, per \`PUT\` | its other threads, per \`PUT\` | C reference, per rating, 64 per commit | C reference, $server_group per commit |"
echo "|---|---:|---:|---:|---:|"
for call in "${calls[@]}"; do
    awk -F, -v call="$call" -v n="$writes" '
        FILENAME ~ /write-syscalls$/ && $4 == "syscalls:sys_enter_" call { if ($1 ~ /^sqlite-(writer|sync)-/) w += $2; else o += $2 }
        FILENAME ~ /reference-64$/ && $1 == call { r64 = $2 }
        FILENAME ~ /reference-server-group$/ && $1 == call { rs = $2 }
        END { printf "| `%s` | %.3f | %.3f | %s | %s |\n", call, w / n, o / n, r64, rs }' \
        "$work/write-syscalls" "$work/reference-64" "$work/reference-server-group"
done
