// libFuzzer target: bearer tokens (JWT) and JWK Sets. Built by scripts/fuzz.sh with
// Tests/TestSupport/TokenFuzzInput.swift, which says how an input becomes a token (and is shared
// with the test that replays the corpus), and HS256Token.swift, linked with the JWT module, its
// dependencies and libcrypto; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func tokenFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(TokenFuzzInput.verifiers.count == 2, "both verifiers were made")
    for case .success(let identity) in TokenFuzzInput.outcomes(Array(UnsafeBufferPointer(start: data, count: size))) {
        precondition(!identity.subject.isEmpty, "a verified token names its rater")
    }
    return 0
}
