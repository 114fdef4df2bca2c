import ASCIIKit
import HTTP1
import JSON
import Locking

/// Writes one access-log line per answered request, in text or JSON, to the loop's log buffer
/// (written out at the end of the loop's turn, so many lines cost one write).
struct AccessLogMiddleware: Middleware {
    let format: LogFormat
    let clock: any APIClock
    /// The time as RFC 3339 text, formatted once per millisecond however many lines share it.
    private let time = Locked<(milliseconds: Int64, text: [UInt8])>((-1, []))

    init(format: LogFormat, clock: any APIClock) {
        self.format = format
        self.clock = clock
    }

    private func now() -> [UInt8] {
        let milliseconds = clock.wallMilliseconds()
        return time.withLock { time in
            if time.milliseconds != milliseconds { time = (milliseconds, Array(Timestamp.rfc3339(milliseconds: milliseconds).utf8)) }
            return time.text
        }
    }

    func response(_ context: RequestContext, _ response: inout HTTPResponse) {
        let request = context.request
        let bytes = request.method == "HEAD" || response.forbidsBody ? 0 : response.body.count
        let micros = Int((clock.monotonicSeconds() - context.started) * 1_000_000)
        let status = response.status
        context.environment.loop.appendLogLine { line in
            write(peer: context.environment.peer, request: (request.method, request.target, request.head.version.rawValue),
                  status: status, bytes: bytes, micros: micros, requestID: context.requestID, into: &line)
        }
    }

    /// Logs a request the server refused before any handler saw it (it could not be read).
    func refused(_ refusal: ProblemDetails, _ environment: RequestEnvironment) {
        environment.loop.appendLogLine { line in
            write(peer: environment.peer, request: nil, status: refusal.status, bytes: refusal.json.utf8.count, micros: 0,
                  requestID: nil, into: &line)
        }
    }

    private func write(peer: String, request: (method: String, target: String, version: String)?, status: Int, bytes: Int,
                       micros: Int, requestID: String?, into line: inout [UInt8]) {
        switch format {
        case .text:
            line += now()
            line.append(UInt8(ascii: " "))
            ASCII.append(peer, to: &line)
            ASCII.appendLiteral(" \"", to: &line)
            if let request {
                ASCII.append(request.method, to: &line)
                line.append(UInt8(ascii: " "))
                ASCII.append(request.target, to: &line)
                line.append(UInt8(ascii: " "))
                ASCII.append(request.version, to: &line)
            } else {
                line.append(UInt8(ascii: "-"))
            }
            ASCII.appendLiteral("\" ", to: &line)
            ASCII.appendDecimal(status, to: &line)
            line.append(UInt8(ascii: " "))
            ASCII.appendDecimal(bytes, to: &line)
            line.append(UInt8(ascii: " "))
            ASCII.appendDecimal(micros, to: &line)
            ASCII.appendLiteral("us id=", to: &line)
            ASCII.append(requestID ?? "-", to: &line)
        case .json:
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.key("time"); json.string(String(decoding: now(), as: UTF8.self))
            json.key("peer"); json.string(peer)
            json.key("method"); if let request { json.string(request.method) } else { json.null() }
            json.key("target"); if let request { json.string(request.target) } else { json.null() }
            json.key("version"); if let request { json.string(request.version) } else { json.null() }
            json.key("status"); json.integer(status)
            json.key("bytes"); json.integer(bytes)
            json.key("durationMicros"); json.integer(micros)
            json.key("requestId"); if let requestID { json.string(requestID) } else { json.null() }
            json.endObject()
            line += json.bytes
        }
    }
}
