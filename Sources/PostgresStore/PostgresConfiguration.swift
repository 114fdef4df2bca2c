public import RatingsCore

/// Settings of the PostgreSQL store, with the defaults the service runs on.
public struct PostgresConfiguration: Sendable {
    /// A `postgresql://` or `postgres://` URI in libpq's syntax. The password may come from the
    /// URI, `PGPASSWORD` or a `.pgpass` file, as libpq reads them.
    public var uri: String
    /// Connections the process keeps at most, each with a worker thread. Default 10.
    public var poolSize = 10
    /// The longest a request waits for the database, from the moment it is queued: connecting,
    /// queueing and every statement included. Past it the request fails (503). Default 4.5 s, so
    /// an answer leaves within the 5 seconds the service promises.
    public var requestTimeoutSeconds = 4.5
    /// After a failed connection attempt, requests fail at once for this long instead of each
    /// trying again (and waiting) while the database is down; the pause doubles with each further
    /// failure in a row, up to `reconnectMaxPauseSeconds`, with jitter (`ReconnectBackoff`).
    /// Default 0.25 s.
    public var reconnectPauseSeconds = 0.25
    /// The longest pause between connection attempts while the database stays down. Default 4 s,
    /// so a replica notices a database that is back within a few seconds.
    public var reconnectMaxPauseSeconds = 4.0
    /// Times a transaction is retried after a serialization failure or a deadlock. Default 5.
    public var maxRetries = 5
    /// The Bayesian ranking's prior and weight; the stored scores follow them. Every replica on
    /// one database must run with the same values.
    public var ranking = RankingSettings.standard

    /// Records each write's change events in the outbox, in the write's transaction; nil (the
    /// default) records none.
    public var events: (any EventRecorder)?

    public init(uri: String) { self.uri = uri }

    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func isURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// The URI without its password, for logs.
    public var redacted: String {
        // scheme://user:password@host… → scheme://user:***@host…
        guard let schemeEnd = uri.firstRange(of: "://")?.upperBound,
              let at = uri[schemeEnd...].firstIndex(of: "@"),
              let colon = uri[schemeEnd..<at].firstIndex(of: ":") else { return uri }
        return String(uri[..<colon]) + ":***" + String(uri[at...])
    }
}
