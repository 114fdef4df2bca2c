#!/usr/bin/env bash
# Two builds side by side on one load, for a before-and-after when the machine is too noisy for
# two separate runs: the builds alternate for three rounds (AB_ROUNDS=N for more), each run on a
# fresh, seeded server pinned to core 1 (wrk on core 0, 64 connections, 8 s), after a `sync` so no
# run pays for the last one's writeback. Prints each run's rate, its p99 (wrk's) and its CPU time
# per request (perf stat), and the server's context switches per request with how many of them
# were preemptions (/proc). `get`, `display` and `batch` are the benchmark's three reads (a hot
# summary, a display, twenty summaries), `put` its durable write and `mixed` its 90 % GET /
# 10 % PUT load.
#   scripts/ab.sh get|display|batch|put|mixed OLD_BINARY NEW_BINARY   # e.g. an older commit's build from a worktree
# With AB_NEW_POLICY='COMMAND' set, `COMMAND TID` runs on threads of every server the second
# binary starts (which may be the first binary again), to try a scheduling policy on them: the
# event loops (`loop-N`), or the threads whose name matches the glob AB_NEW_THREADS:
#   AB_NEW_POLICY='chrt -b -p 0' scripts/ab.sh put B B          # the loops under SCHED_BATCH
#   AB_NEW_POLICY='renice -n 5 -p' scripts/ab.sh mixed B B      # the loops at nice 5
#   AB_NEW_POLICY='chrt -f -p 1' AB_NEW_THREADS=sqlite-writer scripts/ab.sh put B B  # SCHED_FIFO
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 3 ] && [[ "$1" =~ ^(get|display|batch|put|mixed)$ ]] || { sed -n '2,16p' "$0" >&2; exit 2; }
kind=$1
shift
rounds=${AB_ROUNDS:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "AB_ROUNDS must be a whole number from 1" >&2; exit 2; }
if [ -n "${AB_NEW_THREADS:-}" ] && [ -z "${AB_NEW_POLICY:-}" ]; then
    echo "AB_NEW_THREADS needs AB_NEW_POLICY" >&2
    exit 2
fi
# For the tools and wrk_script; given a binary, it builds nothing.
source scripts/lib/measure.sh --binary "$1"
command -v perf >/dev/null || apt-get install -y -qq linux-perf >/dev/null
source scripts/lib/start-server.sh
# switches: "VOLUNTARY NONVOLUNTARY" context switches so far, over the server's threads.
switches() {
    cat /proc/"$server"/task/*/status |
        awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v, n}'
}
for round in $(seq "$rounds"); do
    for side in old new; do
        binary=$1
        [ $side = new ] && binary=$2
        work=$(mktemp -d)
        sync
        start_server "$binary" "$work" taskset -c 1 || exit 1
        PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port)"
        label="$side: $binary"
        if [ $side = new ] && [ -n "${AB_NEW_POLICY:-}" ]; then
            # A label must not name a policy that did not take: a refused command, or no thread
            # of that name, ends the comparison.
            threads=${AB_NEW_THREADS:-loop-*}
            matched=0
            for task in /proc/"$server"/task/*; do
                # shellcheck disable=SC2053 # the right side is a glob on purpose
                [[ "$(cat "$task/comm")" == $threads ]] || continue
                if ! $AB_NEW_POLICY "${task##*/}" >/dev/null; then
                    echo "AB_NEW_POLICY failed on thread ${task##*/}" >&2
                    exit 1
                fi
                matched=$((matched + 1))
            done
            if [ $matched -eq 0 ]; then
                echo "AB_NEW_THREADS: the server has no thread named $threads" >&2
                exit 1
            fi
            label="$side: $binary, $threads: $AB_NEW_POLICY"
        fi
        url="http://127.0.0.1:$port/"
        case $kind in
            put) read -ra args <<<"$(wrk_script "$work" put-ratings.lua)" ;;
            mixed) read -ra args <<<"$(wrk_script "$work" mixed.lua)" ;;
            get) args=(-s bench/wrk-report.lua) url="http://127.0.0.1:$port/v1/items/bench-37" ;;
            display) args=(-s bench/wrk-report.lua) url="http://127.0.0.1:$port/v1/display?value=3.3&max=5" ;;
            batch) read -ra args <<<"$(wrk_script "$work" get-batch.lua)"; url="http://127.0.0.1:$port/v1/items" ;;
        esac
        BENCH_RUN=w$round taskset -c 0 wrk -t1 -c64 -d1s "${args[@]}" "$url" >/dev/null # warm up
        sync
        perf stat -x, -e task-clock -p "$server" -o "$work/stat" -- sleep 8.2 &
        recorder=$!
        sleep 0.1
        before=$(switches)
        out=$(BENCH_RUN=r$round taskset -c 0 wrk -t1 -c64 -d8s "${args[@]}" "$url")
        after=$(switches)
        wait $recorder
        rate=$(sed -n 's/Requests\/sec: *//p' <<<"$out")
        requests=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' <<<"$out")
        cpu=$(awk -F, -v n="$requests" '/task-clock/ {printf "%.1f", $1 * 1000 / n}' "$work/stat")
        p99=$(sed -n 's/.*"p99_ms":\([0-9.]*\).*/\1/p' <<<"$out")
        switched=$(awk -v n="$requests" '{printf "%.3f context switches per request, %.3f of them preemptions",
            ($3 + $4 - $1 - $2) / n, ($4 - $2) / n}' <<<"$before $after")
        echo "round $round, $label: $rate req/s, p99 $p99 ms, $cpu µs of CPU per request," "$switched"
        kill -TERM "$server"
        wait "$server" 2>/dev/null
        rm -rf "$work"
    done
done
