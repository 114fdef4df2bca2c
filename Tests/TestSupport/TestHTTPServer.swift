public import HTTP1
public import HTTPServer
import Glibc

/// Starts a server on `127.0.0.1:0` and always stops it in the same helper (hummingbird's
/// TestUtils pattern), so no test leaks a listening socket or loop thread.
public func withTestServer<T>(
    handler: HTTPHandler,
    metrics: ServerMetrics = ServerMetrics(),
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (_ port: Int, _ server: HTTPServer) async throws -> T
) async throws -> T {
    try await withTestServer(configure: configure, serving: { HTTPServer(configuration: $0, handler: handler, metrics: metrics) }, body)
}

/// The same for a server `serving` makes from the test's configuration (the whole service, say).
public func withTestServer<T>(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    serving: (ServerConfiguration) -> HTTPServer,
    _ body: (_ port: Int, _ server: HTTPServer) async throws -> T
) async throws -> T {
    let configuration = ServerConfiguration.forTests(configure)
    let server = serving(configuration)
    let port = try server.start()
    defer {
        server.beginDrain()
        server.waitUntilStopped()
        close(configuration.accessLogFD)
    }
    return try await body(port, server)
}

extension ServerConfiguration {
    /// A test server's settings: `127.0.0.1:0`, two event loops, the access log to /dev/null (a
    /// descriptor the caller closes once the server has stopped), then `configure`'s changes.
    public static func forTests(_ configure: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.accessLogFD = open("/dev/null", O_WRONLY)
        configure(&configuration)
        return configuration
    }
}
