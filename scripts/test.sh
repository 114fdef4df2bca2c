#!/usr/bin/env bash
# The whole test suite: unit, socket, SQLite and real-binary tests (swift test), then the
# OpenAPI contract check (spec validation and schemathesis against the live binary).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
swift build --build-tests
swift test --skip-build
scripts/check-contract.sh
