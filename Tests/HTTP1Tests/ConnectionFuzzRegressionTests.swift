import TestSupport
import Testing

/// Every script the connection fuzzer ever stopped on (fuzz/regressions/connection/), and its
/// seeds, drives the connection state machine again as the fuzzer reads it
/// (`ConnectionFuzzScript`): one request in flight at a time, nothing after the close, and the
/// connection closed once it is answered and its deadlines have passed.
@Suite("Fuzz regressions: connection event scripts")
struct ConnectionFuzzRegressionTests {
    static var inputs: [String] { FuzzCorpus.inputs(of: "connection") }

    @Test("the seed corpus is there to replay")
    func corpusExists() {
        #expect(Self.inputs.count >= 9)
    }

    @Test("a script whose handler never answers still ends closed, and a second answer or flush is harmless")
    func unansweredRequestIsClosedAtTheEnd() {
        let request = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        #expect(ConnectionFuzzScript.violations([0, UInt8(request.count - 1)] + request) == [])
        // A step that answers and flushes twice over, then the clock: still no broken rule.
        #expect(ConnectionFuzzScript.violations([0, UInt8(request.count - 1)] + request + [1, 0, 1, 0, 2, 2, 3, 255]) == [])
    }

    @Test("each saved script keeps the rules", arguments: inputs)
    func replays(path: String) throws {
        let script = try FuzzCorpus.bytes(at: path)
        #expect(ConnectionFuzzScript.violations(script) == [])
    }
}
