public import HTTP1

/// Feeds `chunks` to one parser the way a socket would, keeping unconsumed bytes, and returns
/// every request and the first failure.
public func parseStream(_ chunks: [[UInt8]], limits: HTTPLimits = HTTPLimits()) -> (requests: [HTTPRequest], failure: HTTPParseError?) {
    var parser = HTTPRequestParser(limits: limits)
    var buffer: [UInt8] = []
    var requests: [HTTPRequest] = []
    for chunk in chunks {
        buffer += chunk
        while !buffer.isEmpty {
            let (outcome, consumed) = buffer.withUnsafeBytes { parser.parse($0) }
            buffer.removeFirst(consumed)
            switch outcome {
            case .request(let request): requests.append(request)
            case .failure(let error): return (requests, error)
            case .needMore: break
            }
            if case .needMore = outcome { break }
        }
    }
    return (requests, nil)
}
