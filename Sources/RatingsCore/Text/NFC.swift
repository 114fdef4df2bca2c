/// Unicode Normalization Form C (UAX #15): canonical decomposition, canonical ordering, then
/// canonical composition, from `UnicodeTables` (generated from the Unicode data) and the Hangul
/// syllable arithmetic. Text whose scalars all lie below U+0300 is already NFC and is returned as
/// it is.
public enum NFC {
    /// `text` in NFC.
    public static func normalize(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return text }
        var result = String.UnicodeScalarView()
        for value in compose(reordered(decomposed(text.unicodeScalars))) {
            // Every value comes from a scalar or the tables, so it is a valid scalar.
            if let scalar = Unicode.Scalar(value) { result.append(scalar) }
        }
        return String(result)
    }

    // MARK: Decomposition and ordering

    private static func decomposed(_ scalars: String.UnicodeScalarView) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(scalars.count)
        for scalar in scalars {
            let value = scalar.value
            if Hangul.isSyllable(value) {
                Hangul.decompose(value, into: &out)
            } else if let index = search(UnicodeTables.decomposedScalars, value) {
                let start = Int(UnicodeTables.decompositionOffsets[index])
                let end = Int(UnicodeTables.decompositionOffsets[index + 1])
                out.append(contentsOf: UnicodeTables.decompositionScalars[start..<end])
            } else {
                out.append(value)
            }
        }
        return out
    }

    /// Each run of non-starters sorted by combining class, stably (insertion sort: runs are short).
    private static func reordered(_ values: [UInt32]) -> [UInt32] {
        var values = values
        var index = 1
        while index < values.count {
            let current = values[index], currentClass = combiningClass(current)
            var place = index
            if currentClass != 0 {
                while place > 0, case let previousClass = combiningClass(values[place - 1]), previousClass > currentClass {
                    values[place] = values[place - 1]
                    place -= 1
                }
                values[place] = current
            }
            index += 1
        }
        return values
    }

    // MARK: Composition

    /// Each scalar joined to the last starter before it when nothing between blocks it (a scalar
    /// of combining class 0, or of a class not lower than its own) and the pair composes.
    private static func compose(_ values: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(values.count)
        var starter: Int?
        // The class of the last scalar kept after the starter; nil when none was.
        var lastClass: UInt8?
        for value in values {
            let valueClass = combiningClass(value)
            let unblocked = lastClass.map { $0 != 0 && $0 < valueClass } ?? true
            if let starter, unblocked, let composite = composite(out[starter], value) {
                out[starter] = composite
                continue
            }
            if valueClass == 0 {
                starter = out.count
                lastClass = nil
            } else {
                lastClass = valueClass
            }
            out.append(value)
        }
        return out
    }

    private static func composite(_ first: UInt32, _ second: UInt32) -> UInt32? {
        if let syllable = Hangul.compose(first, second) { return syllable }
        return search(UnicodeTables.compositionPairs, UInt64(first) << 21 | UInt64(second)).map { UnicodeTables.composites[$0] }
    }

    // MARK: Lookups

    static func combiningClass(_ value: UInt32) -> UInt8 {
        value < 0x300 ? 0 : search(UnicodeTables.combiningScalars, value).map { UnicodeTables.combiningClasses[$0] } ?? 0
    }

    /// The index of `key` in the sorted `keys`, by binary search.
    private static func search<Key: Comparable>(_ keys: [Key], _ key: Key) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }
}

/// The Hangul syllables' decomposition and composition, by arithmetic (Unicode §3.12).
private enum Hangul {
    static let syllableBase: UInt32 = 0xAC00, leadingBase: UInt32 = 0x1100, vowelBase: UInt32 = 0x1161
    static let trailingBase: UInt32 = 0x11A7
    static let leadingCount: UInt32 = 19, vowelCount: UInt32 = 21, trailingCount: UInt32 = 28
    static let syllablesPerLeading = vowelCount * trailingCount
    static let syllableCount = leadingCount * syllablesPerLeading

    static func isSyllable(_ value: UInt32) -> Bool { value >= syllableBase && value < syllableBase + syllableCount }

    static func decompose(_ value: UInt32, into out: inout [UInt32]) {
        let index = value - syllableBase
        out.append(leadingBase + index / syllablesPerLeading)
        out.append(vowelBase + index % syllablesPerLeading / trailingCount)
        if index % trailingCount != 0 { out.append(trailingBase + index % trailingCount) }
    }

    static func compose(_ first: UInt32, _ second: UInt32) -> UInt32? {
        if first >= leadingBase, first < leadingBase + leadingCount, second >= vowelBase, second < vowelBase + vowelCount {
            return syllableBase + ((first - leadingBase) * vowelCount + (second - vowelBase)) * trailingCount
        }
        if isSyllable(first), (first - syllableBase) % trailingCount == 0, second > trailingBase, second < trailingBase + trailingCount {
            return first + (second - trailingBase)
        }
        return nil
    }
}
