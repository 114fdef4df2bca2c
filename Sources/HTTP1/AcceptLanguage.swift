import ASCIIKit

/// The `Accept-Language` field (RFC 9110 §12.5.4): the client's language ranges and their
/// weights, and the choice among a server's languages by RFC 4647 §3.4 lookup.
public struct AcceptLanguage: Sendable, Equatable {
    /// One range and its weight in thousandths (`q=0.5` is 500; no `q` is 1000).
    public struct Preference: Sendable, Equatable {
        /// A language range, lowercased, or `*`.
        public let range: String
        public let weight: Int
    }

    /// The ranges in the order the field lists them.
    public let preferences: [Preference]

    /// Reads a field value (several field lines joined by commas); nil when any member is not
    /// `range [;q=weight]`, so a garbled field is ignored as a whole rather than half-read.
    public init?(_ field: String) {
        var preferences: [Preference] = []
        for member in field.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = member.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpacesAndTabs() }
            if parts.count == 1 && parts[0].isEmpty { continue } // #rule allows empty list elements
            guard (1...2).contains(parts.count) else { return nil }
            let range = parts[0]
            guard range == "*" || LanguageRange.isWellFormed(range) else { return nil }
            var weight = 1000
            if parts.count == 2 {
                guard let parsed = Self.weight(parts[1]) else { return nil }
                weight = parsed
            }
            preferences.append(Preference(range: range.lowercased(), weight: weight))
        }
        self.preferences = preferences
    }

    /// The first of `available` (lowercase tags, the server's preference first) that the most
    /// preferred range reaches by lookup, trying `es-MX` then `es`; `*` takes the first not
    /// refused with `q=0`. Nil when no range reaches any of them.
    public func lookup(among available: [String]) -> String? {
        lookup(in: LanguageTags(available)).map { available[$0] }
    }

    /// As `lookup(among:)`, among `tags`, whose aliases count as the tags they stand for (a step
    /// of the lookup that names `no` reaches `nb`); the position of the tag chosen.
    public func lookup(in tags: LanguageTags) -> Int? {
        let ordered = preferences.enumerated()
            .sorted { $0.element.weight != $1.element.weight ? $0.element.weight > $1.element.weight : $0.offset < $1.offset }
            .map(\.element)
        let refused = preferences.filter { $0.weight == 0 && $0.range != "*" }.map(\.range)
        let acceptable = { (tag: String) in !refused.contains { tag == $0 || tag.hasPrefix($0 + "-") } }
        for preference in ordered where preference.weight > 0 {
            if preference.range == "*" {
                if let index = tags.ordered.firstIndex(where: acceptable) { return index }
                continue
            }
            for step in LanguageRange.fallbacks(of: preference.range) {
                if let index = tags.position(of: step), acceptable(tags.ordered[index]) { return index }
            }
        }
        return nil
    }

    /// `q=` qvalue (RFC 9110 §12.4.2): `0`, `0.5`, `0.125`, `1`, `1.000`, in thousandths.
    private static func weight(_ parameter: String) -> Int? {
        let bytes = Array(parameter.utf8)
        guard bytes.count >= 3, bytes[0] | 0x20 == UInt8(ascii: "q"), bytes[1] == UInt8(ascii: "=") else { return nil }
        let value = bytes[2...]
        guard let whole = value.first, whole == UInt8(ascii: "0") || whole == UInt8(ascii: "1") else { return nil }
        var fraction = value.dropFirst()
        if !fraction.isEmpty {
            guard fraction.first == UInt8(ascii: "."), fraction.count <= 4 else { return nil }
            fraction = fraction.dropFirst()
        }
        guard fraction.allSatisfy(ASCII.isDigit) else { return nil }
        let digits = Array(fraction) + Array(repeating: UInt8(ascii: "0"), count: 3 - fraction.count)
        let thousandths = Int(whole - UInt8(ascii: "0")) * 1000 + digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return thousandths <= 1000 ? thousandths : nil
    }
}

/// The language tags a server answers with, lowercase, in its order of preference, and the tags
/// that stand for one of them (`no` for `nb`): found by a hash lookup, however many there are.
public struct LanguageTags: Sendable {
    public let ordered: [String]
    private let positions: [String: Int]

    public init(_ ordered: [String], aliases: [String: String] = [:]) {
        self.ordered = ordered
        var positions: [String: Int] = [:]
        for (index, tag) in ordered.enumerated() where positions[tag] == nil { positions[tag] = index }
        for (alias, tag) in aliases where positions[alias] == nil {
            if let index = positions[tag] { positions[alias] = index }
        }
        self.positions = positions
    }

    /// The position of `tag`, or of the tag it stands for.
    public func position(of tag: String) -> Int? { positions[tag] }
}
