import ASCIIKit
import HTTP1
import JWT
import Platform
import RatingsCore

/// `ratings token`: prints an HS256 bearer token signed with the server's shared secret, for
/// local work and tests against a server that checks tokens (production tokens come from the
/// identity provider). Exits 2, saying why, when there is no secret to sign with.
enum TokenCommand {
    /// The longest lifetime a token may be given.
    static let maxLifetimeSeconds: Int64 = 365 * 86_400

    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        switch Options.parse(arguments, command: Commands.token, environment: environment) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        do throws(Options.Problem) {
            StandardStreams.out(try token(options))
            return 0
        } catch {
            StandardStreams.error("ratings token: \(error.message)")
            return 2
        }
    }

    private static func token(_ options: Options) throws(Options.Problem) -> String {
        guard let secret = try options.secret("RATINGS_JWT_SECRET") else {
            let publicKeys = ["RATINGS_JWT_PUBLIC_KEY_FILE", "RATINGS_JWT_JWKS_FILE"].filter { (try? options.text($0)) != nil }
            if let variable = publicKeys.first {
                throw Options.Problem(message: "\(variable) holds public keys, which check tokens but cannot sign them: a server configured so takes its tokens from the identity provider. This command signs with RATINGS_JWT_SECRET (or RATINGS_JWT_SECRET_FILE), for a server that has the same secret.")
            }
            throw Options.Problem(message: "set RATINGS_JWT_SECRET (or RATINGS_JWT_SECRET_FILE) to the secret the server checks tokens with; this command signs with it.")
        }
        guard let subject = try options.text("subject"), !subject.isEmpty else {
            throw Options.Problem(message: "give --subject RATER: the rater the token speaks for")
        }
        // `me` stands for a token's subject in requests; a token for a rater named so would be no one's.
        guard subject != "me", (try? RaterID(subject)) != nil else {
            throw Options.Problem(message: "\(options.source("subject")) is not a rater id: it must be 1 to \(IdentifierRule.maxLength) characters from \(IdentifierRule.alphabetDescription), not me, . or ..; got '\(subject)'")
        }
        let ttl = try options.text("ttl") ?? "1h"
        guard let lifetime = seconds(ttl), (1...maxLifetimeSeconds).contains(lifetime) else {
            throw Options.Problem(message: "\(options.source("ttl")) must be a duration such as 90s, 30m, 12h or 7d, at most 365d; got '\(ttl)'")
        }
        let scopes = (try options.text("scope") ?? "").split(separator: " ").map(String.init)
        let signer: HS256Signer
        do {
            signer = try HS256Signer(secret: secret)
        } catch {
            throw Options.Problem(message: "RATINGS_JWT_SECRET: \(error)")
        }
        return signer.token(subject: subject, scopes: scopes, now: SystemClock.wallMilliseconds() / 1000, lifetime: lifetime,
                            issuer: try options.text("RATINGS_JWT_ISSUER"), audience: try options.text("RATINGS_JWT_AUDIENCE"))
    }

    /// `90s`, `30m`, `12h`, `7d` (or plain seconds) as seconds; nil for anything else.
    static func seconds(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard let count = ASCII.integer(digits, in: 0...1_000_000_000) else { return nil }
        return Int64(count) * (unit ?? 1)
    }
}
