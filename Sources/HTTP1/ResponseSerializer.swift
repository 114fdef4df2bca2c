/// Writes a response head and body as HTTP/1.1 bytes, appending to a reusable buffer so no
/// per-response buffer is allocated.
public enum ResponseSerializer {
    /// Appends `response` to `buffer`. `includeBody` is false for HEAD; `Content-Length` still
    /// tells the length the GET would have had (RFC 9110 §9.3.2).
    public static func write(_ response: HTTPResponse, date: String, keepAlive: Bool, includeBody: Bool,
                             into buffer: inout [UInt8]) {
        append("HTTP/1.1 ", to: &buffer)
        append(String(response.status), to: &buffer)
        buffer.append(ByteClass.space)
        append(HTTPStatus.reason(response.status), to: &buffer)
        append("\r\ndate: ", to: &buffer)
        append(date, to: &buffer)
        append("\r\n", to: &buffer)
        for field in response.headers where field.name != "content-length" && field.name != "connection" && field.name != "date" {
            append(field.name, to: &buffer)
            append(": ", to: &buffer)
            append(field.value, to: &buffer)
            append("\r\n", to: &buffer)
        }
        if !response.forbidsBody {
            append("content-length: ", to: &buffer)
            append(String(response.body.count), to: &buffer)
            append("\r\n", to: &buffer)
        }
        append(keepAlive ? "connection: keep-alive\r\n\r\n" : "connection: close\r\n\r\n", to: &buffer)
        if includeBody && !response.forbidsBody { buffer.append(contentsOf: response.body) }
    }

    /// The interim `100 Continue` response.
    public static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    @inline(__always)
    private static func append(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }
}
