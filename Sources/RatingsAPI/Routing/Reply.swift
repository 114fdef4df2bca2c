import HTTP1
import RatingsCore

/// What an endpoint (and every middleware around it) answers a request with: a response now, or
/// a store call with the function that renders its result. An endpoint answers only by
/// returning one, and the API runs a `later` reply's store call once, with the only completion
/// there is, so every request gets exactly one answer by type rather than by care.
enum Reply: Sendable {
    case now(HTTPResponse)
    case later(Pending)

    /// A store call and what becomes of its result; `start` is called once, and calls `finish`
    /// once, on the request's loop.
    struct Pending: Sendable {
        let start: @Sendable (_ finish: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) -> Void
    }

    /// Calls the store through `call`; its result comes back to `loop` (one hop, whichever thread
    /// the store answered on, and never before the request's handler has returned), where `render`
    /// makes its value a response and the middleware see it on its way out. An error of either
    /// becomes the request's problem response.
    static func store<Value: Sendable>(on loop: any RequestLoop,
                                       _ call: @escaping @Sendable (_ completion: @escaping StoreCompletion<Value>) -> Void,
                                       render: @escaping @Sendable (Value) throws -> HTTPResponse) -> Reply {
        .later(Pending { finish in
            call { result in loop.execute { finish(Result { try render(result.get()) }) } }
        })
    }
}
