// libFuzzer target: the whole API in process. Each input is HTTP/1.1 requests, read by the
// server's parser and answered by the API over an in-memory store emptied for the input; any
// answer a client would see as wrong (`APIFuzzInput.violations`: a 5xx, an error that is not
// problem+json with a detail, a missing request id, ...) stops the run. Built by scripts/fuzz.sh
// with Tests/TestSupport/APIFuzzInput.swift (shared with the test that replays the corpus) and
// the test store, loop and clock it uses, linked with the package's modules; not part of the
// package.

@_cdecl("LLVMFuzzerTestOneInput")
public func apiFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let violations = APIFuzzInput.violations(Array(UnsafeBufferPointer(start: data, count: size)))
    if !violations.isEmpty { fatalError(violations.joined(separator: "; ")) }
    return 0
}
