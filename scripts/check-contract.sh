#!/usr/bin/env bash
# Checks openapi.yaml two ways: it is a valid OpenAPI 3.1 document, and the live server (the
# debug binary, on a fresh database and an ephemeral port) conforms to it under schemathesis:
# no 5xx, every status, header, content type and body as documented.
#
# positive_data_acceptance is excluded on purpose: whether {"stars": 7} is accepted depends on
# the item's scale, which earlier calls set; the spec cannot say that, and the check would
# report correct 422s as failures.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv-tools/bin/schemathesis ] || scripts/setup.sh --tests
binary=.build/debug/ratings
[ -x "$binary" ] || swift build --product ratings

.venv-tools/bin/openapi-spec-validator openapi.yaml

work=$(mktemp -d)
source scripts/lib/start-server.sh
start_server "$binary" "$work"

(cd "$work" && "$OLDPWD/.venv-tools/bin/schemathesis" run "$OLDPWD/openapi.yaml" \
    --url "http://127.0.0.1:$port" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "${CONTRACT_MAX_EXAMPLES:-150}" --seed 1 --no-color)

server_errors=$(grep -cE '" 5[0-9]{2} ' "$work/server.log" || true)
if [ "$server_errors" != "0" ]; then
    echo "contract: the server answered $server_errors requests with 5xx" >&2
    grep -E '" 5[0-9]{2} ' "$work/server.log" | head >&2
    exit 1
fi
echo "contract: openapi.yaml is valid and the server conforms to it"
