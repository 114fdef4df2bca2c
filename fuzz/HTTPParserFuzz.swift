// libFuzzer target: the HTTP/1.1 request parser, fed whole and split at a data-chosen offset;
// Accept-Language negotiation, fed the same bytes as a field value; and the request target's
// segments and parameters, read from the same bytes as a target. Built by scripts/fuzz.sh with
// Tests/TestSupport/HTTPParserFuzzInput.swift (shared with the test that replays the corpus),
// linked with the HTTP1 module; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func httpParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let violations = HTTPParserFuzzInput.violations(Array(UnsafeBufferPointer(start: data, count: size)))
    if !violations.isEmpty { fatalError(violations.joined(separator: "; ")) }
    return 0
}
