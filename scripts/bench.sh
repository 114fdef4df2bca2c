#!/usr/bin/env bash
# The benchmark of issue 6: installs wrk and nginx if missing, builds the release binary, and
# runs bench/bench.py (server and load generator on different cores, nginx serving the same
# bytes in the same run, medians of several runs). Arguments go to bench.py (--quick, --runs N,
# --seconds S, --soak-seconds S). Takes about 12 minutes in full.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --bench
swift build -c release --product ratings
exec python3 bench/bench.py "$@"
