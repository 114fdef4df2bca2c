internal import CCrypto
import ASCIIKit
import JSON

/// Makes HS256 tokens (RFC 7519, JWS compact form) with a shared secret: what `ratings token`
/// prints, for local work and for tests against a server that checks tokens with the same secret.
public struct HS256Signer: Sendable {
    private let secret: [UInt8]

    /// A signer with `secret`, which must be at least 32 bytes (RFC 7518 §3.2), as the verifier's.
    public init(secret: String) throws(KeyError) {
        guard secret.utf8.count >= 32 else { throw KeyError(message: "an HS256 secret needs at least 32 bytes") }
        self.secret = Array(secret.utf8)
    }

    /// A token whose `sub` is `subject`, issued at `now` (Unix seconds) and expiring `lifetime`
    /// seconds later, with `scope` (space-separated) when `scopes` is not empty, and `iss` and
    /// `aud` when given.
    public func token(subject: String, scopes: [String] = [], now: Int64, lifetime: Int64,
                      issuer: String? = nil, audience: String? = nil) -> String {
        var claims = JSONWriter(capacity: 256)
        claims.beginObject()
        claims.key("sub"); claims.string(subject)
        claims.key("iat"); claims.integer(Int(now))
        claims.key("exp"); claims.integer(Int(now + lifetime))
        if !scopes.isEmpty { claims.key("scope"); claims.string(scopes.joined(separator: " ")) }
        if let issuer { claims.key("iss"); claims.string(issuer) }
        if let audience { claims.key("aud"); claims.string(audience) }
        claims.endObject()
        let input = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(claims.bytes)
        return input + "." + Base64URL.encode(HMACSHA256.mac(secret, Array(input.utf8)))
    }

}
