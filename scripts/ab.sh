#!/usr/bin/env bash
# Two builds side by side on one load, for a before-and-after when the machine is too noisy for
# two separate runs: the builds alternate for three rounds, each run on a fresh, seeded server
# pinned to core 1 (wrk on core 0, 64 connections, 8 s), after a `sync` so no run pays for the
# last one's writeback. Prints each run's rate and its CPU time per request (perf stat).
#   scripts/ab.sh get|put OLD_BINARY NEW_BINARY     # e.g. an older commit's build from a worktree
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 3 ] && { [ "$1" = get ] || [ "$1" = put ]; } || { sed -n '2,6p' "$0" >&2; exit 2; }
kind=$1
shift
# For the tools and wrk_script; given a binary, it builds nothing.
source scripts/lib/measure.sh --binary "$1"
command -v perf >/dev/null || apt-get install -y -qq linux-perf >/dev/null
source scripts/lib/start-server.sh
for round in 1 2 3; do
    for binary in "$@"; do
        work=$(mktemp -d)
        sync
        start_server "$binary" "$work" taskset -c 1 || exit 1
        PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port)"
        if [ "$kind" = put ]; then
            read -ra args <<<"$(wrk_script "$work" put-ratings.lua)"
            url="http://127.0.0.1:$port/"
        else
            args=()
            url="http://127.0.0.1:$port/v1/items/bench-37"
        fi
        BENCH_RUN=w$round taskset -c 0 wrk -t1 -c64 -d1s "${args[@]}" "$url" >/dev/null # warm up
        sync
        perf stat -x, -e task-clock -p "$server" -o "$work/stat" -- sleep 8.2 &
        recorder=$!
        sleep 0.1
        out=$(BENCH_RUN=r$round taskset -c 0 wrk -t1 -c64 -d8s "${args[@]}" "$url")
        wait $recorder
        rate=$(sed -n 's/Requests\/sec: *//p' <<<"$out")
        requests=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' <<<"$out")
        cpu=$(awk -F, -v n="$requests" '/task-clock/ {printf "%.1f", $1 * 1000 / n}' "$work/stat")
        echo "round $round, $binary: $rate req/s, $cpu µs of CPU per request"
        kill -TERM "$server"
        wait "$server" 2>/dev/null
        rm -rf "$work"
    done
done
