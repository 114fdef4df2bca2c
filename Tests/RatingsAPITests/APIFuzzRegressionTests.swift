import TestSupport
import Testing

/// Every input the API fuzzer ever stopped on (fuzz/regressions/api/), and its seeds, goes
/// through the API again as the fuzzer reads it (`APIFuzzInput`): every request is answered once,
/// with no 5xx, every error with a problem+json detail, every JSON answer JSON. Serialized:
/// `APIFuzzInput` empties one store for each input.
@Suite("Fuzz regressions: the whole API", .serialized)
struct APIFuzzRegressionTests {
    static var inputs: [String] { FuzzCorpus.inputs(of: "api") }

    @Test("the seed corpus is there to replay")
    func corpusExists() {
        #expect(Self.inputs.count >= 10)
    }

    @Test("an input's requests reach the API in order, over one store")
    func requestsReachTheAPI() throws {
        let bytes = Array("PUT /v1/items/i/ratings/r HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"stars\":4}GET /v1/items/i HTTP/1.1\r\nHost: a\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let exchanges = APIFuzzInput.exchanges(bytes)
        #expect(exchanges.map { $0.responses.map(\.status) } == [[201], [200], [404]])
        #expect(APIFuzzInput.violations(bytes).isEmpty)
        let summary = try #require(exchanges.dropFirst().first?.responses.first?.body)
        #expect(String(decoding: summary, as: UTF8.self).contains(#""count":1"#))
    }

    @Test("the guarded API checks the seeds' tokens: the rater writes its own rating, not another's, and no token is 401")
    func guardedAPIChecksTokens() throws {
        let seed = try #require(Self.inputs.first { $0.hasSuffix("/tokens") })
        let bytes = try FuzzCorpus.bytes(at: seed)
        let statuses = APIFuzzInput.exchanges(bytes, guarded: true).map { $0.responses.map(\.status) }
        #expect(statuses.first == [201] && statuses.dropFirst().first == [403] && statuses.last == [401])
        #expect(APIFuzzInput.exchanges(bytes).map { $0.responses.map(\.status) }.last == [201], "the open API takes a write without a token")
    }

    @Test("each saved input is answered once, without a 5xx, and every error says what to change", arguments: inputs)
    func replays(path: String) throws {
        let bytes = try FuzzCorpus.bytes(at: path)
        #expect(!APIFuzzInput.exchanges(bytes).isEmpty)
        #expect(APIFuzzInput.violations(bytes) == [])
    }
}
