#!/usr/bin/env bash
# Runs the README's curl walkthrough against a fresh server and prints each command with its
# real output, so the README can be refreshed from a command anyone can rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${RATINGS_BINARY:-.build/release/ratings}
[ -x "$binary" ] || swift build -c release --product ratings
work=$(mktemp -d)
source scripts/lib/start-server.sh
start_server "$binary" "$work"
base="http://127.0.0.1:$port"

# Prints the command as a reader would type it (on port 8080), then runs it on the real port.
show() {
    printf '$ %s\n' "$1"
    eval "${1//http:\/\/127.0.0.1:8080/$base}" 2>&1
    printf '\n\n'
}

show "curl -s -X PUT http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-17 -H 'Content-Type: application/json' -d '{\"stars\": 4}'"
show "curl -s -X PUT http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-18 -H 'Content-Type: application/json' -d '{\"stars\": 3}'"
show "curl -s -X PUT http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-19 -H 'Content-Type: application/json' -d '{\"stars\": 5}'"
show "curl -s -i -X PUT http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-19 -H 'Content-Type: application/json' -d '{\"stars\": 4}'"
show "curl -s -i http://127.0.0.1:8080/v1/items/dinner-42"
show "curl -s -X DELETE http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-18"
show "curl -s -X DELETE http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-18"
show "curl -s http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-17"
show "curl -s -X PUT http://127.0.0.1:8080/v1/items/soup -H 'Content-Type: application/json' -d '{\"maxRating\": 3}'"
show "curl -s 'http://127.0.0.1:8080/v1/items?ids=dinner-42,soup'"
show "curl -s 'http://127.0.0.1:8080/v1/display?value=3.3&max=5'"
show "curl -s 'http://127.0.0.1:8080/v1/display?value=-1'"
show "curl -s -i -H 'Accept-Language: es-MX, en;q=0.5' http://127.0.0.1:8080/v1/items/dinner-42"
show "curl -s 'http://127.0.0.1:8080/v1/display?value=3.5&max=5&lang=ar'"
show "curl -s 'http://127.0.0.1:8080/v1/display?value=1&max=1&lang=ja'"
show "curl -s http://127.0.0.1:8080/healthz"
show "curl -s http://127.0.0.1:8080/readyz"
show "curl -s -X PUT http://127.0.0.1:8080/v1/items/dinner-42/ratings/u-17 -H 'Content-Type: application/json' -d '{\"stars\": 4.5}'"
show "curl -s -i -X POST http://127.0.0.1:8080/v1/items/dinner-42"
show "curl -s http://127.0.0.1:8080/v1/items/.. --path-as-is"
printf '$ curl -s http://127.0.0.1:8080/metrics | grep -v -e "^#" -e _bucket\n'
curl -s "$base/metrics" | grep -v -e "^#" -e _bucket
