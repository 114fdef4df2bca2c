@testable import HTTP1
import TestSupport
import Testing

/// Every input the fuzzers ever crashed on (fuzz/regressions/http-parser/) goes through the
/// parser again, whole and byte by byte; it must end in a request, a refusal or a wait. Then it
/// goes through what the fuzzer checks (`HTTPParserFuzzInput`), among them its segments read as a
/// request target, never past the path's end.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static var inputs: [String] { FuzzCorpus.inputs(of: "http-parser") }

    @Test("the seed corpus is there to replay")
    func corpusExists() {
        #expect(Self.inputs.count >= 5)
    }

    @Test("each saved input parses the same whole and split", arguments: inputs)
    func replays(path: String) throws {
        let bytes = try FuzzCorpus.bytes(at: path)
        let whole = parseStream([bytes])
        let split = parseStream(bytes.map { [$0] })
        #expect(whole.requests == split.requests)
        #expect(whole.failure == split.failure)
        // And what the fuzzer checks: a split at the offset it chose, small limits, the bytes as
        // an Accept-Language field and as a request target.
        #expect(HTTPParserFuzzInput.violations(bytes) == [])
    }
}
