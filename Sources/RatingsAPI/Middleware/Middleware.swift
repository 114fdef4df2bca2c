import HTTP1

/// A step around every request, in the shape of Hummingbird's `MiddlewareProtocol`: it is given
/// the request's context and `next`, the rest of the way in (the inner steps, then the route's
/// endpoint), and returns the reply, which it may pass on, change on the way out or make itself.
/// The API declares its steps once, outermost first (`RatingsAPI.Steps`). Replies continue on
/// the request's loop, so a step's way out needs no lock for loop-owned state.
protocol Middleware: Sendable {
    func handle(_ context: RequestContext, next: (RequestContext) -> Reply) -> Reply
}

extension Middleware {
    /// This step around `inner`: the two as one step, `inner` closer to the endpoint.
    func wrapping<Inner: Middleware>(_ inner: Inner) -> Wrapped<Self, Inner> { Wrapped(outer: self, inner: inner) }
}

/// Two steps as one, `outer` around `inner`. A list of steps is these nested, a type the compiler
/// sees whole, so each step is called directly rather than through an existential.
struct Wrapped<Outer: Middleware, Inner: Middleware>: Middleware {
    let outer: Outer
    let inner: Inner

    func handle(_ context: RequestContext, next: (RequestContext) -> Reply) -> Reply {
        outer.handle(context) { inner.handle($0, next: next) }
    }
}

/// A middleware that acts on the way out only: it sees each response as it leaves, now or once a
/// store has answered. An answer that is ready now passes through `outbound` directly, without a
/// continuation made for it.
protocol OutboundMiddleware: Middleware {
    func outbound(_ response: consuming HTTPResponse, _ context: RequestContext) -> HTTPResponse
}

extension OutboundMiddleware {
    func handle(_ context: RequestContext, next: (RequestContext) -> Reply) -> Reply {
        switch next(context) {
        case .now(let response):
            return .now(outbound(response, context))
        case .later(let pending):
            return .later(Reply.Pending { [self] finish in
                pending.start { result in finish(result.map { self.outbound($0, context) }) }
            })
        }
    }
}
