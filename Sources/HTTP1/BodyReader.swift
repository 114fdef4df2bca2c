/// Collects a request body as its bytes arrive.
enum BodyReader: Sendable {
    case length(remaining: Int, body: [UInt8])
    case chunked(ChunkedDecoder)

    enum Outcome {
        case needMore
        case done([UInt8])
        case failure(HTTPParseError)
    }

    /// Consumes what it can of `input`.
    mutating func read(_ input: UnsafeRawBufferPointer, limits: HTTPLimits) -> (outcome: Outcome, consumed: Int) {
        switch self {
        case .length(let remaining, var body):
            let take = min(remaining, input.count)
            if body.isEmpty { body.reserveCapacity(remaining) }
            body.append(contentsOf: input[..<take])
            if take == remaining { return (.done(body), take) }
            self = .length(remaining: remaining - take, body: body)
            return (.needMore, take)
        case .chunked(var decoder):
            let result = decoder.decode(input, limits: limits)
            self = .chunked(decoder)
            return result
        }
    }
}
