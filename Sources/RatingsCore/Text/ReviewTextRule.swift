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
    /// A reply to a review: required, 1 to 5,000 scalar values, as a body.
    public static let reply = ReviewTextRule(field: "body", maxScalars: 5_000, isRequired: true)
    /// A review's title: optional, at most 100 scalar values.
    public static let title = ReviewTextRule(field: "title", maxScalars: 100, isRequired: false)
    /// A flag's optional note.
    public static let flagNote = ReviewTextRule(field: "note", maxScalars: 500, isRequired: false)
    /// A moderator's optional reason for a decision.
    public static let moderationReason = ReviewTextRule(field: "reason", maxScalars: 500, isRequired: false)

    /// `text` cleaned by the rules; nil when it is absent or empty and the field is optional.
    public func clean(_ text: String?) throws(ReviewError) -> String? {
        guard let text else {
            if isRequired { throw .textRequired(field: field) }
            return nil
        }
        if let refused = Self.firstRefusedControl(in: text) {
            throw .controlCharacter(field: field, position: refused.position, scalar: refused.scalar)
        }
        let cleaned = Self.trimmed(Self.unifyingLineEnds(NFC.normalize(text)))
        if cleaned.isEmpty {
            if isRequired { throw .textRequired(field: field) }
            return nil
        }
        let length = Self.scalarCount(cleaned)
        guard length <= maxScalars else { throw .textTooLong(field: field, limit: maxScalars, found: length) }
        return cleaned
    }

    /// C0 (with DEL) and C1 controls, except tab, line feed and carriage return.
    static func isRefusedControl(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
    }

    /// The first refused control character and its position in scalar values from 1. Looked for
    /// in the UTF-8 bytes: a C0 control and DEL are one byte each, a C1 control is 0xC2 and a byte
    /// from 0x80 to 0x9F, and no other scalar's encoding holds either; scalars are counted only
    /// once one is found.
    static func firstRefusedControl(in text: String) -> (position: Int, scalar: UInt32)? {
        var text = text
        let offset: Int? = text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F {
                    if isRefusedControl(UInt32(byte)) { return index }
                } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                    return index
                }
                index += 1
            }
            return nil
        }
        guard let offset else { return nil }
        let prefix = text.utf8.prefix(offset)
        let position = prefix.reduce(1) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        let at = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        return (position, text.unicodeScalars[at].value)
    }

    /// How many Unicode scalar values `text` holds: its UTF-8 bytes that do not continue one.
    static func scalarCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in bytes.reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) } }
    }

    private static func unifyingLineEnds(_ text: String) -> String {
        var text = text
        guard text.withUTF8({ $0.contains(0x0D) }) else { return text }
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
