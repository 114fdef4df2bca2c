#!/usr/bin/env bash
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer,address) and runs each for a bounded
# time with its seed corpus (and fuzz/TARGET.dict, where there is one); every crash found is
# copied into fuzz/regressions/<target>/, where `swift test` replays it (HTTP1Tests'
# FuzzRegressionTests, RatingsCoreTests' RequestBodyFuzzRegressionTests, JWTTests'
# TokenFuzzRegressionTests, HTTP1Tests' ConnectionFuzzRegressionTests, RatingsAPITests'
# APIFuzzRegressionTests), and the script exits 1. The targets: http-parser (the HTTP/1.1
# parser, Accept-Language, request targets), request-body (JSON bodies, the stars rule, display
# values), token (bearer tokens, JWK Sets), connection (the connection state machine, driven by
# event scripts) and api (whole requests through the API over in-memory stores).
# scripts/test.sh runs it for 30 s; the targets run side by side and share the machine's cores.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 60; 600 for a thorough run)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out"
# The package's language settings (Package.swift's `strict`).
language=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)
compile() {
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 "${language[@]}" -I "$out" -I Sources/CLinux \
        -I Sources/CCrypto "$@" 2> >(grep -v "Cannot export local symbol" >&2) || exit 1
}
library() { # library NAME SOURCES...: a module the targets import, as an instrumented static library
    local name=$1
    shift
    compile -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" -emit-library -static -o "$out/lib$name.a" "$@"
}
target() { # target NAME MODULE SOURCES-AND-LIBRARIES... (a static library before the ones it uses)
    local name=$1 module=$2
    shift 2
    compile -module-name "$module" -L "$out" -o "$out/$name" "$@"
}
# What the EmbedFiles plugin generates in a package build: the language files and openapi.yaml.
swiftc -O Sources/EmbedFilesTool/main.swift -o "$out/embed-files" || exit 1
"$out/embed-files" files embeddedLanguageFiles "$out/EmbeddedRatingsCore.swift" locales/*.json || exit 1
"$out/embed-files" string embeddedOpenAPIDocument "$out/EmbeddedRatingsAPI.swift" openapi.yaml || exit 1
library ASCIIKit Sources/ASCIIKit/*.swift
library JSON Sources/JSON/*.swift
library Locking Sources/Locking/*.swift
library Platform Sources/Platform/*.swift
library RatingsCore $(find Sources/RatingsCore -name '*.swift') "$out/EmbeddedRatingsCore.swift"
library HTTP1 Sources/HTTP1/*.swift
library RatingsAPI $(find Sources/RatingsAPI -name '*.swift') "$out/EmbeddedRatingsAPI.swift"
library JWT Sources/JWT/*.swift

# What a target does with an input lives in TestSupport (*FuzzInput, ConnectionFuzzScript),
# shared with the test that replays its corpus.
target http-parser HTTPParserFuzz Tests/TestSupport/HTTPParserFuzzInput.swift Tests/TestSupport/ParseStream.swift \
    fuzz/HTTPParserFuzz.swift -lHTTP1 -lJSON -lASCIIKit
target request-body RequestBodyFuzz Tests/TestSupport/RequestBodyFuzzInput.swift fuzz/RequestBodyFuzz.swift \
    -lRatingsCore -lJSON -lASCIIKit
target token TokenFuzz Tests/TestSupport/HS256Token.swift Tests/TestSupport/TokenFuzzInput.swift fuzz/TokenFuzz.swift \
    -lJWT -lRatingsCore -lLocking -lJSON -lASCIIKit -lcrypto
target connection ConnectionFuzz Tests/TestSupport/ConnectionFuzzScript.swift fuzz/ConnectionFuzz.swift \
    -lHTTP1 -lJSON -lASCIIKit
target api APIFuzz Tests/TestSupport/APIFuzzInput.swift Tests/TestSupport/TestLoop.swift Tests/TestSupport/InMemoryRatingStore.swift \
    Tests/TestSupport/ManualClock.swift Tests/TestSupport/ParseStream.swift fuzz/APIFuzz.swift \
    -lRatingsAPI -lJWT -lHTTP1 -lRatingsCore -lPlatform -lLocking -lJSON -lASCIIKit -lcrypto

targets=(http-parser request-body token connection api)
# libFuzzer reports a crash itself; Swift's backtracer, started by the crash, trips
# AddressSanitizer reading the process's memory and is left behind, waiting.
export SWIFT_BACKTRACE=enable=no
for target in "${targets[@]}"; do
    corpus="$out/corpus-$target"
    # This run's crashes only: an earlier run's are in fuzz/regressions/ already.
    rm -rf "$out/artifacts-$target"
    mkdir -p "$corpus" "$out/artifacts-$target"
    cp -n fuzz/seeds/$target/* "$corpus/" 2>/dev/null
    dictionary=()
    [ -f "fuzz/$target.dict" ] && dictionary=(-dict="fuzz/$target.dict") # the pieces its inputs are made of
    echo "fuzz: $target for ${seconds}s"
    "$out/$target" "$corpus" -max_total_time="$seconds" -artifact_prefix="$out/artifacts-$target/" -max_len=8192 \
        "${dictionary[@]}" -print_final_stats=1 >"$out/$target.log" 2>&1 &
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
