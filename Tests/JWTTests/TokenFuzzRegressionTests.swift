import JWT
import RatingsCore
import TestSupport
import Testing

/// Every input the token fuzzer ever crashed on (fuzz/regressions/token/), and its seeds, goes
/// through the verifiers again as the fuzzer reads it (`TokenFuzzInput`): each must verify or be
/// refused, never trap, and a verified token names its rater.
@Suite("Fuzz regressions: bearer tokens")
struct TokenFuzzRegressionTests {
    static var inputs: [String] { FuzzCorpus.inputs(of: "token") }

    @Test("the seed corpus is there to replay")
    func corpusExists() {
        #expect(Self.inputs.count >= 6)
        #expect(TokenFuzzInput.verifiers.count == 2)
    }

    @Test("a signed input reaches the claim checks: its claims decide the answer")
    func signedInputsAreVerified() {
        let signed = [1] + Array(#"{"alg":"HS256"}"#.utf8) + [10] + Array(#"{"sub":"r","iss":"fuzz","aud":"ratings"}"#.utf8)
        #expect(TokenFuzzInput.outcomes(signed).map { try? $0.get().subject } == ["r", "r"])
        let expired = [1] + Array(#"{"sub":"r","exp":1700000000}"#.utf8)
        #expect(TokenFuzzInput.outcomes(expired).allSatisfy { $0 == .failure(.expired) })
        let unsigned = [0] + Array(TokenFuzzInput.token(signed).utf8.dropLast(2)) + Array("AA".utf8)
        #expect(TokenFuzzInput.outcomes(unsigned).allSatisfy { $0 == .failure(.badSignature) })
    }

    @Test("each saved input verifies or is refused", arguments: inputs)
    func replays(path: String) throws {
        let bytes = try FuzzCorpus.bytes(at: path)
        for case .success(let identity) in TokenFuzzInput.outcomes(bytes) {
            #expect(!identity.subject.isEmpty)
        }
    }
}
