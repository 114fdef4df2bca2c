import JWT
import RatingsAPI
import RatingsCore

/// Token verification and write limits, from the settings: `RATINGS_JWT_SECRET` (HS256, also from
/// `RATINGS_JWT_SECRET_FILE`) or `RATINGS_JWT_PUBLIC_KEY_FILE` (RS256/ES256 PEM), and the
/// per-rater write limit.
struct Security {
    let verifier: (any IdentityVerifier)?
    let limiter: WriteRateLimiter?
    /// One line for standard error at start: what is enforced, and a warning when nothing is.
    let summary: String

    init(_ options: Options) throws {
        let secret = try options.secret("RATINGS_JWT_SECRET")
        let keyFile = try options.text("RATINGS_JWT_PUBLIC_KEY_FILE")
        var lines: [String] = []
        switch (secret, keyFile) {
        case (.some, .some):
            throw Options.Problem(message: "set RATINGS_JWT_SECRET or RATINGS_JWT_PUBLIC_KEY_FILE, not both")
        case let (secret?, nil):
            do { verifier = try JWTVerifier(secret: secret) } catch { throw Options.Problem(message: "RATINGS_JWT_SECRET: \(error)") }
            lines.append("auth: bearer tokens required for rating writes and reads (HS256)")
        case let (nil, path?):
            guard let pem = FileInput.read(path, limit: 1 << 20) else {
                throw Options.Problem(message: "RATINGS_JWT_PUBLIC_KEY_FILE: cannot read \(path)")
            }
            do {
                let jwt = try JWTVerifier(publicKeyPEM: String(decoding: pem, as: UTF8.self))
                verifier = jwt
                lines.append("auth: bearer tokens required for rating writes and reads (\(jwt.algorithm))")
            } catch {
                throw Options.Problem(message: "RATINGS_JWT_PUBLIC_KEY_FILE: \(error)")
            }
        case (nil, nil):
            verifier = nil
            lines.append("WARNING: no RATINGS_JWT_SECRET or RATINGS_JWT_PUBLIC_KEY_FILE: the service runs open; anyone can write any rater's rating")
        }
        let rate = try options.integer("write-rate")
        let burst = try options.integer("write-burst")
        if rate == 0 {
            limiter = nil
            lines.append("limits: no per-rater write limit (RATINGS_WRITE_RATE=0)")
        } else {
            limiter = WriteRateLimiter(ratePerSecond: Double(rate), burst: burst)
            lines.append("limits: \(rate) writes/s per rater, bursts of \(burst)")
        }
        summary = lines.joined(separator: "\n")
    }
}
