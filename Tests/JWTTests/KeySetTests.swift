import JWT
import RatingsCore
import TestSupport
import Testing

private let now: Int64 = 1_796_033_700

@Suite("JWK Sets, key ids, issuer and audience (RFC 7517, RFC 8725 §3.8–3.9)")
struct KeySetTests {
    static let rsa = TestKeyPair(.rsa)
    static let ec = TestKeyPair(.ec)
    static let other = TestKeyPair(.rsa)

    static func set(_ jwks: String...) throws -> KeySet { try KeySet(jwks: Array("{\"keys\":[\(jwks.joined(separator: ","))]}".utf8)) }

    @Test("a token's kid chooses its key among several, and its alg must be that key's")
    func kidChoosesKey() throws {
        let verifier = JWTVerifier(keys: try Self.set(Self.rsa.jwk(kid: "r1", alg: "RS256"), Self.ec.jwk(kid: "e1")))
        let claims = #"{"sub":"u-1"}"#
        #expect(try verifier.verify(bearerToken: Self.rsa.token(claims: claims, kid: "r1"), nowSeconds: now).subject == "u-1")
        #expect(try verifier.verify(bearerToken: Self.ec.token(claims: claims, kid: "e1"), nowSeconds: now).subject == "u-1")
        #expect(throws: IdentityError.unknownKey("r2")) { try verifier.verify(bearerToken: Self.rsa.token(claims: claims, kid: "r2"), nowSeconds: now) }
        #expect(throws: IdentityError.self) { try verifier.verify(bearerToken: Self.rsa.token(claims: claims), nowSeconds: now) }
        #expect(throws: IdentityError.algorithmNotAllowed("ES256")) {
            try verifier.verify(bearerToken: Self.ec.token(claims: claims, kid: "r1"), nowSeconds: now)
        }
        #expect(throws: IdentityError.badSignature) { try verifier.verify(bearerToken: Self.other.token(claims: claims, kid: "r1"), nowSeconds: now) }
    }

    @Test("a set of one key accepts a token without kid; a set is replaced at once")
    func rotation() throws {
        let verifier = JWTVerifier(keys: try Self.set(Self.rsa.jwk(kid: "old")))
        let claims = #"{"sub":"u-1"}"#
        #expect(try verifier.verify(bearerToken: Self.rsa.token(claims: claims), nowSeconds: now).subject == "u-1")
        verifier.replaceKeys(try Self.set(Self.ec.jwk(kid: "new")))
        #expect(throws: IdentityError.unknownKey("old")) { try verifier.verify(bearerToken: Self.rsa.token(claims: claims, kid: "old"), nowSeconds: now) }
        #expect(try verifier.verify(bearerToken: Self.ec.token(claims: claims, kid: "new"), nowSeconds: now).subject == "u-1")
    }

    @Test("iss must equal the issuer, aud must name the audience (a string or an array that holds it)")
    func issuerAndAudience() throws {
        let verifier = JWTVerifier(keys: try Self.set(Self.ec.jwk(kid: "k")),
                                   policy: .init(issuer: "https://id.example/", audience: "ratings"))
        func token(_ claims: String) -> String { Self.ec.token(claims: claims, kid: "k") }
        #expect(try verifier.verify(bearerToken: token(#"{"sub":"a","iss":"https://id.example/","aud":"ratings"}"#), nowSeconds: now).subject == "a")
        #expect(try verifier.verify(bearerToken: token(#"{"sub":"a","iss":"https://id.example/","aud":["billing","ratings"]}"#), nowSeconds: now).subject == "a")
        #expect(throws: IdentityError.wrongAudience(expected: "ratings")) {
            try verifier.verify(bearerToken: token(#"{"sub":"a","iss":"https://id.example/","aud":"billing"}"#), nowSeconds: now)
        }
        #expect(throws: IdentityError.wrongAudience(expected: "ratings")) {
            try verifier.verify(bearerToken: token(#"{"sub":"a","iss":"https://id.example/"}"#), nowSeconds: now)
        }
        #expect(throws: IdentityError.wrongIssuer(expected: "https://id.example/")) {
            try verifier.verify(bearerToken: token(#"{"sub":"a","iss":"https://evil.example/","aud":"ratings"}"#), nowSeconds: now)
        }
        #expect(throws: IdentityError.wrongIssuer(expected: "https://id.example/")) {
            try verifier.verify(bearerToken: token(#"{"sub":"a","aud":"ratings"}"#), nowSeconds: now)
        }
    }

    @Test("sets that cannot be used are refused with the reason", arguments: [
        ("{}", "not a JWK Set"), (#"{"keys":[]}"#, "no signing key"), (#"{"keys":[{"kty":"oct","kid":"a","k":"AAAA"}]}"#, "kty must be RSA or EC"),
        (#"{"keys":[{"kty":"EC","crv":"P-384","kid":"a","x":"AA","y":"AA"}]}"#, "P-256"),
        (#"{"keys":[{"kty":"EC","crv":"P-256","kid":"a","x":"\#(String(repeating: "A", count: 43))","y":"\#(String(repeating: "A", count: 43))"}]}"#, "not a point on P-256"),
        (#"{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB"}]}"#, "2048 bits"),
        (#"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"},{"kty":"RSA","n":"AQAB","e":"AQAB"}]}"#, "no kid"),
        (#"{"keys":[{"use":"enc","kty":"RSA","kid":"a"}]}"#, "no signing key"),
        ("not json", "not a JWK Set"),
    ])
    func refusedSets(jwks: String, reason: String) {
        #expect {
            try KeySet(jwks: Array(jwks.utf8))
        } throws: { error in
            (error as? KeyError)?.message.contains(reason) == true
        }
    }

    @Test("duplicate kids, and an alg its key cannot be, are refused")
    func refusedKeys() {
        #expect(throws: KeyError.self) { try Self.set(Self.rsa.jwk(kid: "a"), Self.other.jwk(kid: "a")) }
        #expect(throws: KeyError.self) { try Self.set(Self.rsa.jwk(kid: "a", alg: "ES256")) }
    }
}
