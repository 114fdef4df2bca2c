/// An `application/problem+json` body (RFC 9457): the one shape every error response takes.
public struct ProblemDetails: Sendable, Equatable {
    public var status: Int
    /// A URI naming the kind of problem.
    public var type: String
    /// A short, fixed summary of the kind of problem.
    public var title: String
    /// What the caller should change.
    public var detail: String

    public init(status: Int, type: String? = nil, title: String? = nil, detail: String) {
        self.status = status
        self.type = type ?? "about:blank"
        self.title = title ?? HTTPStatus.reason(status)
        self.detail = detail
    }

    /// The JSON body.
    public var json: String {
        "{\"type\":\(JSONText.quoted(type)),\"title\":\(JSONText.quoted(title)),\"status\":\(status),\"detail\":\(JSONText.quoted(detail))}"
    }

    /// A complete response carrying this problem.
    public var response: HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "application/problem+json")]), body: Array(json.utf8))
    }
}

/// JSON string escaping (RFC 8259 §7), shared by everything that writes JSON by hand.
public enum JSONText {
    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string. Bytes that need no escape, which is nearly all of
    /// them, are copied as they are.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
