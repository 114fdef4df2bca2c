public import JWT
public import RatingsCore

/// How the token fuzzer (fuzz/TokenFuzz.swift) reads an input, in one place for it and for the
/// test that replays its corpus (JWTTests). An input whose first byte is odd is a header and a
/// claims set, split at the first newline (no newline: the whole rest is the claims set under
/// `{"alg":"HS256"}`), which is signed here with the fuzzer's secret, so that mutations reach the
/// claim checks behind the signature, where a client's token can only arrive with the service's
/// key. Any other input is a bearer token as a client sends it, and also a JWK Set.
public enum TokenFuzzInput {
    /// The HS256 secret the signed inputs are signed with.
    public static let secret = "the token fuzzer's own 32-byte-or-longer secret"
    /// The clock of every verification: 2027-01-15T08:00:00Z.
    public static let nowSeconds: Int64 = 1_800_000_000
    /// Without a claim policy, and with an issuer and an audience to check.
    public static let verifiers: [JWTVerifier] = [JWTVerifier.ClaimPolicy(), .init(issuer: "fuzz", audience: "ratings")]
        .compactMap { try? JWTVerifier(secret: secret, policy: $0) }

    /// The token `input` stands for.
    public static func token(_ input: [UInt8]) -> String {
        guard let mode = input.first else { return "" }
        let rest = input.dropFirst()
        guard mode & 1 == 1 else { return String(decoding: rest, as: UTF8.self) }
        guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            return HS256Token.sign(header: Array(#"{"alg":"HS256"}"#.utf8), claims: Array(rest), secret: Array(secret.utf8))
        }
        return HS256Token.sign(header: Array(rest[..<newline]), claims: Array(rest[(newline + 1)...]), secret: Array(secret.utf8))
    }

    /// Verifies the token of `input` with each verifier; an unsigned input is read as a JWK Set
    /// too (only whether it reads matters, so that is not returned).
    public static func outcomes(_ input: [UInt8]) -> [Result<RaterIdentity, IdentityError>] {
        if let mode = input.first, mode & 1 == 0 { _ = try? KeySet(jwks: Array(input.dropFirst())) }
        let token = token(input)
        return verifiers.map { verifier in Result { () throws(IdentityError) in try verifier.verify(bearerToken: token, nowSeconds: nowSeconds) } }
    }
}
