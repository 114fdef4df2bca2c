#!/usr/bin/env bash
# Whether the benchmark's C reference writes the pages the service writes: WAL frames per commit
# and per rating, counted from the frames' own headers (strace of every pwrite, see
# benchlib.wal_frames). The release server, pinned to core 1 and seeded as the benchmark seeds it,
# takes 4 s of bench/put-ratings.lua's PUTs from wrk on core 0, with 64 connections and then 16
# (two group sizes); after each, the C reference (bench/sqlite-ceiling.c, as the benchmark builds
# it) writes as many ratings into a fresh database, with as many per commit as the server's
# commits took. Equal frames per commit at equal group sizes mean the reference's ratio compares
# like with like. strace slows the server, so its groups are smaller here than in the benchmark.
# Needs root (strace attaches to the server).
#   scripts/count-wal-frames.sh                  # the current tree
#   scripts/count-wal-frames.sh --binary PATH    # another build
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/measure.sh "$@"
command -v strace >/dev/null || { apt-get install -y -qq strace >/dev/null; }
source scripts/lib/start-server.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PYTHONPATH=bench python3 -c "import benchlib, sys; benchlib.SQLiteCeiling(sys.argv[1])" "$work" # into $work/sqlite-ceiling
migrations=(migrations/sqlite/*.sql)

frames() { # frames STRACE_FILE: prints "FRAMES COMMITS" written to a WAL in that trace
    PYTHONPATH=bench python3 -c "import benchlib, sys; print(*benchlib.wal_frames(open(sys.argv[1]).read()))" "$1"
}

row() { # row CONNECTIONS WRITER RATINGS FRAMES COMMITS: one line of the table
    awk -v c="$1" -v who="$2" -v n="$3" -v f="$4" -v k="$5" \
        'BEGIN { printf "| %d | %s | %d | %d | %.1f | %.1f | %.3f |\n", c, who, n, k, n / k, f / k, f / n }'
}

echo "| connections | writer | ratings | commits | ratings per commit | WAL frames per commit | WAL frames per rating |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for connections in 64 16; do
    mkdir -p "$work/server"
    start_server "$binary" "$work/server" taskset -c 1
    trap 'kill -TERM $server 2>/dev/null || true; rm -rf "$work"' EXIT # start_server's own trap would leave $work
    PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port)"
    read -ra extra <<<"$(wrk_script "$work" put-ratings.lua)"
    strace -f -y -xx -s 8 -e trace=pwrite64 -p "$server" -o "$work/server.strace" 2>/dev/null &
    tracer=$!
    sleep 1 # attached to every thread
    ratings=$(BENCH_RUN=w$connections taskset -c 0 wrk -t1 -c$connections -d4s "${extra[@]}" "http://127.0.0.1:$port/" \
        | sed -n 's/^RESULT.*"requests":\([0-9]*\).*/\1/p')
    kill -INT $tracer; wait $tracer || true
    kill -TERM "$server"; wait "$server" || true
    rm -rf "$work/server"
    read -r server_frames server_commits <<<"$(frames "$work/server.strace")"
    [ -n "$ratings" ] && [ "$server_commits" -gt 0 ] || { echo "no rating or no commit seen in the server's run" >&2; exit 1; }
    group=$(( (ratings + server_commits / 2) / server_commits ))
    rm -f "$work"/ceiling.sqlite*
    RATINGS_PER_COMMIT=$group RATER_PREFIX=rw$connections- strace -y -xx -s 8 -e trace=pwrite64 -o "$work/reference.strace" \
        taskset -c 1 "$work/sqlite-ceiling" "$work/ceiling.sqlite" 600 "$ratings" "${migrations[@]}" >/dev/null
    read -r reference_frames reference_commits <<<"$(frames "$work/reference.strace")"
    row "$connections" server "$ratings" "$server_frames" "$server_commits"
    row "$connections" "C reference" "$ratings" "$reference_frames" "$reference_commits"
done
