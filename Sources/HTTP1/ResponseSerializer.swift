import ASCIIKit

/// Writes a response head and body as HTTP/1.1 bytes, appending to a reusable buffer so no
/// per-response buffer is allocated.
public enum ResponseSerializer {
    /// Appends `response` to `buffer`. `includeBody` is false for HEAD; `Content-Length` still
    /// tells the length the GET would have had (RFC 9110 §9.3.2).
    public static func write(_ response: HTTPResponse, date: String, keepAlive: Bool, includeBody: Bool,
                             into buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + 256 + (includeBody ? response.body.count : 0))
        buffer.append(contentsOf: "HTTP/1.1 ".utf8)
        ASCII.appendDecimal(response.status, to: &buffer)
        buffer.append(ByteClass.space)
        ASCII.append(HTTPStatus.reason(response.status), to: &buffer)
        buffer.append(contentsOf: "\r\ndate: ".utf8)
        ASCII.append(date, to: &buffer)
        buffer.append(contentsOf: "\r\n".utf8)
        // By index: iterating the fields as a sequence copies each one, a retain and release per string.
        let fields = response.headers.fields
        for index in fields.indices where !Self.writtenHere(fields[index].name) {
            ASCII.append(fields[index].name, to: &buffer)
            buffer.append(contentsOf: ": ".utf8)
            ASCII.append(fields[index].value, to: &buffer)
            buffer.append(contentsOf: "\r\n".utf8)
        }
        if !response.forbidsBody {
            buffer.append(contentsOf: "content-length: ".utf8)
            ASCII.appendDecimal(response.body.count, to: &buffer)
            buffer.append(contentsOf: "\r\n".utf8)
        }
        buffer.append(contentsOf: keepAlive ? "connection: keep-alive\r\n\r\n".utf8 : "connection: close\r\n\r\n".utf8)
        if includeBody && !response.forbidsBody { buffer.append(contentsOf: response.body) }
    }

    /// The fields the serializer writes itself, so a handler's copy of them is dropped.
    @inline(__always)
    private static func writtenHere(_ name: String) -> Bool {
        // Most names start with neither letter; only those that do are compared in full.
        guard let first = name.utf8.first, first == UInt8(ascii: "c") || first == UInt8(ascii: "d") else { return false }
        return name == "content-length" || name == "connection" || name == "date"
    }

    /// The interim `100 Continue` response.
    public static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
