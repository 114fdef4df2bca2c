import TestSupport
import Testing

/// Every input the request-body fuzzer ever crashed on (fuzz/regressions/request-body/), and its
/// seeds, goes again through what that fuzzer drives (`RequestBodyFuzzInput`): the JSON parser,
/// the stars rule, the display's decimal reader on three scales, and the identifier rule. Each
/// must be read or refused, never trap, and a display must stay inside its scale.
@Suite("Fuzz regressions: request bodies and display values")
struct RequestBodyFuzzRegressionTests {
    static var inputs: [String] { FuzzCorpus.inputs(of: "request-body") }

    @Test("the seed corpus is there to replay")
    func corpusExists() {
        #expect(Self.inputs.count >= 5)
    }

    @Test("each saved input is read or refused, and its display stays inside the scale", arguments: inputs)
    func replays(path: String) throws {
        #expect(RequestBodyFuzzInput.violations(try FuzzCorpus.bytes(at: path)) == [])
    }
}
