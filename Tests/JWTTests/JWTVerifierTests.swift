import JWT
import RatingsCore
import TestSupport
import Testing

private let secret = "a-shared-secret-of-at-least-32-bytes!"
private let now: Int64 = 1_796_033_700

@Suite("JWT verification with libcrypto")
struct JWTVerifierTests {
    static let rsa = TestKeyPair(.rsa)
    static let ec = TestKeyPair(.ec)

    @Test("valid HS256, RS256 and ES256 tokens give the subject and scopes")
    func acceptsValidTokens() throws {
        let claims = #"{"sub":"u-17","exp":\#(now + 300),"nbf":\#(now - 10),"scope":"ratings:admin other"}"#
        let hs = try JWTVerifier(secret: secret).verify(bearerToken: TestTokens.hs256(secret: secret, claims: claims), nowSeconds: now)
        #expect(hs == RaterIdentity(subject: "u-17", scopes: ["ratings:admin", "other"]))
        let rs = try JWTVerifier(publicKeyPEM: Self.rsa.publicKeyPEM).verify(bearerToken: Self.rsa.token(claims: claims), nowSeconds: now)
        #expect(rs.subject == "u-17")
        let es = try JWTVerifier(publicKeyPEM: Self.ec.publicKeyPEM).verify(bearerToken: Self.ec.token(claims: claims), nowSeconds: now)
        #expect(es.subject == "u-17")
        let scp = try JWTVerifier(secret: secret).verify(bearerToken: TestTokens.hs256(secret: secret, claims: #"{"sub":"a","scp":["ratings:admin"]}"#), nowSeconds: now)
        #expect(scp.scopes == ["ratings:admin"])
    }

    @Test("exp and nbf are checked with a 60 s leeway")
    func timeClaims() throws {
        let verifier = try JWTVerifier(secret: secret)
        func token(_ claims: String) -> String { TestTokens.hs256(secret: secret, claims: claims) }
        #expect(throws: IdentityError.expired) { try verifier.verify(bearerToken: token(#"{"sub":"a","exp":\#(now - 61)}"#), nowSeconds: now) }
        #expect(try verifier.verify(bearerToken: token(#"{"sub":"a","exp":\#(now - 59)}"#), nowSeconds: now).subject == "a")
        #expect(throws: IdentityError.notYetValid) { try verifier.verify(bearerToken: token(#"{"sub":"a","nbf":\#(now + 61)}"#), nowSeconds: now) }
        #expect(try verifier.verify(bearerToken: token(#"{"sub":"a","nbf":\#(now + 59)}"#), nowSeconds: now).subject == "a")
        #expect(throws: IdentityError.self) { try verifier.verify(bearerToken: token(#"{"sub":"a","exp":"tomorrow"}"#), nowSeconds: now) }
    }

    @Test("an exp or nbf too far off for 64 bits is read as the end of time, not added to past Int64's range", arguments: [
        "1e19", "9223372036854775807", "99999999999999999999999", "1e400", "9223372036854775807.5",
    ])
    func farTimeClaims(value: String) throws {
        let verifier = try JWTVerifier(secret: secret)
        func token(_ claims: String) -> String { TestTokens.hs256(secret: secret, claims: claims) }
        #expect(try verifier.verify(bearerToken: token(#"{"sub":"a","exp":\#(value)}"#), nowSeconds: now).subject == "a")
        #expect(throws: IdentityError.notYetValid) { try verifier.verify(bearerToken: token(#"{"sub":"a","nbf":\#(value)}"#), nowSeconds: now) }
    }

    @Test("alg none, algorithm confusion and forged signatures are refused")
    func refusesAttacks() throws {
        let claims = #"{"sub":"u-17"}"#
        let none = TestTokens.signingInput(header: #"{"alg":"none"}"#, claims: claims) + "."
        #expect(throws: IdentityError.algorithmNotAllowed("none")) { try JWTVerifier(secret: secret).verify(bearerToken: none, nowSeconds: now) }
        // HS256 keyed with the RSA public key text: the classic confusion attack.
        let rsaVerifier = try JWTVerifier(publicKeyPEM: Self.rsa.publicKeyPEM)
        let confused = TestTokens.hs256(secret: Self.rsa.publicKeyPEM, claims: claims)
        #expect(throws: IdentityError.algorithmNotAllowed("HS256")) { try rsaVerifier.verify(bearerToken: confused, nowSeconds: now) }
        // A token of another key, and a payload swapped under a valid signature.
        let other = TestKeyPair(.rsa)
        #expect(throws: IdentityError.badSignature) { try rsaVerifier.verify(bearerToken: other.token(claims: claims), nowSeconds: now) }
        let valid = Self.rsa.token(claims: claims).split(separator: ".")
        let swapped = "\(valid[0]).\(TestTokens.base64URL(Array(#"{"sub":"admin"}"#.utf8))).\(valid[2])"
        #expect(throws: IdentityError.badSignature) { try rsaVerifier.verify(bearerToken: swapped, nowSeconds: now) }
        #expect(throws: IdentityError.badSignature) { try JWTVerifier(secret: secret).verify(bearerToken: TestTokens.hs256(secret: secret + "x", claims: claims), nowSeconds: now) }
        let ecVerifier = try JWTVerifier(publicKeyPEM: Self.ec.publicKeyPEM)
        #expect(throws: IdentityError.algorithmNotAllowed("RS256")) { try ecVerifier.verify(bearerToken: Self.rsa.token(claims: claims), nowSeconds: now) }
    }

    @Test("malformed tokens are refused, never trapped on", arguments: [
        "", "a", "a.b", "a.b.c.d", "....", "!!!.###.$$$", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0", "e30.e30.",
        TestTokens.signingInput(header: #"{"alg":"HS256"}"#, claims: "not json") + ".AAAA",
        String(repeating: "a", count: 9_000),
    ])
    func refusesMalformed(token: String) throws {
        #expect(throws: IdentityError.self) { try JWTVerifier(secret: secret).verify(bearerToken: token, nowSeconds: now) }
    }

    @Test("crit (RFC 7515 §4.1.11): a signed token marking any extension critical is refused with its name", arguments: [
        (#"{"alg":"HS256","crit":["x-unknown"],"x-unknown":1}"#, IdentityError.unsupportedCritical("x-unknown")),
        (#"{"alg":"HS256","crit":["b64"],"b64":false}"#, IdentityError.unsupportedCritical("b64")),
        (#"{"alg":"HS256","crit":["exp","x"],"exp":1,"x":2}"#, IdentityError.unsupportedCritical("exp")),
        (#"{"alg":"HS256","crit":[]}"#, IdentityError.malformed("crit must be a non-empty array of header parameter names")),
        (#"{"alg":"HS256","crit":"x-unknown","x-unknown":1}"#, IdentityError.malformed("crit must be a non-empty array of header parameter names")),
        (#"{"alg":"HS256","crit":[7]}"#, IdentityError.malformed("crit must be a non-empty array of header parameter names")),
        (#"{"alg":"HS256","crit":null}"#, IdentityError.malformed("crit must be a non-empty array of header parameter names")),
        (#"{"alg":"HS256","crit":["x-absent"]}"#, IdentityError.malformed("crit names \"x-absent\", which the header does not have")),
    ])
    func refusesCritical(header: String, expected: IdentityError) throws {
        let token = TestTokens.hs256(secret: secret, claims: #"{"sub":"u-17"}"#, header: header)
        #expect(throws: expected) { try JWTVerifier(secret: secret).verify(bearerToken: token, nowSeconds: now) }
        // The same token without crit is accepted: crit alone is the reason.
        let plain = TestTokens.hs256(secret: secret, claims: #"{"sub":"u-17"}"#, header: #"{"alg":"HS256"}"#)
        #expect(try JWTVerifier(secret: secret).verify(bearerToken: plain, nowSeconds: now).subject == "u-17")
    }

    @Test("a token without sub is refused")
    func requiresSubject() throws {
        #expect(throws: IdentityError.self) {
            try JWTVerifier(secret: secret).verify(bearerToken: TestTokens.hs256(secret: secret, claims: #"{"scope":"x"}"#), nowSeconds: now)
        }
    }

    @Test("weak keys are refused at start")
    func refusesWeakKeys() {
        #expect(throws: KeyError.self) { try JWTVerifier(secret: "short") }
        #expect(throws: KeyError.self) { try JWTVerifier(publicKeyPEM: "not a key") }
    }
}
