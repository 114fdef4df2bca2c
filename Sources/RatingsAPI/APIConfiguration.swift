public import RatingsCore

/// What the API needs to know beyond its store.
public struct APIConfiguration: Sendable {
    /// The languages displays are phrased in; the catalog's fallback answers unknown ones.
    public var languages: LanguageCatalog
    /// The scale of items that have none of their own. Default 5.
    public var defaultScale = Scale.standard
    /// The OpenAPI document served at `/openapi.yaml`.
    public var openAPIDocument = embeddedOpenAPIDocument
    /// Where server-side failures are written (never to the client). Default standard error.
    public var errorLog: @Sendable (String) -> Void = { message in StandardError.write(message) }
    /// Checks bearer tokens; nil runs the API open (anyone may write any rating).
    public var identityVerifier: (any IdentityVerifier)?
    /// Limits rating writes per rater; nil means no limit.
    public var writeLimiter: WriteRateLimiter?
    /// Open connections, for the `ratings_open_connections` gauge.
    public var openConnections: @Sendable () -> Int = { 0 }

    public init(languages: LanguageCatalog) { self.languages = languages }
}
