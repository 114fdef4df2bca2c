#!/usr/bin/env bash
# The benchmark of the README's performance figures: installs what it needs (wrk, nginx, gcc,
# PostgreSQL 15), builds the release binary, and runs bench/bench.py. Arguments go to bench.py
# (--quick, --attacks, --runs N, --seconds S, --soak-seconds S). A full run takes about 25 minutes and
# writes bench/results/DATE-full.json (DATE-N-full.json for a day's Nth run); `python3 bench/report.py
# FILE` renders it as Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --bench
swift build -c release --product ratings
exec python3 bench/bench.py "$@"
