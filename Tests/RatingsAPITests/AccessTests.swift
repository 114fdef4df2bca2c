import Foundation
import JWT
import RatingsAPI
import TestSupport
import Testing

private let secret = "a-shared-secret-of-at-least-32-bytes!"

/// The harness clock's "now", in Unix seconds: tokens expire against it, not the machine's.
private let now = Int(ManualClock().wallMilliseconds() / 1000)

private func token(_ subject: String, scope: String? = nil, expiresIn: Int = 300) -> String {
    let exp = now + expiresIn
    let scopeClaim = scope.map { ",\"scope\":\"\($0)\"" } ?? ""
    return TestTokens.hs256(secret: secret, claims: "{\"sub\":\"\(subject)\",\"exp\":\(exp)\(scopeClaim)}")
}

@Suite("Only raters change their own ratings; abuse is limited")
struct AccessTests {
    @Test("with a key configured: no token 401, bad token 401, another rater 403, own rating 201; me means the subject", arguments: TestEngine.all)
    func ratersChangeOnlyTheirOwn(engine: TestEngine) async throws {
        try await withAPI(engine, verifier: try JWTVerifier(secret: secret)) { service in
            let anonymous = service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("www-authenticate")?.hasPrefix("Bearer") == true)
            let forged = service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                             headers: ["Authorization": "Bearer " + TestTokens.hs256(secret: secret + "!", claims: #"{"sub":"u-17"}"#)])
            #expect(forged.status == 401 && forged.header("www-authenticate")?.contains("invalid_token") == true)
            let expired = service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                              headers: ["Authorization": "Bearer " + token("u-17", expiresIn: -3600)])
            #expect(expired.status == 401 && detail(expired).contains("expired"))
            let other = service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                            headers: ["Authorization": "Bearer " + token("u-99")])
            #expect(other.status == 403)
            let own = service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                          headers: ["Authorization": "Bearer " + token("u-17")])
            #expect(own.status == 201)
            let me = service.request("GET", "/v1/items/i/ratings/me", headers: ["Authorization": "Bearer " + token("u-17")])
            #expect(me.status == 200 && object(me)["raterId"] as? String == "u-17")
            #expect(service.request("GET", "/v1/items/i/ratings/u-17").status == 401)
            #expect(service.request("GET", "/v1/items/i/ratings/u-17", headers: ["Authorization": "Bearer " + token("u-99")]).status == 403)
            let cleared = service.request("DELETE", "/v1/items/i/ratings/me", headers: ["Authorization": "Bearer " + token("u-17")])
            #expect(cleared.status == 200 && object(cleared)["cleared"] as? Bool == true)
            // Summaries and displays stay public.
            #expect(service.request("GET", "/v1/items/i").status == 200)
            #expect(service.request("GET", "/v1/display?value=3").status == 200)
        }
    }

    @Test("a token marking an extension critical (crit) is 401 with a detail naming it; the rating is not written")
    func criticalExtension() async throws {
        try await withAPI(.sqlite, verifier: try JWTVerifier(secret: secret)) { service in
            let critical = TestTokens.hs256(secret: secret, claims: "{\"sub\":\"u-17\",\"exp\":\(now + 300)}",
                                            header: #"{"alg":"HS256","typ":"JWT","crit":["x-unknown"],"x-unknown":true}"#)
            let refused = service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#, headers: ["Authorization": "Bearer " + critical])
            #expect(refused.status == 401 && refused.header("www-authenticate")?.contains("invalid_token") == true)
            #expect(detail(refused).contains("\"x-unknown\" critical (crit)"), "\(detail(refused))")
            #expect(object(service.request("GET", "/v1/items/i"))["count"] as? Int == 0)
        }
    }

    @Test("configuring a scale needs the ratings:admin scope", arguments: TestEngine.all)
    func adminScope(engine: TestEngine) async throws {
        try await withAPI(engine, verifier: try JWTVerifier(secret: secret)) { service in
            #expect(service.request("PUT", "/v1/items/cake", json: #"{"maxRating":3}"#).status == 401)
            let plain = service.request("PUT", "/v1/items/cake", json: #"{"maxRating":3}"#, headers: ["Authorization": "Bearer " + token("u-1")])
            #expect(plain.status == 403 && plain.header("www-authenticate")?.contains("insufficient_scope") == true)
            let admin = service.request("PUT", "/v1/items/cake", json: #"{"maxRating":3}"#,
                                            headers: ["Authorization": "Bearer " + token("ops", scope: "ratings:admin")])
            #expect(admin.status == 201)
        }
    }

    @Test("RS256 and ES256 tokens from a PEM key work end to end", arguments: TestEngine.all)
    func publicKeyTokens(engine: TestEngine) async throws {
        for kind in [TestKeyPair.Kind.rsa, .ec] {
            let pair = TestKeyPair(kind)
            try await withAPI(engine, verifier: try JWTVerifier(publicKeyPEM: pair.publicKeyPEM)) { service in
                let exp = now + 60
                let response = service.request("PUT", "/v1/items/i/ratings/me", json: #"{"stars":5}"#,
                                                   headers: ["Authorization": "Bearer " + pair.token(claims: "{\"sub\":\"u-1\",\"exp\":\(exp)}")])
                #expect(response.status == 201 && object(response)["raterId"] as? String == "u-1")
            }
        }
    }

    @Test("a rater over the write limit gets 429 with Retry-After; others are unaffected; a token returns after a second", arguments: TestEngine.all)
    func writeLimit(engine: TestEngine) async throws {
        try await withAPI(engine, writeLimiter: WriteRateLimiter(ratePerSecond: 1, burst: 3)) { service in
            var statuses: [Int] = []
            for stars in 1...5 {
                statuses.append(service.request("PUT", "/v1/items/i/ratings/busy", json: "{\"stars\":\(stars)}").status)
            }
            #expect(statuses.prefix(3).allSatisfy { $0 == 201 || $0 == 200 })
            #expect(statuses.suffix(2) == [429, 429])
            let limited = service.request("DELETE", "/v1/items/i/ratings/busy")
            #expect(limited.status == 429)
            #expect(Int(limited.header("retry-after") ?? "") ?? 0 >= 1)
            #expect(service.request("PUT", "/v1/items/i/ratings/calm", json: #"{"stars":2}"#).status == 201)
            service.clock.advance(seconds: 1.1)
            #expect(service.request("PUT", "/v1/items/i/ratings/busy", json: #"{"stars":2}"#).status == 200)
        }
    }
}
