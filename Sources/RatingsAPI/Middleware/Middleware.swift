import HTTP1

/// A step around every request, in the shape of Hummingbird's `MiddlewareProtocol`: it is given
/// the request's context and `next`, the rest of the way in (the inner steps, then the route's
/// endpoint), and returns the reply, which it may pass on, change on the way out (`Reply.map`)
/// or make itself. The API declares its steps once, as a list, outermost first (`RatingsAPI`).
/// Replies continue on the request's loop, so a step's way out needs no lock for loop-owned state.
protocol Middleware: AnyObject, Sendable {
    func handle(_ context: RequestContext, next: (RequestContext) -> Reply) -> Reply
}
