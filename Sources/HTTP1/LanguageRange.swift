import ASCIIKit

/// A language range as `Accept-Language` writes it, `1*8ALPHA *("-" 1*8alphanum)`
/// (RFC 4647 §2.1), and how RFC 4647 §3.4 lookup shortens it (`es-MX` → `es`).
public enum LanguageRange {
    /// Longest range accepted; RFC 5646 §4.4.1 asks implementations to handle at least 35.
    public static let maxLength = 64

    /// Whether `text` is a well-formed range other than `*`.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        guard !text.isEmpty, text.utf8.count <= maxLength else { return false }
        var first = true
        for subtag in text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false) {
            guard (1...8).contains(subtag.count),
                  subtag.allSatisfy({ ASCII.isLetter($0) || (!first && ASCII.isDigit($0)) }) else { return false }
            first = false
        }
        return true
    }

    /// `range`, then each shorter form lookup tries: the last subtag dropped each time, and a
    /// single-letter subtag (`x`, `u`) dropped with what follows it. Lowercased.
    public static func fallbacks(of range: String) -> [String] {
        var current = range.lowercased()[...], result = [String(current)]
        while let dash = current.lastIndex(of: "-") {
            current = current[..<dash]
            if let previous = current.lastIndex(of: "-"), current.distance(from: previous, to: current.endIndex) == 2 {
                current = current[..<previous]
            }
            result.append(String(current))
        }
        return result
    }
}
