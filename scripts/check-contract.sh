#!/usr/bin/env bash
# Checks openapi.yaml three ways:
#   1. it is a valid OpenAPI 3.1 document;
#   2. the live server (the debug binary, a fresh database, an ephemeral port) conforms to it under
#      schemathesis: no 5xx, every status, header, content type and body as documented;
#   3. openapi-python-client generates a client from it with no warning about any JSON operation
#      (only /openapi.yaml, which is YAML, may be left out), and typed calls through that client
#      (submit, read, batch, display, clear, a 422) work against a server that checks tokens.
#
# positive_data_acceptance is excluded from schemathesis on purpose: whether {"stars": 7} is
# accepted depends on the item's scale, which earlier calls set; the spec cannot say that, and
# the check would report correct 422s as failures.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv-tools/bin/openapi-python-client ] || scripts/setup.sh --tests
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
kill -TERM "$server"; wait "$server" || true

client=$work/client  # removed with $work when the script ends
mkdir "$client"
printf 'post_hooks: []\nproject_name_override: ratings-client\npackage_name_override: ratings_client\n' >"$client/config.yaml"
.venv-tools/bin/openapi-python-client generate --path openapi.yaml --config "$client/config.yaml" --meta none \
    --output-path "$client/ratings_client" >"$client/generate.log" 2>&1 || { cat "$client/generate.log" >&2; exit 1; }
unexpected=$(grep -E '^WARNING parsing' "$client/generate.log" | grep -v -E 'parsing GET /openapi\.yaml ' || true)
if [ -n "$unexpected" ]; then
    echo "contract: openapi-python-client could not read every JSON operation:" >&2
    cat "$client/generate.log" >&2
    exit 1
fi
echo "contract: openapi-python-client generated a client for every JSON operation"

secret=contract-check-secret-of-at-least-32-bytes
RATINGS_JWT_SECRET=$secret start_server "$binary" "$work"
.venv-tools/bin/python scripts/lib/generated-client-calls.py "$client" "http://127.0.0.1:$port" "$secret"
echo "contract: openapi.yaml is valid, the server conforms to it, and a generated client works"
