import Foundation
import Glibc
import TestSupport
import Testing

private func putRequest(_ token: String) -> String {
    "PUT /v1/items/i/ratings/u-1 HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\nAuthorization: Bearer \(token)\n\n{\"stars\":4}"
}

private func writeAtomically(_ text: String, to path: String) throws {
    try text.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
    guard rename(path + ".tmp", path) == 0 else { throw POSIXError(.EIO) }
}

@Suite("Token keys as identity providers publish them, through the real binary", .serialized)
struct TokenKeyTests {
    static let rsa = TestKeyPair(.rsa)
    static let ec = TestKeyPair(.ec)

    @Test("a JWKS with RS256 and ES256 keys, issuer and audience; rotation by replacing the file and by SIGHUP; a broken file keeps the keys")
    func jwksAndRotation() throws {
        let directory = try TemporaryDirectory("ratings-jwks")
        defer { directory.remove() }
        let jwks = directory.file("jwks.json")
        try writeAtomically(#"{"keys":[\#(Self.rsa.jwk(kid: "rsa-1")),\#(Self.ec.jwk(kid: "ec-1"))]}"#, to: jwks)
        // No write limit: the test writes as fast as it can while it waits for the rotation.
        let server = try RatingsProcess(["serve", "--port", "0", "--write-rate", "0", "--database", directory.file("db.sqlite")],
                                        environment: ["RATINGS_JWT_JWKS_FILE": jwks, "RATINGS_JWT_ISSUER": "https://id.example/",
                                                      "RATINGS_JWT_AUDIENCE": "ratings-api"])
        defer { server.stop() }
        let port = try #require(server.waitForPort(), "\(server.stderr)")
        #expect(eventually { server.stderr.contains("auth: bearer tokens required") && server.stderr.contains("iss https://id.example/") })
        let exp = Int(Date().timeIntervalSince1970) + 300
        let good = #"{"sub":"u-1","iss":"https://id.example/","aud":["ratings-api","other"],"exp":\#(exp)}"#
        func status(_ token: String) throws -> Int { try RawHTTPClient.exchange(port: port, putRequest(token)).status }

        #expect(try status(Self.rsa.token(claims: good, kid: "rsa-1")) == 201)
        #expect(try status(Self.ec.token(claims: good, kid: "ec-1")) == 200)
        let wrongAudience = try RawHTTPClient.exchange(port: port, putRequest(Self.ec.token(claims: #"{"sub":"u-1","iss":"https://id.example/","aud":"billing"}"#, kid: "ec-1")))
        #expect(wrongAudience.status == 401 && wrongAudience.header("www-authenticate")?.contains("invalid_token") == true)
        #expect(wrongAudience.text.contains("aud"))
        let wrongIssuer = try RawHTTPClient.exchange(port: port, putRequest(Self.ec.token(claims: #"{"sub":"u-1","iss":"https://evil/","aud":"ratings-api"}"#, kid: "ec-1")))
        #expect(wrongIssuer.status == 401 && wrongIssuer.text.contains("iss"))
        #expect(try status(Self.ec.token(claims: good, kid: "nope")) == 401)
        #expect(try status(Self.ec.token(claims: good)) == 401, "no kid while several keys are configured")

        // Rotation by replacing the file: the RSA key is removed.
        try writeAtomically(#"{"keys":[\#(Self.ec.jwk(kid: "ec-1"))]}"#, to: jwks)
        #expect(eventually(timeout: 10) { (try? status(Self.rsa.token(claims: good, kid: "rsa-1"))) == 401 }, "the removed key stops passing")
        let afterRotation = try RawHTTPClient.exchange(port: port, putRequest(Self.ec.token(claims: good, kid: "ec-1")))
        #expect(afterRotation.status == 200, "\(afterRotation.text) \(server.stderr)")
        // The error log is written by a thread of its own, a moment after the keys change.
        #expect(eventually(timeout: 10) { server.stderr.contains("keys: read \(jwks) again (it changed)") })

        // A broken file is logged and the keys in force are kept.
        try writeAtomically("{not json", to: jwks)
        #expect(eventually(timeout: 10) { server.stderr.contains("cannot be used") })
        #expect(try status(Self.ec.token(claims: good, kid: "ec-1")) == 200)

        // SIGHUP rereads even a file whose modification time is put back as it was.
        var before = stat()
        stat(jwks, &before)
        try writeAtomically(#"{"keys":[\#(Self.rsa.jwk(kid: "rsa-2"))]}"#, to: jwks)
        var times = [before.st_atim, before.st_mtim]
        utimensat(AT_FDCWD, jwks, &times, 0)
        server.send(SIGHUP)
        #expect(eventually(timeout: 10) { server.stderr.contains("(SIGHUP)") }, "\(server.stderr)")
        #expect(try status(Self.rsa.token(claims: good, kid: "rsa-2")) == 200)
        #expect(try status(Self.ec.token(claims: good, kid: "ec-1")) == 401)
    }

    @Test("a provider's keys without an audience start with a warning; two key sources are refused")
    func startUpChecks() throws {
        let directory = try TemporaryDirectory("ratings-jwks-warn")
        defer { directory.remove() }
        let jwks = directory.file("jwks.json")
        try writeAtomically(#"{"keys":[\#(Self.ec.jwk(kid: "k"))]}"#, to: jwks)
        let server = try RatingsProcess(["serve", "--port", "0", "--database", directory.file("db.sqlite")],
                                        environment: ["RATINGS_JWT_JWKS_FILE": jwks])
        defer { server.stop() }
        #expect(server.waitForPort() != nil)
        #expect(eventually { server.stderr.contains("WARNING: RATINGS_JWT_JWKS_FILE is set without RATINGS_JWT_AUDIENCE") })
        let both = try RatingsProcess.run(["serve", "--port", "0"], environment: ["RATINGS_JWT_JWKS_FILE": jwks,
                                                                                  "RATINGS_JWT_SECRET": String(repeating: "s", count: 40)])
        #expect(both.status == 2 && both.stderr.contains("not several"))
        try "{\"keys\":[]}".write(toFile: jwks, atomically: false, encoding: .utf8)
        let empty = try RatingsProcess.run(["serve", "--port", "0"], environment: ["RATINGS_JWT_JWKS_FILE": jwks])
        #expect(empty.status == 2 && empty.stderr.contains("RATINGS_JWT_JWKS_FILE: the JWK Set holds no signing key"))
    }
}
