import ASCIIKit

/// A review's language: a BCP 47 tag (RFC 5646) as the review rules accept it, letters, digits
/// and hyphens, subtags of 1 to 8 characters, a primary subtag of 2 or 3 letters, at most 64
/// characters in all (RFC 5646 §4.4.1 asks for 35 at least), kept in the
/// RFC's canonical case: the primary language lowercase (`pt`), a four-letter script title case
/// (`Hant`), a two-letter region uppercase (`BR`), everything else lowercase, and every subtag
/// after a singleton (`x-`, `u-`) lowercase.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag in canonical case.
    public let description: String

    /// Rebuilds a tag that was checked before it was stored.
    public init(stored canonical: String) { description = canonical }

    /// Checks `text` and writes it in canonical case.
    public init(_ text: String) throws(ReviewError) {
        guard text.utf8.count <= 64 else { throw .invalidLanguageTag(given: text, problem: "it is longer than 64 characters") }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...3).contains(primary.utf8.count), primary.utf8.allSatisfy(ASCII.isLetter) else {
            throw .invalidLanguageTag(given: text, problem: "its first subtag must be a language of 2 or 3 letters (en, pt, zh)")
        }
        var canonical: [String] = []
        var afterSingleton = false
        for (index, subtag) in subtags.enumerated() {
            let bytes = subtag.utf8
            guard (1...8).contains(bytes.count), bytes.allSatisfy({ ASCII.isLetter($0) || ASCII.isDigit($0) }) else {
                throw .invalidLanguageTag(given: text, problem: "each subtag must be 1 to 8 letters or digits, separated by hyphens")
            }
            let lower = subtag.lowercased()
            if index == 0 || afterSingleton {
                canonical.append(lower)
            } else if bytes.count == 1 {
                afterSingleton = true
                canonical.append(lower)
            } else if bytes.count == 2 && bytes.allSatisfy(ASCII.isLetter) {
                canonical.append(subtag.uppercased())
            } else if bytes.count == 4 && bytes.allSatisfy(ASCII.isLetter) {
                canonical.append(lower.prefix(1).uppercased() + lower.dropFirst())
            } else {
                canonical.append(lower)
            }
        }
        description = canonical.joined(separator: "-")
    }

    /// Whether this tag is `prefix` or starts with it and a hyphen, case-insensitively (`en`
    /// matches `en-GB`, not `eng`).
    public func matches(prefix: String) -> Bool {
        let tag = description.lowercased(), prefix = prefix.lowercased()
        return tag == prefix || tag.hasPrefix(prefix + "-")
    }
}
