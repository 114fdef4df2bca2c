# Sourced by scripts that need a throwaway server: start_server BINARY DIR [WRAPPER...] starts
# `WRAPPER BINARY serve --port 0` on DIR/server.sqlite (WRAPPER e.g. `taskset -c 1`), waits for its "listening on" line, sets $server
# (the pid) and $port, and registers a trap that stops it and removes DIR.
start_server() {
    local binary=$1 dir=$2
    shift 2
    "$@" "$binary" serve --port 0 --database "$dir/server.sqlite" >"$dir/server.log" 2>&1 &
    server=$!
    trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "'"$dir"'"' EXIT
    port=$(listening_port "$dir/server.log") || { echo "the server did not start:" >&2; cat "$dir/server.log" >&2; return 1; }
}

# listening_port LOG: waits up to 10 s for a "listening on http://HOST:PORT" line in LOG (the
# server's, or the benchmark's C floor's) and prints the port; fails if none came.
listening_port() {
    local found
    for _ in $(seq 100); do grep -q "listening on" "$1" && break; sleep 0.1; done
    found=$(sed -n 's/.*listening on http:\/\/[^ ]*:\([0-9]*\).*/\1/p' "$1" | head -1)
    [ -n "$found" ] && echo "$found"
}
