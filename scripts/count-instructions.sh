#!/usr/bin/env bash
# How many instructions each hot path costs per request, counted by callgrind (valgrind): the
# release server runs under callgrind with counting switched on only while wrk (4 connections)
# loads one path, and the count is divided by the requests wrk completed. Instruction counts,
# unlike request rates, hardly move with a noisy machine (a few percent: the access log's time
# text is formatted once per millisecond, so how many requests share it follows the rate; the
# second column leaves that text out), so they show what a change to a request path saved. They
# do not weigh cache misses or atomic operations (`perf stat` and `scripts/profile.sh` do).
# Each path gets a fresh server on a fresh database. The
# first row, `/healthz`, is the floor under every other: what the HTTP layer and the middleware
# cost a request before any ratings work. Each thread is counted apart, so the last column gives
# the event loops' share alone: for a `PUT` it leaves out SQLite and the writer, whose count per
# request moves with how many writes each commit groups.
#   scripts/count-instructions.sh                 # the current tree
#   scripts/count-instructions.sh --binary PATH   # another build, e.g. an older commit's
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/measure.sh "$@"
command -v valgrind >/dev/null || { apt-get install -y -qq valgrind >/dev/null; }
source scripts/lib/start-server.sh

count() { # count NAME PATH [SCRIPT [ITEMS]]: prints one table row; ITEMS seeded items, 741 by default
    local work requests extra file annotated thread time total=0 loops=0 time_text=0
    work=$(mktemp -d)
    start_server "$binary" "$work" valgrind -q --tool=callgrind --separate-threads=yes --instr-atstart=no \
        --callgrind-out-file="$work/callgrind.out"
    PYTHONPATH=bench python3 -c "import benchlib; benchlib.seed($port, items=${4:-741})" # every id the reads ask for
    read -ra extra <<<"$(wrk_script "$work" "${3:-}")"
    BENCH_RUN=warm wrk -t1 -c4 -d2s "${extra[@]}" "http://127.0.0.1:$port$2" >/dev/null
    callgrind_control -i on "$server" >/dev/null 2>&1
    requests=$(BENCH_RUN=counted wrk -t1 -c4 -d6s "${extra[@]}" "http://127.0.0.1:$port$2" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    callgrind_control -i off "$server" >/dev/null 2>&1
    kill -TERM "$server"
    wait "$server" || true
    for file in "$work"/callgrind.out*; do # one file per thread
        thread=$(awk '/^totals:/ {print $2}' "$file")
        [ -n "$thread" ] || continue
        annotated=$(callgrind_annotate --inclusive=yes --threshold=100 "$file" 2>/dev/null) # every function, however small
        total=$((total + thread))
        if grep -q 'EventLoopC3run' <<<"$annotated"; then loops=$((loops + thread)); fi
        # The access log's time text, formatted once per millisecond however many requests share
        # it: its whole cost (AccessLogMiddleware.timeText) varies with valgrind's speed.
        time=$(awk '/AccessLogMiddleware.*8timeText/ && !found {gsub(",", "", $1); print $1; found = 1}' <<<"$annotated")
        time_text=$((time_text + ${time:-0}))
    done
    rm -rf "$work"
    echo "| $1 | $((total / requests)) | $(((total - time_text) / requests)) | $(((loops - time_text) / requests)) |"
}

echo "| per request (callgrind, 4 connections) | instructions | without the log's time text | on the event loops, without it |"
echo "|---|---:|---:|---:|"
count '`GET /healthz`: the request pipeline alone (parse, middleware, log, answer), no ratings work' /healthz
count '`GET /v1/items/{id}`, hot summary' /v1/items/bench-37
count '`GET /v1/display`' "/v1/display?value=3.3&max=5"
count '`GET /v1/items?ids=`, 20 ids' /v1/items get-batch.lua
# Every item the writes go to already rated, as in the benchmark: each answer's average is new.
count 'durable `PUT`, both threads (SQLite included)' / put-ratings.lua 10000
