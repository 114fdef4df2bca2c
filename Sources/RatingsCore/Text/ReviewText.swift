/// The text rules of a review's body and title (and of a reply and a flag's note): a control
/// character other than tab, line feed and carriage return is refused at its position, counted
/// in Unicode scalar values from 1 in the text as sent; then the text is normalized to NFC, CR LF
/// and lone CR become LF, and leading and trailing white space is removed; what is left is held to
/// the field's length in scalar values (an emoji is one).
public struct ReviewTextRule: Sendable {
    /// The member's name, for the error.
    public let field: String
    /// At most this many scalar values.
    public let maxScalars: Int
    /// Whether empty (after trimming) is refused rather than meaning "none".
    public let isRequired: Bool

    public init(field: String, maxScalars: Int, isRequired: Bool) {
        self.field = field
        self.maxScalars = maxScalars
        self.isRequired = isRequired
    }

    /// A review's body: required, 1 to 5,000 scalar values.
    public static let body = ReviewTextRule(field: "body", maxScalars: 5_000, isRequired: true)
    /// A review's title: optional, at most 100 scalar values.
    public static let title = ReviewTextRule(field: "title", maxScalars: 100, isRequired: false)

    /// `text` cleaned by the rules; nil when it is absent or empty and the field is optional.
    public func clean(_ text: String?) throws(ReviewError) -> String? {
        guard let text else {
            if isRequired { throw .textRequired(field: field) }
            return nil
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() where Self.isRefusedControl(scalar.value) {
            throw .controlCharacter(field: field, position: offset + 1, scalar: scalar.value)
        }
        let cleaned = Self.trimmed(Self.unifyingLineEnds(NFC.normalize(text)))
        if cleaned.isEmpty {
            if isRequired { throw .textRequired(field: field) }
            return nil
        }
        let length = cleaned.unicodeScalars.count
        guard length <= maxScalars else { throw .textTooLong(field: field, limit: maxScalars, found: length) }
        return cleaned
    }

    /// C0 (with DEL) and C1 controls, except tab, line feed and carriage return.
    static func isRefusedControl(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
    }

    private static func unifyingLineEnds(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                afterCR = true
                continue
            }
            if !(afterCR && scalar == "\n") { out.append(scalar) }
            afterCR = false
        }
        return String(out)
    }

    /// Without leading and trailing Unicode white space (`White_Space`).
    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
