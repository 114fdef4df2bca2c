#!/usr/bin/env bash
# Sets up, builds the release binary and runs the service on the embedded SQLite default
# (ratings.sqlite in the working directory). Extra arguments go to `ratings serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product ratings
exec .build/release/ratings serve "$@"
