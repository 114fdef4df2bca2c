import Foundation
import TestSupport
import Testing

private let secret = "an-example-secret-of-at-least-32-bytes"

@Suite("ratings token: a bearer token for local work, signed with the server's secret", .serialized)
struct TokenCommandTests {
    private func token(_ arguments: [String], _ environment: [String: String]) throws -> String {
        let result = try RatingsProcess.run(["token"] + arguments, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a server with the same secret, issuer and audience takes its tokens: the rater's own writes, and an admin's")
    func serverAcceptsTheTokens() throws {
        let directory = try TemporaryDirectory("ratings-token")
        defer { directory.remove() }
        let environment = ["RATINGS_JWT_SECRET": secret, "RATINGS_JWT_ISSUER": "https://id.example", "RATINGS_JWT_AUDIENCE": "ratings"]
        let server = try RatingsServer(["--database", directory.file("db.sqlite")], environment: environment)
        defer { server.stop() }
        let port = server.port
        let rater = try token(["--subject", "u-17"], environment)
        let admin = try token(["--subject", "ops", "--scope", "ratings:admin", "--ttl", "10m"], environment)
        #expect(rater.split(separator: ".").count == 3)
        let put = "PUT /v1/items/cake/ratings/u-17 HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n"
        #expect(try RawHTTPClient.exchange(port: port, put + "\n{\"stars\":4}").status == 401)
        #expect(try RawHTTPClient.exchange(port: port, put + "Authorization: Bearer \(rater)\n\n{\"stars\":4}").status == 201)
        let other = "PUT /v1/items/cake/ratings/u-18 HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n"
        #expect(try RawHTTPClient.exchange(port: port, other + "Authorization: Bearer \(rater)\n\n{\"stars\":4}").status == 403)
        let configure = "PUT /v1/items/pie HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 15\n"
        #expect(try RawHTTPClient.exchange(port: port, configure + "Authorization: Bearer \(admin)\n\n{\"maxRating\":3}").status == 201)
        #expect(try RawHTTPClient.exchange(port: port, configure + "Authorization: Bearer \(rater)\n\n{\"maxRating\":3}").status == 403)
    }

    @Test("refused with exit 2 and the reason", arguments: [
        (["--subject", "u-17"], [String: String](), "set RATINGS_JWT_SECRET"),
        (["--subject", "u-17"], ["RATINGS_JWT_PUBLIC_KEY_FILE": "/keys/pub.pem"], "public keys, which check tokens but cannot sign"),
        (["--subject", "u-17"], ["RATINGS_JWT_SECRET": "short"], "at least 32 bytes"),
        ([], ["RATINGS_JWT_SECRET": secret], "give --subject"),
        (["--subject", "me"], ["RATINGS_JWT_SECRET": secret], "--subject is not a rater id"),
        (["--subject", "a b"], ["RATINGS_JWT_SECRET": secret], "--subject is not a rater id"),
        (["--subject", "u-17", "--ttl", "5y"], ["RATINGS_JWT_SECRET": secret], "--ttl must be a duration"),
        (["--subject", "u-17", "--ttl", "400d"], ["RATINGS_JWT_SECRET": secret], "at most 365d"),
    ])
    func refusals(arguments: [String], environment: [String: String], reason: String) throws {
        let result = try RatingsProcess.run(["token"] + arguments, environment: environment)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }
}
