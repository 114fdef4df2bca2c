import HTTP1

/// A step around every request, in the manner of Hummingbird's and Vapor's middleware: it sees
/// the request context on the way in, before the route's endpoint, and the response on the way
/// out, and may change either. The API runs the steps in order on the way in and in reverse on
/// the way out; responses arrive on the request's loop, so a step's way out needs no lock for
/// loop-owned state. A step that answers by itself on the way in throws.
protocol Middleware: Sendable {
    /// On the way in.
    func request(_ context: RequestContext) throws
    /// On the way out, with the response the inner steps and the endpoint produced.
    func response(_ context: RequestContext, _ response: inout HTTPResponse)
}

extension Middleware {
    func request(_ context: RequestContext) throws {}
}
