# Sourced, with the caller's arguments, by the scripts that measure the release server with perf
# (profile.sh, count-per-request.sh): takes `--binary PATH` (default: this tree's release build,
# built now), installs what they need, and starts the server on core 1 (wrk goes on core 0).
# Sets $binary, $work, $server and $port.
binary=.build/release/ratings
[ "${1:-}" = "--binary" ] && binary=$2
scripts/setup.sh --bench
command -v perf >/dev/null || { apt-get install -y -qq linux-perf >/dev/null; }
[ "$binary" != .build/release/ratings ] || swift build -c release --product ratings >/dev/null
work=$(mktemp -d)
source scripts/lib/start-server.sh
start_server "$binary" "$work" taskset -c 1
