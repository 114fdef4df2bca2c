// libFuzzer target: the connection state machine, driven by a script of the events its IO shell
// feeds it (`ConnectionFuzzScript`: bytes arriving, answers, flushes, the clock, the peer's end
// of input, drains, failures); a broken rule, such as two requests in flight or a connection that
// never closes, stops the run. Built by scripts/fuzz.sh with
// Tests/TestSupport/ConnectionFuzzScript.swift (shared with the test that replays the corpus),
// linked with the HTTP1 module; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func connectionFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let violations = ConnectionFuzzScript.violations(Array(UnsafeBufferPointer(start: data, count: size)))
    if !violations.isEmpty { fatalError(violations.joined(separator: "; ")) }
    return 0
}
