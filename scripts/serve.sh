#!/usr/bin/env bash
# Sets up, builds the release binary and runs the service in the foreground (Ctrl-C stops it) on
# the embedded SQLite default (ratings.sqlite in the working directory). Extra arguments go to
# `ratings serve`. A second run with no source change rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product ratings
binary="$(swift build -c release --show-bin-path)/ratings"
echo "serve.sh: running $binary serve $* (in the foreground; Ctrl-C stops it)"
exec "$binary" serve "$@"
