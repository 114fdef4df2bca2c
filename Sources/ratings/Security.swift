import JWT
import RatingsAPI
import RatingsCore

/// Token verification and write limits, from the settings: one key source, either
/// `RATINGS_JWT_SECRET` (HS256, also from `RATINGS_JWT_SECRET_FILE`), `RATINGS_JWT_PUBLIC_KEY_FILE`
/// (RS256/ES256 PEM) or `RATINGS_JWT_JWKS_FILE` (a JWK Set, as identity providers publish); the
/// issuer and audience tokens must name; and the per-rater write limit.
struct Security {
    let verifier: JWTVerifier?
    /// The key file to watch for rotation, when the keys come from one.
    let keyFile: KeyFile?
    let limiter: WriteRateLimiter?
    /// Lines for standard error at start: what is enforced, and warnings.
    let notes: [(level: LogLine.Level, text: String)]

    init(_ options: Options) throws {
        let secret = try options.secret("RATINGS_JWT_SECRET")
        let pemPath = try options.text("RATINGS_JWT_PUBLIC_KEY_FILE")
        let jwksPath = try options.text("RATINGS_JWT_JWKS_FILE")
        let policy = JWTVerifier.ClaimPolicy(issuer: try options.text("RATINGS_JWT_ISSUER"), audience: try options.text("RATINGS_JWT_AUDIENCE"))
        var lines: [(level: LogLine.Level, text: String)] = []
        let sources = [secret.map { _ in "RATINGS_JWT_SECRET" }, pemPath.map { _ in "RATINGS_JWT_PUBLIC_KEY_FILE" },
                       jwksPath.map { _ in "RATINGS_JWT_JWKS_FILE" }].compactMap { $0 }
        guard sources.count <= 1 else { throw Options.Problem(message: "set one of \(sources.joined(separator: ", ")), not several") }
        if let secret {
            do { verifier = try JWTVerifier(secret: secret, policy: policy) } catch { throw Options.Problem(message: "RATINGS_JWT_SECRET: \(error)") }
            keyFile = nil
        } else if let path = pemPath ?? jwksPath {
            let file = KeyFile(path: path, format: pemPath != nil ? .pem : .jwks, variable: sources[0])
            do {
                verifier = JWTVerifier(keys: try file.read(), policy: policy)
            } catch {
                throw Options.Problem(message: "\(file.variable): \(error)")
            }
            keyFile = file
            if policy.audience == nil {
                lines.append((.warning, "WARNING: \(file.variable) is set without RATINGS_JWT_AUDIENCE: tokens the same provider issued for other services are accepted too; set RATINGS_JWT_AUDIENCE (and RATINGS_JWT_ISSUER)"))
            }
        } else {
            verifier = nil
            keyFile = nil
            lines.append((.warning, "WARNING: no RATINGS_JWT_SECRET, RATINGS_JWT_PUBLIC_KEY_FILE or RATINGS_JWT_JWKS_FILE: the service runs open; anyone can write any rater's rating"))
        }
        if let verifier {
            var checks = verifier.algorithms.joined(separator: ", ")
            if let issuer = policy.issuer { checks += "; iss \(issuer)" }
            if let audience = policy.audience { checks += "; aud \(audience)" }
            lines.insert((.info, "auth: bearer tokens required for rating writes and reads (\(checks))"), at: 0)
        }
        let rate = try options.integer("write-rate")
        let burst = try options.integer("write-burst")
        if rate == 0 {
            limiter = nil
            lines.append((.info, "limits: no per-rater write limit (RATINGS_WRITE_RATE=0)"))
        } else {
            limiter = WriteRateLimiter(ratePerSecond: Double(rate), burst: burst)
            lines.append((.info, "limits: \(rate) writes/s per rater, bursts of \(burst)"))
        }
        notes = lines
    }
}

/// A file holding the token keys: a PEM public key or a JWK Set.
struct KeyFile: Sendable {
    enum Format: Sendable { case pem, jwks }

    let path: String
    let format: Format
    /// The variable that named it, for messages.
    let variable: String

    /// The keys the file holds now; throws why they cannot be used.
    func read() throws -> KeySet {
        guard let bytes = FileInput.read(path, limit: 1 << 20) else { throw KeyError(message: "cannot read \(path) (or it is over 1 MiB)") }
        switch format {
        case .jwks: return try KeySet(jwks: bytes)
        case .pem: return try KeySet(publicKeyPEM: String(decoding: bytes, as: UTF8.self))
        }
    }
}
