// libFuzzer target: request body decoding: the strict JSON parser, the integer-member rule for
// stars and maxRating, and the exact decimal reader of /v1/display. Built by scripts/fuzz.sh
// with Tests/TestSupport/RequestBodyFuzzInput.swift (shared with the test that replays the
// corpus), linked with the RatingsCore and JSON modules; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func requestBodyFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let violations = RequestBodyFuzzInput.violations(Array(UnsafeBufferPointer(start: data, count: size)))
    if !violations.isEmpty { fatalError(violations.joined(separator: "; ")) }
    return 0
}
