import ASCIIKit
import JSON
public import RatingsCore

/// Verifies JWS compact tokens (RFC 7519) for one configured key: the signature first, then
/// `exp` and `nbf` with a small leeway for clock skew, then `sub`. Scopes come from `scope`
/// (space-separated, RFC 8693) or `scp` (an array, as some providers send).
public final class JWTVerifier: IdentityVerifier {
    /// Clock skew tolerated for `exp` and `nbf`, in seconds.
    public static let leewaySeconds: Int64 = 60
    /// Tokens longer than this are refused before any parsing.
    static let maxTokenBytes = 8 * 1024

    private let key: SignatureKey

    /// HS256 with a shared secret (at least 32 bytes, RFC 7518 §3.2).
    public init(secret: String) throws(KeyError) {
        guard secret.utf8.count >= 32 else { throw KeyError(message: "an HS256 secret needs at least 32 bytes") }
        key = SignatureKey(secret: Array(secret.utf8))
    }

    /// RS256 or ES256 with a PEM public key; the key's type chooses the algorithm.
    public init(publicKeyPEM: String) throws(KeyError) {
        key = try SignatureKey(publicKeyPEM: publicKeyPEM)
    }

    /// The algorithm this verifier accepts.
    public var algorithm: String { key.algorithm.rawValue }

    public func verify(bearerToken token: String, nowSeconds: Int64) throws(IdentityError) -> RaterIdentity {
        guard token.utf8.count <= Self.maxTokenBytes else { throw .malformed("the token is longer than \(Self.maxTokenBytes) bytes") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a JWT has three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONParser.parse(headerBytes),
              case .object = header else { throw .malformed("the header is not base64url-encoded JSON") }
        guard case .string(let alg)? = header["alg"] else { throw .malformed("the header has no alg") }
        guard alg == key.algorithm.rawValue else { throw .algorithmNotAllowed(alg) }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.verifies(signature, over: signingInput) else { throw .badSignature }

        // Only a verified payload is read.
        guard let payloadBytes = Base64URL.decode(parts[1]), let claims = try? JSONParser.parse(payloadBytes),
              case .object = claims else { throw .malformed("the payload is not base64url-encoded JSON") }
        if let exp = claims["exp"] {
            guard let expiry = Self.seconds(exp) else { throw .malformed("exp is not a NumericDate") }
            if nowSeconds >= expiry + Self.leewaySeconds { throw .expired }
        }
        if let nbf = claims["nbf"] {
            guard let notBefore = Self.seconds(nbf) else { throw .malformed("nbf is not a NumericDate") }
            if nowSeconds + Self.leewaySeconds < notBefore { throw .notYetValid }
        }
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else { throw .malformed("the token has no sub") }
        return RaterIdentity(subject: subject, scopes: Self.scopes(claims))
    }

    /// A NumericDate: seconds since the epoch, possibly with a fraction (RFC 7519 §2).
    private static func seconds(_ value: JSONValue) -> Int64? {
        guard case .number(let text) = value else { return nil }
        let whole = text.split(separator: ".", maxSplits: 1).first.map(String.init) ?? text
        guard !whole.contains("e"), !whole.contains("E") else { return Double(text).flatMap { Int64(exactly: $0.rounded(.down)) } }
        return Int64(whole)
    }

    private static func scopes(_ claims: JSONValue) -> Set<String> {
        var scopes = Set<String>()
        if case .string(let text)? = claims["scope"] { scopes.formUnion(text.split(separator: " ").map(String.init)) }
        if case .array(let items)? = claims["scp"] {
            for case .string(let scope) in items { scopes.insert(scope) }
        }
        return scopes
    }
}
