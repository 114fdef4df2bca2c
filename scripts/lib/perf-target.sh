# Sourced, with the caller's arguments, by the scripts that measure the release server with perf
# (profile.sh): what measure.sh does, then perf, and the server started on
# core 1 (wrk goes on core 0). Sets $binary, $work, $server and $port.
source scripts/lib/measure.sh "$@"
command -v perf >/dev/null || { apt-get install -y -qq linux-perf >/dev/null; }
work=$(mktemp -d)
source scripts/lib/start-server.sh
start_server "$binary" "$work" taskset -c 1
