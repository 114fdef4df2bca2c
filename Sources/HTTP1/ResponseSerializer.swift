public import ASCIIKit

/// Writes a response head and body as HTTP/1.1 bytes, appending to a reusable buffer so no
/// per-response buffer is allocated, each piece one `memcpy` (see `ByteBuffer`).
public enum ResponseSerializer {
    /// Appends `response` to `buffer`. `includeBody` is false for HEAD; `Content-Length` still
    /// tells the length the GET would have had (RFC 9110 §9.3.2).
    public static func write(_ response: HTTPResponse, date: String, keepAlive: Bool, includeBody: Bool,
                             into buffer: inout ByteBuffer) {
        buffer.append("HTTP/1.1 " as StaticString)
        buffer.appendDecimal(response.status)
        buffer.append(ByteClass.space)
        buffer.append(HTTPStatus.reason(response.status))
        buffer.append("\r\ndate: " as StaticString)
        buffer.append(date)
        buffer.append("\r\n" as StaticString)
        response.headers.forEachField { name, value in
            guard !Self.writtenHere(name) else { return }
            // `name: value` CRLF in one piece: four appends cost four capacity checks and calls.
            buffer.append(count: name.count + value.count + 4) { start in
                // Safe: `start` has room for exactly these name.count + 2 + value.count + 2 bytes.
                if let base = name.baseAddress { ByteBuffer.copy(name.count, from: base, to: start) }
                start.storeBytes(of: Self.colonSpace, toByteOffset: name.count, as: UInt16.self)
                if let base = value.baseAddress { ByteBuffer.copy(value.count, from: base, to: start + name.count + 2) }
                start.storeBytes(of: Self.crlf, toByteOffset: name.count + 2 + value.count, as: UInt16.self)
            }
        }
        if let field = response.lastField {
            buffer.append(field.name)
            buffer.append(": " as StaticString)
            buffer.append(field.value)
            buffer.append("\r\n" as StaticString)
        }
        if !response.forbidsBody {
            buffer.append("content-length: " as StaticString)
            buffer.appendDecimal(response.body.count)
            buffer.append("\r\n" as StaticString)
        }
        buffer.append(keepAlive ? "connection: keep-alive\r\n\r\n" as StaticString : "connection: close\r\n\r\n")
        if includeBody && !response.forbidsBody { buffer.append(response.body) }
    }

    /// `": "` and CRLF, each as a two-byte word whose bytes lie in that order in memory, so one
    /// store writes both.
    private static var colonSpace: UInt16 { UInt16(littleEndian: 0x203A) }
    private static var crlf: UInt16 { UInt16(littleEndian: 0x0A0D) }

    /// The fields the serializer writes itself, so a handler's copy of them is dropped.
    @inline(__always)
    private static func writtenHere(_ name: UnsafeRawBufferPointer) -> Bool {
        name.hasSameBytes(as: "content-length") || name.hasSameBytes(as: "connection") || name.hasSameBytes(as: "date")
    }

    /// The interim `100 Continue` response.
    public static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
