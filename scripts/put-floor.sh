#!/usr/bin/env bash
# The durable PUT beside the floor under any server on this machine (bench/put-floor-server.c: one
# C thread, the write reference's statements, no hand-over, answers as long as the service's) and
# the write reference (bench/sqlite-ceiling.c), pinned as scripts/bench.sh pins them, in
# alternating rounds: how much of the gap to the reference any HTTP server has, and how much is
# the service's own. About 2 minutes with the defaults.
#   scripts/put-floor.sh [--rounds N] [--seconds S]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --bench
swift build -c release --product ratings >/dev/null
exec python3 bench/put-floor.py .build/release/ratings "$@"
