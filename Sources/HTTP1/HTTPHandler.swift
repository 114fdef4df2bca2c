public import ASCIIKit

/// The one thing the server knows of the application: a request goes in with the environment it
/// arrived in, and exactly one response comes out: returned at once, or later through `respond`.
/// The server adds `Date`, `Content-Length` and `Connection` and drops the body for HEAD; it
/// changes nothing else in the response.
public struct HTTPHandler: Sendable {
    /// Delivers a later response. It takes the response over (`consuming`), so the application
    /// can add a field on the way out without copying the fields already there.
    public typealias Respond = @Sendable (consuming HTTPResponse) -> Void

    /// What `handle` returns: the response, which goes straight to the connection, or word that
    /// it comes later, through `respond`, once and once only, from any thread after `handle` has
    /// returned (a response on another thread reaches the connection's loop in one hop).
    public enum Answer: Sendable {
        case now(HTTPResponse)
        case later
    }

    /// Answers a request, which it takes over (`consuming`): the handler keeps it without a copy.
    public let handle: @Sendable (_ request: consuming HTTPRequest, _ environment: RequestEnvironment, _ respond: @escaping Respond) -> Answer
    /// Renders, on the connection's loop, the answer to a request the server refuses itself: it
    /// could not be read, did not arrive in time, or came over a connection limit (the handler
    /// never saw a request). The application gives it its problem type and request id and logs it;
    /// the server then closes the connection after it. Default: the problem as it is.
    public let refused: @Sendable (_ refusal: ProblemDetails, _ environment: RequestEnvironment) -> HTTPResponse

    public init(handle: @escaping @Sendable (_ request: consuming HTTPRequest, _ environment: RequestEnvironment, _ respond: @escaping Respond) -> Answer,
                refused: @escaping @Sendable (_ refusal: ProblemDetails, _ environment: RequestEnvironment) -> HTTPResponse = { refusal, _ in refusal.response }) {
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

