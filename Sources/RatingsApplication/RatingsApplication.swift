public import HTTPServer
public import RatingsAPI
public import RatingsCore

/// The service assembled: the API over a store, answered by our HTTP server, its metrics
/// counting the server's connections. `ratings serve` and the tests that run the service
/// in-process build it here, the one way it is wired.
public struct RatingsApplication: Sendable {
    public let api: RatingsAPI
    public let server: HTTPServer

    /// The API over `store` with `api`'s settings, served with `server`'s (not yet started).
    public static func make(store: any ReviewStore, api: APIConfiguration, server: ServerConfiguration) -> RatingsApplication {
        let metrics = ServerMetrics()
        var api = api
        api.openConnections = { metrics.openConnections }
        let ratings = RatingsAPI(store: store, configuration: api)
        return RatingsApplication(api: ratings, server: HTTPServer(configuration: server, handler: ratings.handler, metrics: metrics))
    }
}
