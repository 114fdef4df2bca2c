#!/usr/bin/env bash
# The whole test suite: unit, socket, SQLite and real-binary tests (swift test), the OpenAPI
# contract check (spec validation and schemathesis against the live binary), and the container
# check (a real engine builds and runs docker/Dockerfile; about 2.5 minutes, needs root).
# and the suite again under ThreadSanitizer (about 5 minutes, in its own build folder).
# RATINGS_SKIP_CONTAINER=1 / RATINGS_SKIP_TSAN=1 leave those out, for a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
swift build --build-tests
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
