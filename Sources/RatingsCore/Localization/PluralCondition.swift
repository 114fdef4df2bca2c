/// A parsed CLDR plural condition: `or`-ed chains of `and`-ed relations.
struct PluralCondition: Sendable {
    /// One test such as `n % 100 != 11..19,21`.
    struct Relation: Sendable {
        var operand: Character
        var modulus: Int?
        var negated: Bool
        var ranges: [ClosedRange<Int>]

        func matches(_ number: PluralOperands) -> Bool {
            var value: Int, isWhole = true
            switch operand {
            case "n": value = number.integerDigits; isWhole = number.isWhole
            case "i": value = number.integerDigits
            case "v": value = number.visibleFractionCount
            case "w": value = number.significantFractionCount
            case "f": value = number.visibleFraction
            case "t": value = number.significantFraction
            default: value = number.exponent // "e" and "c"
            }
            // n % m keeps n's fraction, so 3.5 % 100 is 3.5 and lies in no integer range.
            if let modulus { value %= modulus }
            let inRanges = isWhole && ranges.contains { $0.contains(value) }
            return inRanges != negated
        }
    }

    /// Alternatives (`or`), each a chain that must all hold (`and`).
    private let alternatives: [[Relation]]

    func matches(_ number: PluralOperands) -> Bool {
        alternatives.contains { chain in chain.allSatisfy { $0.matches(number) } }
    }

    init(parsing text: String) throws(PluralRuleError) {
        var tokens = PluralTokens(text)
        var alternatives: [[Relation]] = [[]]
        while true {
            alternatives[alternatives.count - 1].append(try tokens.relation())
            switch tokens.word() {
            case nil: self.alternatives = alternatives; return
            case "and": continue
            case "or": alternatives.append([])
            case let other?: throw PluralRuleError("expected \"and\" or \"or\", found \"\(other)\"")
            }
        }
    }
}

/// Reads the tokens of a condition from left to right.
private struct PluralTokens {
    private var rest: Substring

    init(_ text: String) { rest = Substring(text) }

    /// `operand [% modulus] (= | !=) ranges`
    mutating func relation() throws(PluralRuleError) -> PluralCondition.Relation {
        skipSpaces()
        guard let operand = rest.first, "niwvftec".contains(operand) else {
            throw PluralRuleError("expected an operand (n, i, v, w, f, t, e, c) at \"\(rest)\"")
        }
        rest = rest.dropFirst()
        var modulus: Int?
        if take("%") { modulus = try number() }
        if modulus == 0 { throw PluralRuleError("modulus 0") }
        let negated: Bool
        if take("!=") { negated = true } else if take("=") { negated = false } else {
            throw PluralRuleError("expected \"=\" or \"!=\" at \"\(rest)\"")
        }
        var ranges: [ClosedRange<Int>] = []
        repeat {
            let low = try number()
            let high = take("..") ? try number() : low
            guard low <= high else { throw PluralRuleError("the range \(low)..\(high) is empty") }
            ranges.append(low...high)
        } while take(",")
        return PluralCondition.Relation(operand: operand, modulus: modulus, negated: negated, ranges: ranges)
    }

    /// The next word (`and`, `or`), or nil at the end.
    mutating func word() -> String? {
        skipSpaces()
        guard !rest.isEmpty else { return nil }
        let word = rest.prefix { $0 != " " }
        rest = rest.dropFirst(word.count)
        return String(word)
    }

    private mutating func number() throws(PluralRuleError) -> Int {
        skipSpaces()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 18, let value = Int(digits) else {
            throw PluralRuleError("expected a number at \"\(rest)\"")
        }
        rest = rest.dropFirst(digits.count)
        return value
    }

    private mutating func take(_ symbol: String) -> Bool {
        skipSpaces()
        guard rest.hasPrefix(symbol) else { return false }
        rest = rest.dropFirst(symbol.count)
        return true
    }

    private mutating func skipSpaces() { rest = rest.drop { $0 == " " } }
}
