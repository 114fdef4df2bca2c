import ASCIIKit

/// Decodes `Transfer-Encoding: chunked` (RFC 9112 §7.1) byte by byte, so a body may be split
/// anywhere. Extensions are skipped, trailers are checked like header fields and dropped.
struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(value: Int, digits: Int)
        case extensionBytes
        case sizeLineFeed
        case data(remaining: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailerLine(lineFeedExpected: Bool)
    }

    private var state = State.size(value: 0, digits: 0)
    private var body: [UInt8] = []
    private var lastChunk = false
    private var lineBytes = 0
    private var pendingSize = 0
    private var trailerBytes = 0
    private var trailer: [UInt8] = []

    mutating func decode(_ input: UnsafeRawBufferPointer, limits: HTTPLimits) -> (outcome: BodyReader.Outcome, consumed: Int) {
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch state {
            case .size(let value, let digits):
                if let digit = ASCII.hexValue(byte) {
                    // More digits than a 64 KiB body needs means the chunk is too large.
                    if digits >= 8 { return (.failure(.bodyTooLarge(limit: limits.maxBodyBytes)), index) }
                    state = .size(value: value * 16 + digit, digits: digits + 1)
                } else if digits == 0 {
                    return (.failure(.invalidChunk("a chunk must start with its size in hexadecimal")), index)
                } else if byte == UInt8(ascii: ";") || byte == ByteClass.space || byte == ByteClass.tab {
                    if let error = beginLine(value: value, limits: limits) { return (.failure(error), index) }
                    state = .extensionBytes
                } else if byte == ByteClass.cr {
                    if let error = beginLine(value: value, limits: limits) { return (.failure(error), index) }
                    state = .sizeLineFeed
                } else {
                    return (.failure(.invalidChunk("unexpected character after the chunk size")), index)
                }
            case .extensionBytes:
                lineBytes += 1
                if lineBytes > limits.maxChunkLineBytes { return (.failure(.invalidChunk("chunk extension too long")), index) }
                if byte == ByteClass.cr {
                    state = .sizeLineFeed
                } else if !ByteClass.isFieldValue(byte) {
                    return (.failure(.invalidChunk("control character in a chunk extension")), index)
                }
            case .sizeLineFeed:
                guard byte == ByteClass.lf else { return (.failure(.bareCarriageReturn), index) }
                state = lastChunk ? .trailerLine(lineFeedExpected: false) : .data(remaining: pendingSize)
            case .data(let remaining):
                let take = min(remaining, input.count - index)
                body.append(contentsOf: input[index..<(index + take)])
                index += take
                state = take == remaining ? .dataCarriageReturn : .data(remaining: remaining - take)
                continue
            case .dataCarriageReturn:
                guard byte == ByteClass.cr else { return (.failure(.invalidChunk("chunk data must end with CRLF")), index) }
                state = .dataLineFeed
            case .dataLineFeed:
                guard byte == ByteClass.lf else { return (.failure(.bareCarriageReturn), index) }
                state = .size(value: 0, digits: 0)
            case .trailerLine(let lineFeedExpected):
                if lineFeedExpected {
                    guard byte == ByteClass.lf else { return (.failure(.bareCarriageReturn), index) }
                    if trailer.isEmpty { return (.done(body), index + 1) }
                    let line = trailer
                    trailer = []
                    // Trailer fields are checked, then dropped: nothing here reads them.
                    let parsed: Result<Void, HTTPParseError> = line.withUnsafeBytes { bytes in
                        Result { () throws(HTTPParseError) in _ = try FieldSection.parseLine(bytes) }
                    }
                    if case .failure(let error) = parsed { return (.failure(error), index) }
                    state = .trailerLine(lineFeedExpected: false)
                } else if byte == ByteClass.cr {
                    state = .trailerLine(lineFeedExpected: true)
                } else if byte == ByteClass.lf {
                    return (.failure(.bareLineFeed), index)
                } else {
                    trailerBytes += 1
                    if trailerBytes > limits.maxHeaderBytes { return (.failure(.headersTooLarge), index) }
                    trailer.append(byte)
                }
            }
            index += 1
        }
        return (.needMore, index)
    }

    /// Called when a chunk-size ends: checks the body limit and remembers what comes next.
    private mutating func beginLine(value: Int, limits: HTTPLimits) -> HTTPParseError? {
        if body.count + value > limits.maxBodyBytes { return .bodyTooLarge(limit: limits.maxBodyBytes) }
        lineBytes = 0
        lastChunk = value == 0
        pendingSize = value
        return nil
    }
}
