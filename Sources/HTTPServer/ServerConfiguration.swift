import Glibc
public import HTTP1
import Platform

/// How the server listens and what it tolerates, with production defaults.
public struct ServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or `localhost`. Default `127.0.0.1`.
    public var host = "127.0.0.1"

    /// Whether `host` is an address the server can bind (an IPv4 or IPv6 literal, or `localhost`).
    public static func canBind(host: String) -> Bool { ListeningSocket.isAddress(host) }
    /// Port to bind; 0 picks a free one. Default 8080.
    public var port = 8080
    /// Request size limits and timeouts.
    public var limits = HTTPLimits()
    /// Open connections beyond this are answered 503 and closed. Default 10,000.
    public var maxConnections = 10_000
    /// Open connections one peer address may hold; more are answered 503 and closed. 0 turns the
    /// limit off, as behind a proxy, where every connection comes from the proxy's address.
    /// Default 1,000.
    public var maxConnectionsPerAddress = 1_000
    /// Event-loop threads; default one per core.
    public var eventLoops = max(1, Machine.coreCount)
    /// Pending connections the kernel queues before accept. Default 4,096.
    public var backlog: Int32 = 4_096
    /// How long a drain waits for requests in flight before closing everything. Default 10 s.
    public var drainTimeoutSeconds = 10.0
    /// How long a connection closed after an error keeps reading, so the client sees the error
    /// instead of a reset. Default 2 s.
    public var lingerSeconds = 2.0
    /// Where access-log lines go (a file descriptor). Default standard output.
    public var accessLogFD: Int32 = 1
    /// Where the server reports failures it survives (a system call on one connection, say),
    /// each with its errno. Called on the event loops, so it must hand the line on rather than
    /// wait for its destination (`ratings serve` gives it a `LogWriter`). Default: a write to
    /// standard error, for tests and tools whose standard error is a file.
    public var errorLog: @Sendable (String) -> Void = { message in StandardStreams.error(message) }

    public init() {}
}
