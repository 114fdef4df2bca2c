/// Who a request acts for, as proven by a verified bearer token.
public struct RaterIdentity: Sendable, Equatable {
    /// The token's subject: the rater it may act as.
    public let subject: String
    /// The scopes the token grants (`ratings:admin` configures item scales).
    public let scopes: Set<String>

    public init(subject: String, scopes: Set<String>) {
        self.subject = subject
        self.scopes = scopes
    }
}

/// Why a bearer token was not accepted; the API answers each with 401.
public enum IdentityError: Error, Sendable, Equatable {
    /// Not three base64url parts of JSON, or a required claim is missing or of the wrong type.
    case malformed(String)
    /// An `alg` this verifier does not accept (including `none`, and any algorithm that does not
    /// match the configured key).
    case algorithmNotAllowed(String)
    case badSignature
    case expired
    case notYetValid
    /// The token names a key (`kid`) the server does not hold.
    case unknownKey(String)
    /// `iss` is missing or is not the configured issuer.
    case wrongIssuer(expected: String)
    /// `aud` is missing or does not hold the configured audience.
    case wrongAudience(expected: String)
    /// The header's `crit` marks this parameter critical, and the verifier does not implement it.
    case unsupportedCritical(String)
}

/// Checks bearer tokens. Implemented outside the core (with libcrypto); the API sees only this.
public protocol IdentityVerifier: Sendable {
    /// The identity a valid token proves, checked at `nowSeconds` (Unix time).
    func verify(bearerToken: String, nowSeconds: Int64) throws(IdentityError) -> RaterIdentity
}
