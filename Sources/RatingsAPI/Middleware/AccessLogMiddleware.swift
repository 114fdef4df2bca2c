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

    /// Appends the time, copied under the lock rather than handed out (a retain and a release).
    private func appendNow(to line: inout ByteBuffer) {
        let milliseconds = clock.wallMilliseconds()
        time.withLock { time in
            if time.milliseconds != milliseconds { time = (milliseconds, Array(Timestamp.rfc3339(milliseconds: milliseconds).utf8)) }
            line.append(time.text)
        }
    }

    func response(_ context: RequestContext, _ response: inout HTTPResponse) {
        // Read through the context rather than copied out of it: a copy of the request retains
        // and releases each of its strings and buffers.
        let bytes = context.request.method == "HEAD" || response.forbidsBody ? 0 : response.body.count
        let micros = Int(context.seconds * 1_000_000)
        let status = response.status
        context.environment.loop.appendLogLine { line in
            write(peer: context.environment.peer,
                  request: (context.request.method, context.request.target, context.request.head.version.rawValue),
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
                       micros: Int, requestID: String?, into line: inout ByteBuffer) {
        switch format {
        case .text:
            appendNow(to: &line)
            line.append(UInt8(ascii: " "))
            line.append(peer)
            line.append(" \"" as StaticString)
            if let request {
                line.append(request.method)
                line.append(UInt8(ascii: " "))
                line.append(request.target)
                line.append(UInt8(ascii: " "))
                line.append(request.version)
            } else {
                line.append(UInt8(ascii: "-"))
            }
            line.append("\" " as StaticString)
            line.appendDecimal(status)
            line.append(UInt8(ascii: " "))
            line.appendDecimal(bytes)
            line.append(UInt8(ascii: " "))
            line.appendDecimal(micros)
            line.append("us id=" as StaticString)
            line.append(requestID ?? "-")
        case .json:
            var now = ByteBuffer()
            appendNow(to: &now)
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.key("time"); json.string(String(decoding: now.bytes, as: UTF8.self))
            json.key("peer"); json.string(peer)
            json.key("method"); if let request { json.string(request.method) } else { json.null() }
            json.key("target"); if let request { json.string(request.target) } else { json.null() }
            json.key("version"); if let request { json.string(request.version) } else { json.null() }
            json.key("status"); json.integer(status)
            json.key("bytes"); json.integer(bytes)
            json.key("durationMicros"); json.integer(micros)
            json.key("requestId"); if let requestID { json.string(requestID) } else { json.null() }
            json.endObject()
            line.append(json.bytes)
        }
    }
}
