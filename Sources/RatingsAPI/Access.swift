import JSON
import HTTP1
import RatingsCore

/// Who may do what: with a verifier configured, rating writes and own-rating reads need a bearer
/// token whose subject is the rater (`me` stands for the subject), and configuring a scale needs
/// the `ratings:admin` scope. Without one the API runs open.
struct Access: Sendable {
    /// The scope that allows configuring items.
    static let adminScope = "ratings:admin"

    let verifier: (any IdentityVerifier)?

    /// The rater a rating request acts on, after checking the token when one is required.
    func rater(_ segment: String, for request: HTTPRequest) throws -> RaterID {
        guard let verifier else { return try RaterID(segment) }
        let identity = try authenticate(request, verifier)
        let rater = segment == "me" ? identity.subject : segment
        let id = try RaterID(rater)
        guard identity.subject == rater else { throw APIError.forbidden("The token is for rater \(identity.subject), not \(rater); a rater can only read and change their own rating.") }
        return id
    }

    /// Checks that the request may configure item scales.
    func requireAdmin(_ request: HTTPRequest) throws {
        guard let verifier else { return }
        let identity = try authenticate(request, verifier)
        guard identity.scopes.contains(Self.adminScope) else { throw APIError.insufficientScope(Self.adminScope) }
    }

    private func authenticate(_ request: HTTPRequest, _ verifier: any IdentityVerifier) throws -> RaterIdentity {
        guard let header = request.headers["authorization"] else {
            throw APIError.unauthorized(nil, "Send Authorization: Bearer <token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("invalid_request", "Authorization must be 'Bearer <token>'.")
        }
        do {
            return try verifier.verify(bearerToken: parts[1].trimmingSpacesAndTabs(), nowSeconds: Clock.wallMilliseconds() / 1000)
        } catch {
            throw APIError.unauthorized("invalid_token", Self.explain(error))
        }
    }

    private static func explain(_ error: IdentityError) -> String {
        switch error {
        case .malformed(let reason): return "The bearer token is malformed: \(reason)."
        case .algorithmNotAllowed(let alg): return "The bearer token's algorithm \(JSONText.quoted(alg)) is not accepted by this server."
        case .badSignature: return "The bearer token's signature does not verify."
        case .expired: return "The bearer token has expired; get a new one."
        case .notYetValid: return "The bearer token is not valid yet (nbf)."
        }
    }
}
