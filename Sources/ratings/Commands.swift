import RatingsCore

/// The commands of `ratings` and their settings: the one table they are parsed from and their
/// help is written from.
enum Commands {
    static let database = Setting("database", "RATINGS_DATABASE", "PATH|URI", .textOrSecret, default: "ratings.sqlite",
                                  "SQLite file, created if missing, or a postgresql:// URI (password also from PGPASSWORD or .pgpass)")

    static let serve = Command(
        name: "serve",
        summary: "Applies pending migrations, then serves the HTTP API until SIGTERM or SIGINT.",
        details: """
            Logs "listening on http://HOST:PORT" once listening, and one access-log line per request on
            standard output. SIGTERM or SIGINT drains: requests under way are answered, then it exits 0.
            Without a token key (RATINGS_JWT_*), the service runs open and says so at start. Set
            RATINGS_JWT_ISSUER and RATINGS_JWT_AUDIENCE whenever a provider's keys are used.
            """,
        settings: [
            Setting("host", "RATINGS_HOST", "H", .text, default: "127.0.0.1", "Address to bind; 0.0.0.0 for all"),
            Setting("port", "RATINGS_PORT", "P", .integer(0...65_535), default: "8080", "Port, 0 for an ephemeral one"),
            database,
            Setting("database-pool", "RATINGS_DATABASE_POOL", "N", .integer(1...1_000), default: "10",
                    "PostgreSQL connections this process keeps at most"),
            Setting("default-max-rating", "RATINGS_DEFAULT_MAX_RATING", "N", .integer(1...10), default: "5",
                    "Scale of items without their own"),
            Setting("write-rate", "RATINGS_WRITE_RATE", "N", .integer(0...1_000_000), default: "5",
                    "Rating writes per second per rater, 0 for no limit"),
            Setting("write-burst", "RATINGS_WRITE_BURST", "N", .integer(1...1_000_000), default: "20",
                    "Writes a rater may make at once"),
            Setting("ranking-prior", "RATINGS_RANKING_PRIOR", "P", .text, default: "0.5",
                    "Bayesian ranking prior: the score of an item with no ratings, a decimal from 0 to 1 (at most 4 decimals)"),
            Setting("ranking-weight", "RATINGS_RANKING_WEIGHT", "W", .integer(RankingSettings.weights), default: "10",
                    "Bayesian ranking weight: how many ratings' worth the prior counts for"),
            Setting("review-page-cache", "RATINGS_REVIEW_PAGE_CACHE", "N", .integer(0...100_000), default: "256",
                    "Pages of reviews kept as answered (a page of 20 is about 20 KB), 0 for none; SQLite only"),
            Setting("review-moderation", "RATINGS_REVIEW_MODERATION", "MODE", .choice(ModerationMode.allCases.map(\.rawValue)), default: "post",
                    "post: a new review is published at once; pre: it waits, pending, until a moderator publishes it"),
            Setting("review-flag-threshold", "RATINGS_REVIEW_FLAG_THRESHOLD", "N", .integer(ModerationPolicy.thresholds), default: "3",
                    "Flags from distinct raters since the last decision that hide a published review until a moderator decides"),
            Setting("webhooks", "RATINGS_WEBHOOKS_FILE", "FILE", .text, default: nil,
                    "JSON file of webhook endpoints to deliver change events to; read again on SIGHUP and when it changes"),
            Setting("webhook-retention-days", "RATINGS_WEBHOOK_RETENTION_DAYS", "N", .integer(1...3_650), default: "7",
                    "Days delivered and failed webhook deliveries stay in the outbox before they are pruned"),
            Setting("max-connections-per-address", "RATINGS_MAX_CONNECTIONS_PER_ADDRESS", "N", .integer(0...1_000_000), default: "1000",
                    "Open connections one client address may hold, 0 for no limit (behind a proxy, every client is the proxy)"),
            Setting("log-format", "RATINGS_LOG_FORMAT", "FORMAT", .choice(["text", "json"]), default: "text",
                    "Access and error log lines as words or as one JSON object each"),
            Setting(nil, "RATINGS_JWT_SECRET", "SECRET", .secret, default: nil,
                    "HS256 shared secret, at least 32 bytes (or RATINGS_JWT_SECRET_FILE: a file holding it)"),
            Setting(nil, "RATINGS_JWT_PUBLIC_KEY_FILE", "FILE", .text, default: nil,
                    "PEM public key: RSA for RS256, P-256 for ES256 (reread on SIGHUP and when it changes)"),
            Setting(nil, "RATINGS_JWT_JWKS_FILE", "FILE", .text, default: nil,
                    "JWK Set of RSA (RS256) and P-256 (ES256) keys named by kid (reread on SIGHUP and when it changes)"),
            Setting(nil, "RATINGS_JWT_ISSUER", "ISS", .text, default: nil, "When set, a token's iss must equal it"),
            Setting(nil, "RATINGS_JWT_AUDIENCE", "AUD", .text, default: nil, "When set, a token's aud must name it"),
        ])

    static let migrate = Command(
        name: "migrate",
        summary: "Applies the migrations built into this binary that the database lacks, then exits 0.",
        details: "Each migration runs in its own transaction with its bookkeeping row. Running it again changes nothing.",
        settings: [database])

    static let backup = Command(
        name: "backup",
        summary: "Copies a SQLite database, while `ratings serve` may be writing it, into a new file `serve` can open as it is.",
        details: """
            The copy is one consistent snapshot: every write acknowledged before the backup began, none that
            came later, compacted. Reading it never holds up the server's writer. An existing file is never
            overwritten (exit 2). For PostgreSQL, use pg_dump (docs/operations.md, "Backups").
            """,
        settings: [
            Setting("database", "RATINGS_DATABASE", "PATH", .text, default: "ratings.sqlite", "The SQLite file to copy"),
            Setting("to", "RATINGS_BACKUP_TO", "FILE", .text, default: nil, "The new file to write; required, and must not exist"),
        ])

    static let copy = Command(
        name: "copy",
        summary: "Copies everything one database holds into another, SQLite or PostgreSQL either way, and checks the copy.",
        details: """
            Reads the source as one consistent snapshot, so it may keep serving. Migrates the destination,
            which must hold no items and no events (exit 2), then copies every table: ratings, reviews with
            votes, flags, replies and moderation history, pending webhook events with each item's version,
            the cursor secret (cursors issued by the source keep working) and the ranking settings. Ends by
            comparing every item's count, sum and distribution; exits 0 only when they match. Until then
            the destination is marked incomplete and no server opens it. Stop servers on the source first
            if its last writes must come along; pending events may then be delivered again (at least once).
            """,
        settings: [
            Setting("from", "RATINGS_COPY_FROM", "PATH|URI", .text, default: nil, "The database to copy from: a SQLite file or a postgresql:// URI; required"),
            Setting("to", "RATINGS_COPY_TO", "PATH|URI", .text, default: nil,
                    "The database to copy into, created or migrated first; required, and must hold no items or events"),
            Setting("if-incomplete", "RATINGS_COPY_IF_INCOMPLETE", "WHAT", .choice(["refuse", "discard"]), default: "refuse",
                    "When the destination holds an unfinished copy: refuse (exit 2), or discard it and copy again"),
        ])

    static let healthcheck = Command(
        name: "healthcheck",
        summary: "Exits 0 when the URL answers 200, 1 otherwise (for container health checks, where no curl exists).",
        details: "Without --url it checks the port `serve` would listen on: RATINGS_PORT, else 8080.",
        settings: [
            Setting("url", "RATINGS_HEALTHCHECK_URL", "URL", .text, default: "http://127.0.0.1:$RATINGS_PORT/healthz", "What to check"),
        ])

    static let token = Command(
        name: "token",
        summary: "Prints a bearer token signed with RATINGS_JWT_SECRET, for local work against a server with that secret.",
        details: """
            The token (HS256) carries sub, iat and exp, scope when --scope is given, and iss and aud when
            RATINGS_JWT_ISSUER and RATINGS_JWT_AUDIENCE are set, as the server checks them. A server that
            checks tokens with public keys (RATINGS_JWT_PUBLIC_KEY_FILE, RATINGS_JWT_JWKS_FILE) takes its
            tokens from the identity provider; this command cannot make those and says so.
            """,
        settings: [
            Setting("subject", "RATINGS_TOKEN_SUBJECT", "RATER", .text, default: nil, "The rater the token speaks for (its sub); required"),
            Setting("scope", "RATINGS_TOKEN_SCOPE", "SCOPES", .text, default: nil, "Space-separated scopes, such as ratings:admin"),
            Setting("ttl", "RATINGS_TOKEN_TTL", "DURATION", .text, default: "1h", "How long it is valid: 90s, 30m, 12h or 7d, at most 365d"),
            Setting(nil, "RATINGS_JWT_SECRET", "SECRET", .secret, default: nil,
                    "The server's HS256 shared secret (or RATINGS_JWT_SECRET_FILE: a file holding it)"),
            Setting(nil, "RATINGS_JWT_ISSUER", "ISS", .text, default: nil, "When set, the token's iss"),
            Setting(nil, "RATINGS_JWT_AUDIENCE", "AUD", .text, default: nil, "When set, the token's aud"),
            Setting(nil, "RATINGS_JWT_PUBLIC_KEY_FILE", "FILE", .text, default: nil, "Read only to say that public keys cannot sign"),
            Setting(nil, "RATINGS_JWT_JWKS_FILE", "FILE", .text, default: nil, "Read only to say that public keys cannot sign"),
        ])

    static let all = [serve, migrate, copy, backup, healthcheck, token]

    /// `ratings --help`.
    static var usage: String {
        var lines = ["ratings \(BuildInfo.version): star ratings for items, with display and accessibility strings, over HTTP.", "", "Usage:"]
        for command in all { lines.append("  ratings \(command.name) [options]") }
        lines += ["  ratings --version", "  ratings --help | ratings COMMAND --help", "", "Commands:"]
        let width = all.map(\.name.count).max() ?? 0
        for command in all { lines.append("  " + column(command.name, width + 2) + command.summary) }
        return lines.joined(separator: "\n")
    }
}
