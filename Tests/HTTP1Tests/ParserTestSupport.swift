@testable import HTTP1

/// `text` with `\n` written as CRLF, so tests read like the wire.
func crlf(_ text: String) -> [UInt8] {
    text.utf8.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
}

/// Every way of cutting `bytes` in two.
func everySplit(_ bytes: [UInt8]) -> [[[UInt8]]] {
    (0...bytes.count).map { [Array(bytes[..<$0]), Array(bytes[$0...])] }
}
