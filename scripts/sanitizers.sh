#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer and AddressSanitizer, each in its own build folder
# so the normal debug build is left alone.
#   scripts/sanitizers.sh            both
#   scripts/sanitizers.sh thread     one of them (thread | address)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
for sanitizer in ${1:-thread address}; do
    echo "sanitizers: swift test --sanitize=$sanitizer"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path ".build/sanitize-$sanitizer"
    # Halt on the first report so a race or overflow fails the run instead of scrolling past.
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ASAN_OPTIONS="halt_on_error=1 detect_leaks=0" \
        swift test --skip-build --sanitize="$sanitizer" --scratch-path ".build/sanitize-$sanitizer"
done
