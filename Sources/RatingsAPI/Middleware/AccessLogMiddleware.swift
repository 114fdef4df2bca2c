import HTTP1
import JSON

/// Writes one access-log line per answered request, in text or JSON, to the loop's log buffer
/// (written out at the end of the loop's turn, so many lines cost one write).
struct AccessLogMiddleware: Middleware {
    let format: LogFormat
    let clock: any APIClock

    func handle(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond,
                next: (RequestContext, @escaping HTTPHandler.Respond) -> Void) {
        next(context) { [self] response in
            let request = context.request
            let bytes = request.method == "HEAD" || response.forbidsBody ? 0 : response.body.count
            let micros = Int((clock.monotonicSeconds() - context.started) * 1_000_000)
            context.environment.loop.appendLogLine(line(
                peer: context.environment.peer, request: (request.method, request.target, request.head.version.rawValue),
                status: response.status, bytes: bytes, micros: micros, requestID: context.requestID))
            respond(response)
        }
    }

    /// Logs a request the server refused before any handler saw it (it could not be read).
    func refused(_ refusal: ProblemDetails, _ environment: RequestEnvironment) {
        environment.loop.appendLogLine(line(peer: environment.peer, request: nil, status: refusal.status,
                                            bytes: refusal.json.utf8.count, micros: 0, requestID: nil))
    }

    private func line(peer: String, request: (method: String, target: String, version: String)?, status: Int, bytes: Int,
                      micros: Int, requestID: String?) -> [UInt8] {
        let time = Timestamp.rfc3339(milliseconds: clock.wallMilliseconds())
        switch format {
        case .text:
            let requestLine = request.map { "\($0.method) \($0.target) \($0.version)" } ?? "-"
            return Array("\(time) \(peer) \"\(requestLine)\" \(status) \(bytes) \(micros)us id=\(requestID ?? "-")".utf8)
        case .json:
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.key("time"); json.string(time)
            json.key("peer"); json.string(peer)
            json.key("method"); if let request { json.string(request.method) } else { json.null() }
            json.key("target"); if let request { json.string(request.target) } else { json.null() }
            json.key("version"); if let request { json.string(request.version) } else { json.null() }
            json.key("status"); json.integer(status)
            json.key("bytes"); json.integer(bytes)
            json.key("durationMicros"); json.integer(micros)
            json.key("requestId"); if let requestID { json.string(requestID) } else { json.null() }
            json.endObject()
            return json.bytes
        }
    }
}
