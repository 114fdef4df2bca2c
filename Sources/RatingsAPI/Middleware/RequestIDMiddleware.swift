import ASCIIKit
import HTTP1
import Synchronization

/// Gives every request an id and puts it on the response's `X-Request-ID`: the client's own when
/// it sent 1 to 128 visible ASCII characters, otherwise a new one, unique per process (a random
/// 32-bit prefix chosen at start and a counter, both in hexadecimal).
final class RequestIDMiddleware: Middleware {
    private let prefix: String
    private let counter = Atomic<Int>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        // Eight digits and a dash, so the first 16.7 million ids (up to six counter digits) fit
        // the 15 bytes a String keeps inline: a generated id then costs no allocation.
        prefix = ASCII.hex(UInt64(generator.next() as UInt32), width: 8) + "-"
    }

    func request(_ context: RequestContext) {
        context.requestID = id(from: context.request.headers["x-request-id"])
    }

    func response(_ context: RequestContext, _ response: inout HTTPResponse) {
        response.requestID = context.requestID
    }

    /// The client's id when acceptable, otherwise a fresh one.
    func id(from header: String?) -> String {
        if let header, Self.isAcceptable(header) { return header }
        let next = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return ASCII.hex(UInt64(bitPattern: Int64(next)), width: 1, after: prefix)
    }

    static func isAcceptable(_ value: String) -> Bool {
        let bytes = value.utf8
        return (1...128).contains(bytes.count) && bytes.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }
}
