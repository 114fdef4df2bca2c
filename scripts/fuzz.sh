#!/usr/bin/env bash
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer,address) and runs each for a bounded
# time with its seed corpus; every crash found is copied into fuzz/regressions/<target>/, where
# `swift test` replays it (HTTP1Tests' FuzzRegressionTests, RatingsCoreTests'
# RequestBodyFuzzRegressionTests, JWTTests' TokenFuzzRegressionTests), and the script exits 1.
# scripts/test.sh runs it for 30 s; the three targets share the machine's cores.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 60; the issue asked for 600)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out"
# The leaf modules the targets import, as instrumented static libraries.
library() { # library NAME SOURCES...
    local name=$1
    shift
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name "$name" -I "$out" -swift-version 6 \
        -emit-module -emit-module-path "$out/$name.swiftmodule" -emit-library -static -o "$out/lib$name.a" "$@" \
        2> >(grep -v "Cannot export local symbol" >&2) || exit 1
}
library ASCIIKit Sources/ASCIIKit/*.swift
library JSON Sources/JSON/*.swift
library Locking -I Sources/CLinux Sources/Locking/*.swift
# Of RatingsCore, JWT uses only the identity types; the rest embeds language files at build time.
library RatingsCore Sources/RatingsCore/Identity.swift
library JWT -I Sources/CCrypto -I Sources/CLinux Sources/JWT/*.swift
linked=(-I "$out" -L "$out" -lJSON -lASCIIKit) # a static library before the ones it uses
language=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name HTTPParserFuzz "${language[@]}" "${linked[@]}" \
    Sources/HTTP1/*.swift fuzz/HTTPParserFuzz.swift -o "$out/http-parser" 2> >(grep -v "Cannot export local symbol" >&2) || exit 1
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name RequestBodyFuzz "${language[@]}" "${linked[@]}" \
    Sources/RatingsCore/*.swift fuzz/RequestBodyFuzz.swift -o "$out/request-body" 2> >(grep -v "Cannot export local symbol" >&2) || exit 1
# How an input becomes a token lives in TestSupport, shared with the test that replays the corpus.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name TokenFuzz "${language[@]}" \
    -I Sources/CCrypto -I Sources/CLinux -L "$out" -lJWT -lRatingsCore -lLocking "${linked[@]}" -lcrypto \
    Tests/TestSupport/HS256Token.swift Tests/TestSupport/TokenFuzzInput.swift fuzz/TokenFuzz.swift -o "$out/token" \
    2> >(grep -v "Cannot export local symbol" >&2) || exit 1

targets=(http-parser request-body token)
for target in "${targets[@]}"; do
    corpus="$out/corpus-$target"
    # This run's crashes only: an earlier run's are in fuzz/regressions/ already.
    rm -rf "$out/artifacts-$target"
    mkdir -p "$corpus" "$out/artifacts-$target"
    cp -n fuzz/seeds/$target/* "$corpus/" 2>/dev/null
    echo "fuzz: $target for ${seconds}s"
    "$out/$target" "$corpus" -max_total_time="$seconds" -artifact_prefix="$out/artifacts-$target/" -max_len=8192 \
        -print_final_stats=1 >"$out/$target.log" 2>&1 &
done
wait

status=0
for target in "${targets[@]}"; do
    artifacts="$out/artifacts-$target"
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$target.log" | sed "s/^/fuzz: $target: /"
    crashes=$(find "$artifacts" -type f | wc -l)
    echo "fuzz: $target: $crashes crash files"
    if [ "$crashes" -gt 0 ]; then
        cp "$artifacts"/* "fuzz/regressions/$target/"
        status=1
    fi
done
exit $status
