public import ASCIIKit

/// The one thing the server knows of the application: a request goes in with the environment it
/// arrived in, and exactly one response comes out through `respond`, on any thread, now or later.
/// The server adds `Date`, `Content-Length` and `Connection` and drops the body for HEAD; it
/// changes nothing else in the response.
public struct HTTPHandler: Sendable {
    /// Delivers the one response to a request. It takes the response over (`consuming`), so the
    /// middleware can add a field on the way out without copying the fields already there.
    public typealias Respond = @Sendable (consuming HTTPResponse) -> Void

    /// Answers a request, which it takes over (`consuming`): the handler keeps it without a copy,
    /// which would retain each of its fields.
    public let handle: @Sendable (_ request: consuming HTTPRequest, _ environment: RequestEnvironment, _ respond: @escaping Respond) -> Void
    /// Told, on the connection's loop, of a request the server answered itself because it could
    /// not be read or did not arrive in time (the handler never saw it), for logs and metrics.
    public let refused: @Sendable (_ refusal: ProblemDetails, _ environment: RequestEnvironment) -> Void

    public init(handle: @escaping @Sendable (_ request: consuming HTTPRequest, _ environment: RequestEnvironment, _ respond: @escaping Respond) -> Void,
                refused: @escaping @Sendable (_ refusal: ProblemDetails, _ environment: RequestEnvironment) -> Void = { _, _ in }) {
        self.handle = handle
        self.refused = refused
    }
}

/// Where a request arrived: the peer, and the event loop that owns its connection.
public struct RequestEnvironment: Sendable {
    /// The peer's address as text (`127.0.0.1`, `::1`).
    public let peer: String
    /// The loop the connection belongs to; continuations of the request run there.
    public let loop: any RequestLoop

    public init(peer: String, loop: any RequestLoop) {
        self.peer = peer
        self.loop = loop
    }
}

/// The thread that owns a connection, as the application sees it: a place to continue a
/// request's work, and a log buffer written at the end of each turn of the loop.
public protocol RequestLoop: AnyObject, Sendable {
    /// Whether the caller runs on this loop's thread now.
    var isCurrent: Bool { get }
    /// Runs `task` on the loop's thread, soon. Safe from any thread.
    func execute(_ task: @escaping @Sendable () -> Void)
    /// Queues one access-log line: `write` appends it (without its newline) straight to the
    /// loop's log buffer, so a line costs no buffer of its own. Only on the loop's thread.
    func appendLogLine(_ write: (inout ByteBuffer) -> Void)
}

extension RequestLoop {
    /// Runs `task` now when already on the loop, else on the loop soon.
    public func run(_ task: @escaping @Sendable () -> Void) {
        if isCurrent { task() } else { execute(task) }
    }
}
