import ASCIIKit
import JSON
import Locking
public import RatingsCore

/// Verifies JWS compact tokens (RFC 7519) as RFC 8725 asks: the key the header names (`kid`)
/// and only the algorithm that key allows, then `exp` and `nbf` with a small leeway for clock
/// skew, then the issuer and audience when they are configured (§3.8, §3.9), then `sub`. Scopes
/// come from `scope` (space-separated, RFC 8693) or `scp` (an array, as some providers send). The
/// keys can be replaced while the server runs (key rotation); a verification uses the keys in
/// force when it starts.
public final class JWTVerifier: IdentityVerifier {
    /// Clock skew tolerated for `exp` and `nbf`, in seconds.
    public static let leewaySeconds: Int64 = 60
    /// Tokens longer than this are refused before any parsing.
    static let maxTokenBytes = 8 * 1024

    /// What a token must say about who issued it and for whom.
    public struct ClaimPolicy: Sendable, Equatable {
        /// When set, `iss` must equal it.
        public var issuer: String?
        /// When set, `aud` (a string, or an array) must hold it.
        public var audience: String?

        public init(issuer: String? = nil, audience: String? = nil) {
            self.issuer = issuer
            self.audience = audience
        }
    }

    private let keys: Locked<KeySet>
    private let policy: ClaimPolicy

    /// HS256 with a shared secret (at least 32 bytes, RFC 7518 §3.2).
    public convenience init(secret: String, policy: ClaimPolicy = ClaimPolicy()) throws(KeyError) {
        guard secret.utf8.count >= 32 else { throw KeyError(message: "an HS256 secret needs at least 32 bytes") }
        self.init(keys: KeySet(single: SignatureKey(secret: Array(secret.utf8))), policy: policy)
    }

    /// RS256 or ES256 with a PEM public key; the key's type chooses the algorithm.
    public convenience init(publicKeyPEM: String, policy: ClaimPolicy = ClaimPolicy()) throws(KeyError) {
        self.init(keys: try KeySet(publicKeyPEM: publicKeyPEM), policy: policy)
    }

    /// The keys of a JWK Set; `replaceKeys` swaps in a newer set.
    public init(keys: KeySet, policy: ClaimPolicy = ClaimPolicy()) {
        self.keys = Locked(keys)
        self.policy = policy
    }

    /// The algorithms the current keys accept, for the start-up line.
    public var algorithms: [String] { Array(Set(keys.withLock { $0.keys.values.map(\.algorithm.rawValue) })).sorted() }

    /// Rotates keys: tokens are checked against `newKeys` from now on.
    public func replaceKeys(_ newKeys: KeySet) { keys.withLock { $0 = newKeys } }

    public func verify(bearerToken token: String, nowSeconds: Int64) throws(IdentityError) -> RaterIdentity {
        guard token.utf8.count <= Self.maxTokenBytes else { throw .malformed("the token is longer than \(Self.maxTokenBytes) bytes") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a JWT has three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONParser.parse(headerBytes),
              case .object = header else { throw .malformed("the header is not base64url-encoded JSON") }
        guard case .string(let alg)? = header["alg"] else { throw .malformed("the header has no alg") }
        try Self.checkCritical(header)
        var kid: String?
        switch header["kid"] {
        case nil: kid = nil
        case .string(let name)?: kid = name
        default: throw .malformed("kid is not a string")
        }
        let key = try keys.withLock { $0 }.key(kid: kid, alg: alg)
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.verifies(signature, over: signingInput) else { throw .badSignature }

        // Only a verified payload is read.
        guard let payloadBytes = Base64URL.decode(parts[1]), let claims = try? JSONParser.parse(payloadBytes),
              case .object = claims else { throw .malformed("the payload is not base64url-encoded JSON") }
        if let exp = claims["exp"] {
            guard let expiry = Self.seconds(exp) else { throw .malformed("exp is not a NumericDate") }
            // The leeway moves the clock, not the claim: a far `exp` is read as Int64.max.
            if nowSeconds - Self.leewaySeconds >= expiry { throw .expired }
        }
        if let nbf = claims["nbf"] {
            guard let notBefore = Self.seconds(nbf) else { throw .malformed("nbf is not a NumericDate") }
            if nowSeconds + Self.leewaySeconds < notBefore { throw .notYetValid }
        }
        if let issuer = policy.issuer {
            guard case .string(issuer)? = claims["iss"] else { throw .wrongIssuer(expected: issuer) }
        }
        if let audience = policy.audience {
            switch claims["aud"] {
            case .string(audience)?: break
            case .array(let names)? where names.contains(.string(audience)): break
            default: throw .wrongAudience(expected: audience)
            }
        }
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else { throw .malformed("the token has no sub") }
        return RaterIdentity(subject: subject, scopes: Self.scopes(claims))
    }

    /// RFC 7515 §4.1.11: `crit` lists header parameters the recipient must understand, or reject
    /// the token. This verifier implements no extension, so a well-formed `crit` is refused by
    /// naming its first entry, and a malformed one (not an array of strings, empty, or naming a
    /// parameter the header lacks) is refused as malformed.
    private static func checkCritical(_ header: JSONValue) throws(IdentityError) {
        guard let crit = header["crit"] else { return }
        guard case .array(let entries) = crit, !entries.isEmpty else {
            throw .malformed("crit must be a non-empty array of header parameter names")
        }
        var names: [String] = []
        for entry in entries {
            guard case .string(let name) = entry else { throw .malformed("crit must be a non-empty array of header parameter names") }
            guard header[name] != nil else { throw .malformed("crit names \"\(name)\", which the header does not have") }
            names.append(name)
        }
        throw .unsupportedCritical(names[0])
    }

    /// A NumericDate: seconds since the epoch, possibly with a fraction (RFC 7519 §2).
    private static func seconds(_ value: JSONValue) -> Int64? {
        guard case .number(let text) = value, let number = JSONNumber(text), !number.isNegative || number.isZero else { return nil }
        // Whole seconds, the fraction dropped: exact, without a Double.
        let scale = number.scale
        var significant = number.digits.drop { $0 == 0 }
        if scale < 0 { significant = significant.dropLast(min(-scale, significant.count)) }
        guard significant.count + max(scale, 0) <= 18 else { return Int64.max }
        var value: Int64 = 0
        for digit in significant { value = value * 10 + Int64(digit) }
        for _ in 0..<max(scale, 0) { value *= 10 }
        return value
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
