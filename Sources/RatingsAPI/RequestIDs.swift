import ASCIIKit
import HTTP1
import Synchronization

/// Decides every request's id, before anything else sees the request: the client's own
/// `X-Request-ID` when it sent 1 to 128 visible ASCII characters, otherwise a new one, unique per
/// process (a random 32-bit prefix chosen at start and a counter, both in hexadecimal). Every
/// answer carries it, and every log line about the request names it.
final class RequestIDs: Sendable {
    private let prefix: String
    private let counter = Atomic<Int>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        // Eight digits and a dash, so the first 16.7 million ids (up to six counter digits) fit
        // the 15 bytes a String keeps inline.
        prefix = ASCII.hex(UInt64(generator.next() as UInt32), width: 8) + "-"
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

extension HTTPResponse {
    /// The `X-Request-ID` this answer carries: the response's last field, written after the
    /// others so a shared cached response is answered without copying its fields.
    var requestID: String? {
        get { lastField.flatMap { $0.name == "x-request-id" ? $0.value : nil } }
        set { lastField = newValue.map { HTTPField(name: "x-request-id", value: $0) } }
    }
}
