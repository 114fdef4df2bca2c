/// Why a request could not be read. Each case knows its status; after any of them the server
/// answers once with `Connection: close` and closes, since the framing can no longer be trusted.
public enum HTTPParseError: Error, Sendable, Equatable {
    case malformedRequestLine
    case invalidMethod
    case invalidTarget
    case unsupportedVersion(String)
    case requestLineTooLong
    case headersTooLarge
    case tooManyHeaders
    case invalidFieldName
    case whitespaceBeforeColon
    case obsoleteLineFolding
    case invalidFieldValue(name: String)
    case bareCarriageReturn
    case bareLineFeed
    case missingHost
    case repeatedHost
    case invalidHost
    case contentLengthWithTransferEncoding
    case invalidContentLength
    case unsupportedTransferCoding(String)
    case chunkedNotFinal
    case transferEncodingInHTTP10
    case invalidChunk(String)
    case bodyTooLarge(limit: Int)

    /// The response status for this error.
    public var status: Int {
        switch self {
        case .requestLineTooLong: return 414
        case .headersTooLarge, .tooManyHeaders: return 431
        case .bodyTooLarge: return 413
        case .unsupportedTransferCoding: return 501
        case .unsupportedVersion: return 505
        default: return 400
        }
    }

    /// What the client should change, for the problem `detail`.
    public var detail: String {
        switch self {
        case .malformedRequestLine: return "The request line must be 'METHOD SP request-target SP HTTP/1.1' followed by CRLF."
        case .invalidMethod: return "The method must be a token (RFC 9110 §9.1)."
        case .invalidTarget: return "The request target must be a path ('/…') or an absolute URI ('http://host/…') of visible ASCII characters."
        case .unsupportedVersion(let version): return "HTTP version '\(version)' is not supported; use HTTP/1.1 or HTTP/1.0."
        case .requestLineTooLong: return "The request line is longer than the server accepts; shorten the URL."
        case .headersTooLarge: return "The header section is larger than the server accepts; send fewer or smaller headers."
        case .tooManyHeaders: return "The request has more header fields than the server accepts; send fewer headers."
        case .invalidFieldName: return "A header field name contains a character that is not allowed in a token."
        case .whitespaceBeforeColon: return "A header field name is followed by whitespace before the colon (RFC 9112 §5.1)."
        case .obsoleteLineFolding: return "A header field is folded across lines (obs-fold, RFC 9112 §5.2); send it on one line."
        case .invalidFieldValue(let name): return "The value of header field '\(name)' contains a control character."
        case .bareCarriageReturn: return "The request contains a CR that is not followed by LF."
        case .bareLineFeed: return "A line ends with LF alone; end every line with CRLF."
        case .missingHost: return "An HTTP/1.1 request must carry exactly one Host header."
        case .repeatedHost: return "The Host header appears more than once; send it once."
        case .invalidHost: return "The Host header is not a valid host[:port]."
        case .contentLengthWithTransferEncoding: return "Send either Content-Length or Transfer-Encoding, not both."
        case .invalidContentLength: return "Content-Length must be one decimal number (repeated values must agree)."
        case .unsupportedTransferCoding(let coding): return "Transfer coding '\(coding)' is not supported; send the body with Content-Length or Transfer-Encoding: chunked."
        case .chunkedNotFinal: return "When Transfer-Encoding is used, chunked must be the final coding."
        case .transferEncodingInHTTP10: return "HTTP/1.0 requests cannot use Transfer-Encoding; send Content-Length."
        case .invalidChunk(let reason): return "The chunked body is malformed: \(reason)."
        case .bodyTooLarge(let limit): return "The request body is larger than \(limit) bytes; send a smaller body."
        }
    }
}
