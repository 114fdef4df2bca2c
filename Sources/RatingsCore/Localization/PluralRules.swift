import ASCIIKit

/// One language's plural rules in CLDR syntax, deciding which form a number takes.
///
/// A rule is `or`-ed `and` chains of relations such as `n % 100 = 3..10` or `i = 1 and v = 0`
/// (TR35 Part 3 §5.1, "Plural rules syntax"). Samples after `@integer`/`@decimal` are ignored
/// here, so rules are copied from CLDR verbatim; the tests check every sample against its rule.
public struct PluralRules: Sendable {
    /// The rules in CLDR order (zero, one, two, few, many); `other` is what none of them match.
    private let rules: [(category: PluralCategory, condition: PluralCondition)]

    /// The categories this language distinguishes, `other` always among them.
    public let categories: Set<PluralCategory>

    /// Parses one rule per category. `other` must be present and have no condition.
    public init(_ sources: [PluralCategory: String]) throws(PluralRuleError) {
        guard let other = sources[.other] else { throw PluralRuleError("there is no rule for \"other\"") }
        guard PluralRules.conditionText(other).isEmpty else {
            throw PluralRuleError("\"other\" must have no condition; it is whatever the other rules leave")
        }
        var rules: [(category: PluralCategory, condition: PluralCondition)] = []
        for category in PluralCategory.allCases where category != .other {
            guard let source = sources[category] else { continue }
            let text = PluralRules.conditionText(source)
            do {
                rules.append((category, try PluralCondition(parsing: text)))
            } catch {
                throw PluralRuleError("the rule for \"\(category.rawValue)\" (\(text)): \(error.message)")
            }
        }
        self.rules = rules
        categories = Set(sources.keys)
    }

    /// The category of a number.
    public func category(of number: PluralOperands) -> PluralCategory {
        rules.first { $0.condition.matches(number) }?.category ?? .other
    }

    /// The condition part of a CLDR rule: everything before its samples.
    static func conditionText(_ source: String) -> String {
        String(source.prefix { $0 != "@" }).trimmingSpacesAndTabs()
    }
}

/// Why a plural rule could not be read.
public struct PluralRuleError: Error, Sendable, Equatable {
    public let message: String
    init(_ message: String) { self.message = message }
}
