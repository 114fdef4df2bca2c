import HTTP1
import JSON
import RatingsCore

/// Who may do what: with a verifier configured, rating writes and own-rating reads need a bearer
/// token whose subject is the rater (`me` stands for the subject), and configuring a scale needs
/// the `ratings:admin` scope. Without one the API runs open.
struct Access: Sendable {
    /// The scope that allows configuring items (and acting on any rater where a route allows it).
    static let adminScope = "ratings:admin"

    let verifier: (any IdentityVerifier)?
    let clock: any APIClock

    /// The verified caller; nil when the API runs open. 401 without a valid token.
    func identity(of request: HTTPRequest) throws -> RaterIdentity? {
        guard let verifier else { return nil }
        guard let header = request.headers["authorization"] else {
            throw APIError.unauthorized(nil, "Send Authorization: Bearer <token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("invalid_request", "Authorization must be 'Bearer <token>'.")
        }
        do {
            return try verifier.verify(bearerToken: parts[1].trimmingSpacesAndTabs(), nowSeconds: clock.wallMilliseconds() / 1000)
        } catch {
            throw APIError.unauthorized("invalid_token", Self.explain(error))
        }
    }

    /// The rater a rating request acts on: the path segment (`me` is the token's subject), which
    /// must be the token's subject when tokens are required.
    func rater(_ segment: String, caller: RaterIdentity?) throws -> RaterID {
        guard let caller else { return try Self.openRater(segment) }
        let rater = segment == "me" ? caller.subject : segment
        let id = try RaterID(rater)
        guard caller.subject == rater else {
            throw APIError.forbidden("The token is for rater \(caller.subject), not \(rater); a rater can only read and change their own rating.")
        }
        return id
    }

    /// The rater a batch names in `rater`: with tokens required, only the caller itself (`me`
    /// stands for the subject).
    func batchRater(_ given: String, caller: RaterIdentity?) throws -> RaterID {
        guard let caller else { return try Self.openRater(given) }
        let rater = given == "me" ? caller.subject : given
        guard caller.subject == rater else {
            throw APIError.forbidden("The token is for rater \(caller.subject), not \(rater); a batch shows only the caller's own stars.")
        }
        return try RaterID(rater)
    }

    /// The rater whose account a listing or an erasure acts on: with tokens required, the caller
    /// itself (`me` stands for the subject) or a caller with the `ratings:admin` scope.
    func account(_ segment: String, caller: RaterIdentity?) throws -> RaterID {
        guard let caller else { return try Self.openRater(segment) }
        let rater = segment == "me" ? caller.subject : segment
        let id = try RaterID(rater)
        guard caller.subject == rater || caller.scopes.contains(Self.adminScope) else {
            throw APIError.forbidden("The token is for rater \(caller.subject), not \(rater); only the rater or a token with the \(Self.adminScope) scope may do this.")
        }
        return id
    }

    /// A rater named in a path where anyone may be named (a review's author, say): `me` stands
    /// for the caller, when there is one.
    func named(_ segment: String, caller: RaterIdentity?) throws -> RaterID {
        guard segment == "me" else { return try RaterID(segment) }
        guard let caller else { return try Self.openRater(segment) }
        return try RaterID(caller.subject)
    }

    /// Checks that the caller holds `ratings:admin` for `operation` ("Configuring items").
    func requireAdmin(_ caller: RaterIdentity?, operation: String = "Configuring items") throws {
        guard verifier != nil else { return }
        guard let caller, caller.scopes.contains(Self.adminScope) else {
            throw APIError.insufficientScope(Self.adminScope, operation: operation)
        }
    }

    /// The scope that allows replying to reviews (as the item's owner).
    static let replyScope = "ratings:reply"

    /// The scope that allows moderating reviews and reading ones that are not published.
    static let moderateScope = "ratings:moderate"

    /// Checks that the caller may reply to reviews (`ratings:reply` or `ratings:admin`); the
    /// reply's author is the caller's subject, nil where the API runs open.
    func replier(_ caller: RaterIdentity?) throws -> String? {
        try holder(of: Self.replyScope, caller, operation: "Replying to reviews")
    }

    /// Checks that the caller may moderate (`ratings:moderate` or `ratings:admin`); the
    /// decision's moderator is the caller's subject, nil where the API runs open.
    func moderator(_ caller: RaterIdentity?, operation: String) throws -> String? {
        try holder(of: Self.moderateScope, caller, operation: operation)
    }

    /// Whether the caller may read `author`'s review when it is not published: anyone where the
    /// API runs open, else its author and moderators.
    func mayReadUnpublished(of author: RaterID, caller: RaterIdentity?) -> Bool {
        guard verifier != nil else { return true }
        guard let caller else { return false }
        return caller.subject == author.rawValue || caller.scopes.contains(Self.moderateScope) || caller.scopes.contains(Self.adminScope)
    }

    /// The caller's subject when it holds `scope` or `ratings:admin`; nil where the API runs
    /// open; 403 naming the scope otherwise.
    private func holder(of scope: String, _ caller: RaterIdentity?, operation: String) throws -> String? {
        guard verifier != nil else { return nil }
        guard let caller, caller.scopes.contains(scope) || caller.scopes.contains(Self.adminScope) else {
            throw APIError.insufficientScope(scope, operation: operation)
        }
        return caller.subject
    }

    /// A rater named where the API runs open: any identifier but `me`, which stands for a token's
    /// subject and so means nothing without tokens (never a rater named "me").
    private static func openRater(_ given: String) throws -> RaterID {
        guard given != "me" else {
            throw APIError.invalidQuery("me stands for the bearer token's subject, and this server checks no tokens; name the rater instead.")
        }
        return try RaterID(given)
    }

    private static func explain(_ error: IdentityError) -> String {
        switch error {
        case .malformed(let reason): return "The bearer token is malformed: \(reason)."
        case .algorithmNotAllowed(let alg): return "The bearer token's algorithm \(JSONText.quoted(alg)) is not accepted by this server."
        case .badSignature: return "The bearer token's signature does not verify."
        case .expired: return "The bearer token has expired; get a new one."
        case .notYetValid: return "The bearer token is not valid yet (nbf)."
        case .unknownKey(let kid): return "The bearer token names key \(JSONText.quoted(kid)) (kid), which this server does not hold; get a token signed with a current key."
        case .wrongIssuer(let expected): return "The bearer token's iss claim is missing or is not \(JSONText.quoted(expected)), the issuer this server trusts."
        case .wrongAudience(let expected): return "The bearer token's aud claim is missing or does not name \(JSONText.quoted(expected)); get a token issued for this service."
        case .unsupportedCritical(let name): return "The bearer token's header marks \(JSONText.quoted(name)) critical (crit), an extension this server does not implement; get a token without crit."
        }
    }
}
