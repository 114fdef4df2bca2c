import HTTP1

/// A step wrapped around every request, in the manner of Hummingbird's and Vapor's middleware:
/// it sees the request context on the way in and the response on the way out. Responses arrive
/// on the request's loop, so a middleware's way out needs no lock for loop-owned state.
protocol Middleware: Sendable {
    /// Handles `context`, usually by calling `next` and passing its response on to `respond`.
    func handle(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond,
                next: (RequestContext, @escaping HTTPHandler.Respond) -> Void)
}
