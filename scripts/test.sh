#!/usr/bin/env bash
# The test suite, in two tiers.
#   scripts/test.sh           everything: swift test on every storage engine (memory, SQLite and a
#                             private PostgreSQL cluster the tests start and stop themselves), the
#                             OpenAPI contract check, the container check (a real engine builds and
#                             runs docker/Dockerfile; needs root) and the suite again under
#                             ThreadSanitizer. What CI runs.
#   scripts/test.sh --quick   swift test on the in-memory and SQLite engines, without the real-binary
#                             tests: the fast loop while editing.
# RATINGS_SKIP_CONTAINER=1 / RATINGS_SKIP_TSAN=1 leave those parts out of a full run.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
scripts/setup.sh --tests
# A run that crashed may have left a test cluster behind; stop it, now and when this run ends.
trap scripts/lib/stop-test-clusters.sh EXIT
scripts/lib/stop-test-clusters.sh
swift build --build-tests
if [ "$quick" = 1 ]; then
    RATINGS_TEST_ENGINES=memory,sqlite swift test --skip-build --skip ProgramTests --skip PostgresStoreTests
    exit 0
fi
swift test --skip-build
scripts/check-contract.sh
if [ "${RATINGS_SKIP_CONTAINER:-0}" = 1 ]; then
    echo "test: container check skipped (RATINGS_SKIP_CONTAINER=1)"
else
    scripts/container-check.sh
fi
if [ "${RATINGS_SKIP_TSAN:-0}" = 1 ]; then
    echo "test: ThreadSanitizer run skipped (RATINGS_SKIP_TSAN=1)"
else
    scripts/sanitizers.sh thread
fi
