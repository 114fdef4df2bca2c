import Dispatch
import HTTP1
import HTTPServer

/// A handler that tells what it received. `/slow` answers from another thread after 500 ms,
/// `/big` answers with 4 MiB, `/etag` carries an ETag, `/close` asks to close.
let echoHandler = HTTPHandler { request, respond in
    switch request.target {
    case "/slow":
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(500)) {
            respond(HTTPResponse(status: 200, body: Array("slow done".utf8)))
        }
    case "/big":
        respond(HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)))
    case "/etag":
        respond(HTTPResponse(status: 200, headers: HTTPHeaders([("etag", "\"v1\"")]), body: Array("tagged".utf8)))
    case "/close":
        respond(HTTPResponse(status: 200, headers: HTTPHeaders([("connection", "close")]), body: Array("bye".utf8)))
    default:
        let text = "\(request.method) \(request.target) body=\(request.body.count) id=\(request.headers["x-request-id"] ?? "")"
        respond(HTTPResponse(status: 200, body: Array(text.utf8)))
    }
}
