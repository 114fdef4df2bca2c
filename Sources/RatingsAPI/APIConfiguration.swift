import Platform
public import RatingsCore

/// What the API needs to know beyond its store.
public struct APIConfiguration: Sendable {
    /// The languages displays are phrased in; the catalog's fallback answers unknown ones.
    public var languages: LanguageCatalog
    /// The scale of items that have none of their own. Default 5.
    public var defaultScale = Scale.standard
    /// The OpenAPI document served at `/openapi.yaml`.
    public var openAPIDocument = embeddedOpenAPIDocument
    /// Where server-side failures are written (never to the client): one line each, already in
    /// `logFormat` (`LogLine`), without its newline. Called on the event loops, so it must
    /// hand the line on rather than wait for its destination. Default: a write to standard error,
    /// for tests and tools whose standard error is a file.
    public var errorLog: @Sendable (String) -> Void = { message in StandardStreams.error(message) }
    /// Holds back a failure that repeats (at most one line a second for the same message); shared
    /// with whoever owns the log's destination, which reports what was held back at stop.
    public var errorLogThrottle = LogThrottle()
    /// How access-log and error-log lines are written. Default `.text`.
    public var logFormat = LogFormat.text
    /// Checks bearer tokens; nil runs the API open (anyone may write any rating).
    public var identityVerifier: (any IdentityVerifier)?
    /// Limits rating writes per rater; nil means no limit.
    public var writeLimiter: WriteRateLimiter?
    /// Open connections, for the `ratings_open_connections` gauge.
    public var openConnections: @Sendable () -> Int = { 0 }
    /// The Bayesian ranking's prior and weight, the same the store scores with. Default P 0.5, W 10.
    public var ranking = RankingSettings.standard
    /// How many pages of reviews are kept as answered, for a store that vouches for its lists'
    /// versions (SQLite claiming its file); 0 keeps none. Default 256 (about 5 MB of pages of 20).
    public var reviewPageCache = 256
    /// When reviews are shown and when flags hide one. Default post-moderation, threshold 3.
    public var moderation = ModerationPolicy.standard
    /// The webhooks in force and this process's attempts, for the admin route and the metrics;
    /// nil when no webhooks file is configured.
    public var webhooks: (any WebhookMonitor)?
    /// The clocks; tests substitute their own.
    public var clock: any APIClock = MachineClock()

    public init(languages: LanguageCatalog) { self.languages = languages }
}

/// How log lines are written.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One line of words per event, for people reading a terminal.
    case text
    /// One JSON object per line, for log collectors.
    case json
}
