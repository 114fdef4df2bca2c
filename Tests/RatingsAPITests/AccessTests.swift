import Foundation
import JWT
import RatingsAPI
import TestSupport
import Testing

private let secret = "a-shared-secret-of-at-least-32-bytes!"

private func token(_ subject: String, scope: String? = nil, expiresIn: Int = 300) -> String {
    let exp = Int(Date().timeIntervalSince1970) + expiresIn
    let scopeClaim = scope.map { ",\"scope\":\"\($0)\"" } ?? ""
    return TestTokens.hs256(secret: secret, claims: "{\"sub\":\"\(subject)\",\"exp\":\(exp)\(scopeClaim)}")
}

@Suite("Only raters change their own ratings; abuse is limited")
struct AccessTests {
    @Test("with a key configured: no token 401, bad token 401, another rater 403, own rating 201; me means the subject")
    func ratersChangeOnlyTheirOwn() async throws {
        try await withRatingsService(verifier: try JWTVerifier(secret: secret)) { service in
            let anonymous = try service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("www-authenticate")?.hasPrefix("Bearer") == true)
            let forged = try service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                             headers: ["Authorization": "Bearer " + TestTokens.hs256(secret: secret + "!", claims: #"{"sub":"u-17"}"#)])
            #expect(forged.status == 401 && forged.header("www-authenticate")?.contains("invalid_token") == true)
            let expired = try service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                              headers: ["Authorization": "Bearer " + token("u-17", expiresIn: -3600)])
            #expect(expired.status == 401 && detail(expired).contains("expired"))
            let other = try service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                            headers: ["Authorization": "Bearer " + token("u-99")])
            #expect(other.status == 403)
            let own = try service.request("PUT", "/v1/items/i/ratings/u-17", json: #"{"stars":4}"#,
                                          headers: ["Authorization": "Bearer " + token("u-17")])
            #expect(own.status == 201)
            let me = try service.request("GET", "/v1/items/i/ratings/me", headers: ["Authorization": "Bearer " + token("u-17")])
            #expect(me.status == 200 && object(me)["raterId"] as? String == "u-17")
            #expect(try service.request("GET", "/v1/items/i/ratings/u-17").status == 401)
            #expect(try service.request("GET", "/v1/items/i/ratings/u-17", headers: ["Authorization": "Bearer " + token("u-99")]).status == 403)
            let cleared = try service.request("DELETE", "/v1/items/i/ratings/me", headers: ["Authorization": "Bearer " + token("u-17")])
            #expect(cleared.status == 200 && object(cleared)["cleared"] as? Bool == true)
            // Summaries and displays stay public.
            #expect(try service.request("GET", "/v1/items/i").status == 200)
            #expect(try service.request("GET", "/v1/display?value=3").status == 200)
        }
    }

    @Test("configuring a scale needs the ratings:admin scope")
    func adminScope() async throws {
        try await withRatingsService(verifier: try JWTVerifier(secret: secret)) { service in
            #expect(try service.request("PUT", "/v1/items/cake", json: #"{"maxRating":3}"#).status == 401)
            let plain = try service.request("PUT", "/v1/items/cake", json: #"{"maxRating":3}"#, headers: ["Authorization": "Bearer " + token("u-1")])
            #expect(plain.status == 403 && plain.header("www-authenticate")?.contains("insufficient_scope") == true)
            let admin = try service.request("PUT", "/v1/items/cake", json: #"{"maxRating":3}"#,
                                            headers: ["Authorization": "Bearer " + token("ops", scope: "ratings:admin")])
            #expect(admin.status == 201)
        }
    }

    @Test("RS256 and ES256 tokens from a PEM key work end to end")
    func publicKeyTokens() async throws {
        for kind in [TestKeyPair.Kind.rsa, .ec] {
            let pair = TestKeyPair(kind)
            try await withRatingsService(verifier: try JWTVerifier(publicKeyPEM: pair.publicKeyPEM)) { service in
                let exp = Int(Date().timeIntervalSince1970) + 60
                let response = try service.request("PUT", "/v1/items/i/ratings/me", json: #"{"stars":5}"#,
                                                   headers: ["Authorization": "Bearer " + pair.token(claims: "{\"sub\":\"u-1\",\"exp\":\(exp)}")])
                #expect(response.status == 201 && object(response)["raterId"] as? String == "u-1")
            }
        }
    }

    @Test("a rater over the write limit gets 429 with Retry-After, across connections; others are unaffected")
    func writeLimit() async throws {
        try await withRatingsService(writeLimiter: WriteRateLimiter(ratePerSecond: 1, burst: 3)) { service in
            var statuses: [Int] = []
            for stars in 1...5 { // each request on its own connection
                statuses.append(try service.request("PUT", "/v1/items/i/ratings/busy", json: "{\"stars\":\(stars)}").status)
            }
            #expect(statuses.prefix(3).allSatisfy { $0 == 201 || $0 == 200 })
            #expect(statuses.suffix(2) == [429, 429])
            let limited = try service.request("DELETE", "/v1/items/i/ratings/busy")
            #expect(limited.status == 429)
            #expect(Int(limited.header("retry-after") ?? "") ?? 0 >= 1)
            #expect(try service.request("PUT", "/v1/items/i/ratings/calm", json: #"{"stars":2}"#).status == 201)
            try await Task.sleep(for: .milliseconds(1_100))
            #expect(try service.request("PUT", "/v1/items/i/ratings/busy", json: #"{"stars":2}"#).status == 200)
        }
    }
}
