#!/usr/bin/env bash
# The test suite, in two tiers.
#   scripts/test.sh           everything: swift test on every storage engine (memory, SQLite and a
#                             private PostgreSQL cluster the tests start and stop themselves), the
#                             OpenAPI contract check, the container check (a real engine builds and
#                             runs docker/Dockerfile; needs root), the suite again under
#                             ThreadSanitizer, and 30 s of each fuzzer. What CI runs.
#   scripts/test.sh --quick   swift test on the in-memory and SQLite engines, without the real-binary
#                             tests: the fast loop while editing.
# Both tiers first check the benchmark report's arithmetic (bench/test_report.py) and that its C
# programs write what the store writes (bench/test_reference.py).
# RATINGS_SKIP_CONTAINER=1 / RATINGS_SKIP_TSAN=1 / RATINGS_SKIP_FUZZ=1 leave those parts out of a
# full run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's wall time, printed when the run ends (failed or not), so a slow CI run says where.
run_started=$(date +%s)
phase_started=$run_started
phases=""
phase_done() {
    local now
    now=$(date +%s)
    phases+="$(printf '\n  %-32s %5d s' "$1" $((now - phase_started)))"
    phase_started=$now
}
report_phases() { [ -z "$phases" ] || printf 'test: wall time per phase%s\n  %-32s %5d s\n' "$phases" total $(($(date +%s) - run_started)); }
quick=0
[ "${1:-}" = "--quick" ] && quick=1
scripts/setup.sh --tests
# A run that crashed may have left a test cluster behind; stop it, now and when this run ends.
trap 'scripts/lib/stop-test-clusters.sh; report_phases' EXIT
scripts/lib/stop-test-clusters.sh
phase_done "set-up"
# The benchmark's own checks (bench/test_*.py), in well under a second.
python3 -m unittest discover --start-directory bench --pattern 'test_*.py'
phase_done "benchmark checks"
swift build --build-tests
phase_done "build (debug, tests)"
if [ "$quick" = 1 ]; then
    RATINGS_TEST_ENGINES=memory,sqlite swift test --skip-build --skip ProgramTests --skip PostgresStoreTests
    phase_done "swift test (quick)"
    exit 0
fi
swift test --skip-build
phase_done "swift test"
scripts/check-contract.sh
phase_done "contract check"
if [ "${RATINGS_SKIP_CONTAINER:-0}" = 1 ]; then
    echo "test: container check skipped (RATINGS_SKIP_CONTAINER=1)"
else
    scripts/container-check.sh
    phase_done "container check"
fi
if [ "${RATINGS_SKIP_TSAN:-0}" = 1 ]; then
    echo "test: ThreadSanitizer run skipped (RATINGS_SKIP_TSAN=1)"
else
    scripts/sanitizers.sh thread
    phase_done "swift test, ThreadSanitizer"
fi
if [ "${RATINGS_SKIP_FUZZ:-0}" = 1 ]; then
    echo "test: fuzzing skipped (RATINGS_SKIP_FUZZ=1)"
else
    # Short, but a fuzzer finds a trap on a new input path within seconds (the display's decimal
    # reader overflowed on a long run of digits after 3,255 inputs): a crash fails the run and is
    # saved to fuzz/regressions/ for `swift test` to replay.
    scripts/fuzz.sh 30
    phase_done "fuzzing (30 s per target)"
fi
