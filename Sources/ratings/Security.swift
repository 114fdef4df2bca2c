import Glibc
import JWT
import RatingsAPI
import RatingsCore

/// Token verification and write limits, from the environment:
/// `RATINGS_JWT_SECRET` (HS256) or `RATINGS_JWT_PUBLIC_KEY_FILE` (RS256/ES256 PEM), and
/// `RATINGS_WRITE_RATE` / `RATINGS_WRITE_BURST` per rater.
struct Security {
    let verifier: (any IdentityVerifier)?
    let limiter: WriteRateLimiter?
    /// One line for standard error at start: what is enforced, and a warning when nothing is.
    let summary: String

    init(_ options: Options, _ environment: Environment) throws {
        let secret = environment["RATINGS_JWT_SECRET"]
        let keyFile = environment["RATINGS_JWT_PUBLIC_KEY_FILE"]
        var lines: [String] = []
        switch (secret, keyFile) {
        case (.some, .some):
            throw Options.Problem(message: "set RATINGS_JWT_SECRET or RATINGS_JWT_PUBLIC_KEY_FILE, not both")
        case let (secret?, nil):
            do { verifier = try JWTVerifier(secret: secret) } catch { throw Options.Problem(message: "RATINGS_JWT_SECRET: \(error)") }
            lines.append("auth: bearer tokens required for rating writes and reads (HS256)")
        case let (nil, path?):
            guard let pem = Self.read(path) else { throw Options.Problem(message: "RATINGS_JWT_PUBLIC_KEY_FILE: cannot read \(path)") }
            do {
                let jwt = try JWTVerifier(publicKeyPEM: pem)
                verifier = jwt
                lines.append("auth: bearer tokens required for rating writes and reads (\(jwt.algorithm))")
            } catch {
                throw Options.Problem(message: "RATINGS_JWT_PUBLIC_KEY_FILE: \(error)")
            }
        case (nil, nil):
            verifier = nil
            lines.append("WARNING: no RATINGS_JWT_SECRET or RATINGS_JWT_PUBLIC_KEY_FILE: the service runs open; anyone can write any rater's rating")
        }
        let rate = try options.integer("write-rate", env: "RATINGS_WRITE_RATE", environment, default: 5, range: 0...1_000_000)
        let burst = try options.integer("write-burst", env: "RATINGS_WRITE_BURST", environment, default: 20, range: 1...1_000_000)
        if rate == 0 {
            limiter = nil
            lines.append("limits: no per-rater write limit (RATINGS_WRITE_RATE=0)")
        } else {
            limiter = WriteRateLimiter(ratePerSecond: Double(rate), burst: burst)
            lines.append("limits: \(rate) writes/s per rater, bursts of \(burst)")
        }
        summary = lines.joined(separator: "\n")
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
            if bytes.count > 1 << 20 { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
