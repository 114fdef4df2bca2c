import ASCIIKit

/// Writes a response head and body as HTTP/1.1 bytes, appending to a reusable buffer so no
/// per-response buffer is allocated.
public enum ResponseSerializer {
    /// Appends `response` to `buffer`. `includeBody` is false for HEAD; `Content-Length` still
    /// tells the length the GET would have had (RFC 9110 §9.3.2).
    public static func write(_ response: HTTPResponse, date: String, keepAlive: Bool, includeBody: Bool,
                             into buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + 256 + (includeBody ? response.body.count : 0))
        ASCII.appendLiteral("HTTP/1.1 ", to: &buffer)
        ASCII.appendDecimal(response.status, to: &buffer)
        buffer.append(ByteClass.space)
        ASCII.append(HTTPStatus.reason(response.status), to: &buffer)
        ASCII.appendLiteral("\r\ndate: ", to: &buffer)
        ASCII.append(date, to: &buffer)
        ASCII.appendLiteral("\r\n", to: &buffer)
        // By index: iterating the fields as a sequence copies each one, a retain and release per string.
        let fields = response.headers.fields
        for index in fields.indices where !Self.writtenHere(fields[index].name) {
            ASCII.append(fields[index].name, to: &buffer)
            ASCII.appendLiteral(": ", to: &buffer)
            ASCII.append(fields[index].value, to: &buffer)
            ASCII.appendLiteral("\r\n", to: &buffer)
        }
        if !response.forbidsBody {
            ASCII.appendLiteral("content-length: ", to: &buffer)
            ASCII.appendDecimal(response.body.count, to: &buffer)
            ASCII.appendLiteral("\r\n", to: &buffer)
        }
        ASCII.appendLiteral(keepAlive ? "connection: keep-alive\r\n\r\n" : "connection: close\r\n\r\n", to: &buffer)
        if includeBody && !response.forbidsBody { buffer.append(contentsOf: response.body) }
    }

    /// The fields the serializer writes itself, so a handler's copy of them is dropped.
    @inline(__always)
    private static func writtenHere(_ name: String) -> Bool {
        // By length first: most names have none of these lengths, and are not compared at all.
        switch name.utf8.count {
        case 14: return name == "content-length"
        case 10: return name == "connection"
        case 4: return name == "date"
        default: return false
        }
    }

    /// The interim `100 Continue` response.
    public static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
