import ASCIIKit
import HTTP1
import JSON
import Locking

/// Writes one access-log line per answered request, in text or JSON, to the loop's log buffer
/// (written out at the end of the loop's turn, so many lines cost one write). Outermost, so it
/// logs the answer as it leaves, a `304` included.
final class AccessLogMiddleware: OutboundMiddleware {
    let format: LogFormat
    let clock: any APIClock
    /// The time as RFC 3339 text, formatted once per millisecond however many lines share it.
    private let time = Locked<(milliseconds: Int64, text: [UInt8])>((-1, []))

    init(format: LogFormat, clock: any APIClock) {
        self.format = format
        self.clock = clock
    }

    /// Appends the time, copied under the lock rather than handed out.
    private func appendNow(to line: inout ByteBuffer) {
        let milliseconds = clock.wallMilliseconds()
        time.withLock { time in
            if time.milliseconds != milliseconds { time = Self.timeText(milliseconds) }
            line.append(time.text)
        }
    }

    /// `milliseconds` as RFC 3339 text. Kept out of line, under this name, because it runs once
    /// per millisecond rather than per request (`scripts/count-instructions.sh` looks for it).
    @inline(never)
    private static func timeText(_ milliseconds: Int64) -> (milliseconds: Int64, text: [UInt8]) {
        var text: [UInt8] = []
        Timestamp.withRFC3339(milliseconds: milliseconds) { text = Array($0) }
        return (milliseconds, text)
    }

    func outbound(_ response: consuming HTTPResponse, _ context: RequestContext) -> HTTPResponse {
        let bytes = context.request.method == "HEAD" || response.forbidsBody ? 0 : response.body.count
        let micros = Int(context.elapsedSeconds() * 1_000_000)
        let status = response.status
        context.environment.loop.appendLogLine { line in
            write(peer: context.environment.peer, context, status: status, bytes: bytes, micros: micros, into: &line)
        }
        return response
    }

    /// Logs a request the server refused before any handler saw it (it could not be read), with
    /// the id its answer carries.
    func refused(_ refusal: ProblemDetails, requestID: String?, _ environment: RequestEnvironment) {
        environment.loop.appendLogLine { line in
            write(peer: environment.peer, nil, refusedID: requestID, status: refusal.status, bytes: refusal.json.utf8.count, micros: 0,
                  into: &line)
        }
    }

    /// Appends `text` for a double-quoted field of the text format, with `"` and `\` written as
    /// `\"` and `\\` (as Apache's log does), so that the field ends only at its closing quote. The
    /// parser lets no control character into a request target, the only field that needs this.
    static func appendEscapingQuotes(_ text: String, to line: inout ByteBuffer) {
        text.withUTF8Bytes { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var runStart = 0
            while let index = ByteWord.firstIndex(in: bytes, from: runStart, suspect: Self.mayNeedEscape, where: Self.needsEscape) {
                line.append(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
                line.append(UInt8(ascii: "\\"))
                line.append(bytes[index])
                runStart = index + 1
            }
            line.append(UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }

    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        ByteWord.flags(equalTo: UInt8(ascii: "\""), in: word) | ByteWord.flags(equalTo: UInt8(ascii: "\\"), in: word) != 0
    }

    /// One line for the request of `context` (nil: one no handler saw). The request's parts are
    /// read through the context where they are written, never gathered into a copy first.
    private func write(peer: String, _ context: RequestContext?, refusedID: String? = nil, status: Int, bytes: Int, micros: Int,
                       into line: inout ByteBuffer) {
        switch format {
        case .text:
            appendNow(to: &line)
            line.append(UInt8(ascii: " "))
            line.append(peer)
            line.append(" \"" as StaticString)
            // `switch`, not `if let`: the context is read in place, never bound to a copy.
            switch context {
            case .some(let context):
                line.append(context.request.method)
                line.append(UInt8(ascii: " "))
                Self.appendEscapingQuotes(context.request.target, to: &line)
                line.append(UInt8(ascii: " "))
                line.append(context.request.head.version.rawValue)
            case .none:
                line.append(UInt8(ascii: "-"))
            }
            line.append("\" " as StaticString)
            line.appendDecimal(status)
            line.append(UInt8(ascii: " "))
            line.appendDecimal(bytes)
            line.append(UInt8(ascii: " "))
            line.appendDecimal(micros)
            line.append("us id=" as StaticString)
            switch context {
            case .some(let context): line.append(context.requestID)
            case .none: line.append(refusedID ?? "-")
            }
        case .json:
            var now = ByteBuffer()
            appendNow(to: &now)
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.key("time"); json.string(String(decoding: now.bytes, as: UTF8.self))
            json.key("peer"); json.string(peer)
            json.key("method"); if let context { json.string(context.request.method) } else { json.null() }
            json.key("target"); if let context { json.string(context.request.target) } else { json.null() }
            json.key("version"); if let context { json.string(context.request.head.version.rawValue) } else { json.null() }
            json.key("status"); json.integer(status)
            json.key("bytes"); json.integer(bytes)
            json.key("durationMicros"); json.integer(micros)
            json.key("requestId")
            if let id = context?.requestID ?? refusedID { json.string(id) } else { json.null() }
            json.endObject()
            line.append(json.bytes)
        }
    }
}
