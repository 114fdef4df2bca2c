import HTTP1
import HTTPServer
import Locking
import TestSupport

/// Requests to `/slow` that the echo handler has received, so a test can wait for one to be in flight.
let slowRequestsReceived = Locked(0)

/// Requests to `/42k` that the echo handler has answered.
let mediumRequestsAnswered = Locked(0)

/// A handler that tells what it received. `/slow` answers from another thread after 500 ms,
/// `/big` answers with 4 MiB, `/42k` with 42 KiB (as large as `/openapi.yaml`) and the request's `X-N`, `/close` asks to close.
let echoHandler = HTTPHandler { request, environment, respond in
    switch request.target {
    case "/42k":
        mediumRequestsAnswered.withLock { $0 += 1 }
        return .now(HTTPResponse(status: 200, headers: HTTPHeaders([("x-n", request.headers["x-n"] ?? "-")]),
                                 body: [UInt8](repeating: UInt8(ascii: "m"), count: 42 * 1024)))
    case "/slow":
        slowRequestsReceived.withLock { $0 += 1 }
        OwnThread.run(afterMilliseconds: 500) {
            respond(HTTPResponse(status: 200, body: Array("slow done".utf8)))
        }
        return .later
    case "/big":
        return .now(HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)))
    case "/etag":
        return .now(HTTPResponse(status: 200, headers: HTTPHeaders([("etag", "\"v1\"")]), body: Array("tagged".utf8)))
    case "/close":
        return .now(HTTPResponse(status: 200, headers: HTTPHeaders([("connection", "close")]), body: Array("bye".utf8)))
    default:
        let text = "\(request.method) \(request.target) body=\(request.body.count) peer=\(environment.peer)"
        return .now(HTTPResponse(status: 200, body: Array(text.utf8)))
    }
}
