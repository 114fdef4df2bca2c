@testable import HTTP1
import TestSupport
import Testing

/// Every input the fuzzers ever crashed on (fuzz/regressions/http-parser/) goes through the
/// parser again, whole and byte by byte; it must end in a request, a refusal or a wait. Read as a
/// request target, its segments must be read or refused, never past the path's end.
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
        let text = String(decoding: bytes, as: UTF8.self)
        for candidate in [text, "/" + text] {
            let target = RequestTarget(candidate)
            #expect(target.pathSegment(at: target.pathSegmentCount) == nil)
            _ = (0..<target.pathSegmentCount).map { target.pathSegment(at: $0) }
            _ = target.pathMatches([Array("v1".utf8), Array("items".utf8), nil])
            _ = target.pathDecodes
            _ = target.rawQueryValues("ids").map { PercentDecoding.decode($0) }
        }
    }
}
