/// Reads requests from a byte stream, incrementally, in the manner of picohttpparser: give it
/// the unconsumed bytes, it says how many it consumed and whether a request is complete, more
/// bytes are needed, or the stream is broken. Strict per RFC 9112: anything ambiguous about
/// message framing is refused rather than guessed.
public struct HTTPRequestParser: Sendable {
    /// What one call found.
    public enum Outcome: Sendable, Equatable {
        /// A whole request; its bytes are included in `consumed`.
        case request(HTTPRequest)
        /// Not enough bytes yet; call again when more arrive.
        case needMore
        /// The stream is broken; answer with the error's status and close.
        case failure(HTTPParseError)
    }

    private enum State: Sendable {
        case head
        case body(HTTPRequestHead, BodyReader)
    }

    public let limits: HTTPLimits
    private var state = State.head
    /// How far the unconsumed input was already searched for the end of the head.
    private var scanned = 0

    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// The head of the request whose body is being read, if any (for `100 Continue`).
    public var pendingHead: HTTPRequestHead? {
        if case .body(let head, _) = state { return head }
        return nil
    }

    /// Parses from the start of `input`, which must begin with the first byte not yet consumed.
    public mutating func parse(_ input: UnsafeRawBufferPointer) -> (outcome: Outcome, consumed: Int) {
        var consumed = 0
        if case .head = state {
            switch readHead(input) {
            case .needMore(let skipped):
                return (.needMore, skipped)
            case .failure(let error):
                return (.failure(error), 0)
            case .head(let head, let length, let body):
                consumed = length
                scanned = 0
                guard let body else { return (.request(HTTPRequest(head: head)), consumed) }
                state = .body(head, body)
            }
        }
        guard case .body(let head, var reader) = state else { return (.needMore, consumed) }
        let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
        let step = reader.read(rest, limits: limits)
        consumed += step.consumed
        switch step.outcome {
        case .needMore:
            state = .body(head, reader)
            return (.needMore, consumed)
        case .failure(let error):
            state = .head
            return (.failure(error), consumed)
        case .done(let body):
            state = .head
            return (.request(HTTPRequest(head: head, body: body)), consumed)
        }
    }

    private enum HeadStep {
        case needMore(skipped: Int)
        case failure(HTTPParseError)
        case head(HTTPRequestHead, length: Int, body: BodyReader?)
    }

    /// Finds the end of the head (an empty line), checking line endings and limits as it scans.
    /// Leading empty lines are consumed at once (RFC 9112 §2.2), so `scanned` always counts from
    /// the request line's first byte.
    private mutating func readHead(_ input: UnsafeRawBufferPointer) -> HeadStep {
        var start = 0
        while input.count - start >= 2, input[start] == ByteClass.cr, input[start + 1] == ByteClass.lf { start += 2 }
        let bytes = UnsafeRawBufferPointer(rebasing: input[start...])
        if start > 0 { scanned = 0 }
        if bytes.isEmpty || (bytes.count == 1 && bytes[0] == ByteClass.cr) { return .needMore(skipped: start) }
        // Resume one byte early so a CR that ended the last read is checked against what follows.
        var index = max(scanned - 1, 0)
        var requestLineEnd = -1
        if index > 0, let firstLF = bytes[..<index].firstIndex(of: ByteClass.lf) { requestLineEnd = firstLF - 1 }
        var lineStart = Self.lineStart(before: index, in: bytes)
        while index < bytes.count {
            // Straight to the next LF when no byte before it can break a limit: there only a bare
            // CR can be wrong, and memchr finds both.
            let nextLF = ByteClass.index(of: ByteClass.lf, in: bytes, from: index, to: bytes.count) ?? bytes.count
            let firstOverLimit = requestLineEnd < 0 ? limits.maxRequestLineBytes + 1 : requestLineEnd + limits.maxHeaderBytes + 4
            if nextLF < firstOverLimit {
                // A CR is bare unless an LF follows it, which only the byte before nextLF can have.
                if ByteClass.index(of: ByteClass.cr, in: bytes, from: index, to: nextLF - 1) != nil { return .failure(.bareCarriageReturn) }
                index = nextLF
                if index == bytes.count { break }
            }
            let byte = bytes[index]
            if byte == ByteClass.lf {
                guard index > 0, bytes[index - 1] == ByteClass.cr else { return .failure(.bareLineFeed) }
                if requestLineEnd < 0 {
                    requestLineEnd = index - 1
                } else if index - 1 == lineStart {
                    scanned = 0
                    return finishHead(UnsafeRawBufferPointer(rebasing: bytes[...index]), requestLineEnd: requestLineEnd,
                                      consumed: start + index + 1)
                }
                lineStart = index + 1
            } else if byte == ByteClass.cr, index + 1 < bytes.count, bytes[index + 1] != ByteClass.lf {
                return .failure(.bareCarriageReturn)
            }
            index += 1
            if requestLineEnd < 0 {
                if index > limits.maxRequestLineBytes + 1 { return .failure(.requestLineTooLong) }
            } else if index - requestLineEnd - 2 > limits.maxHeaderBytes + 2 {
                return .failure(.headersTooLarge)
            }
        }
        scanned = bytes.count
        return .needMore(skipped: start)
    }

    private static func lineStart(before index: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        var i = index
        while i > 0 && bytes[i - 1] != ByteClass.lf { i -= 1 }
        return i
    }

    /// Parses a complete head (request line, fields, final empty line) and decides the body framing.
    private func finishHead(_ bytes: UnsafeRawBufferPointer, requestLineEnd: Int, consumed: Int) -> HeadStep {
        if requestLineEnd > limits.maxRequestLineBytes { return .failure(.requestLineTooLong) }
        do throws(HTTPParseError) {
            let (method, target, version, authority) = try RequestLine.parse(UnsafeRawBufferPointer(rebasing: bytes[..<requestLineEnd]))
            var headers = try FieldSection.parse(UnsafeRawBufferPointer(rebasing: bytes[(requestLineEnd + 2)...]), limits: limits)
            // An absolute-form target's authority replaces any Host field (RFC 9112 §3.2.2).
            if let authority { headers.set("host", authority) }
            let head = HTTPRequestHead(method: method, target: target, version: version, headers: headers)
            try HostRule.check(head)
            let body = try MessageFraming.bodyReader(for: head, limits: limits)
            return .head(head, length: consumed, body: body)
        } catch {
            return .failure(error)
        }
    }
}
