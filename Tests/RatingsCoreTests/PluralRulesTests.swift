@testable import RatingsCore
import Testing

/// Every (language, category, sample) listed after `@integer` and `@decimal` in the bundled
/// files (scripts/generate-locales.py writes them from Babel's evaluation of CLDR's rules); a
/// range `a~b` gives every number from a to b in steps of its last digit.
private let samples: [(tag: String, category: PluralCategory, sample: String)] = {
    var result: [(tag: String, category: PluralCategory, sample: String)] = []
    for file in embeddedLanguageFiles {
        let language = try! Language.load(file: file.name, json: file.text)
        for (category, source) in language.pluralRuleSources {
            for list in source.split(separator: "@").dropFirst() {
                for token in list.split(separator: " ").dropFirst() where token != "…" && token != "…," {
                    let number = token.hasSuffix(",") ? token.dropLast() : token
                    result += expanded(String(number)).map { (language.tag, category, $0) }
                }
            }
        }
    }
    return result
}()

/// `3~17` as 3, 4, … 17; `0.0~1.5` as 0.0, 0.1, … 1.5; anything else as itself.
private func expanded(_ sample: String) -> [String] {
    let ends = sample.split(separator: "~").map(String.init)
    guard ends.count == 2 else { return [sample] }
    let decimals = ends[0].split(separator: ".").count == 2 ? ends[0].split(separator: ".")[1].count : 0
    let scale = (0..<decimals).reduce(1) { value, _ in value * 10 }
    guard let low = Int(ends[0].replacing(".", with: "")), let high = Int(ends[1].replacing(".", with: "")), low <= high else { return ends }
    return (low...high).map { value in
        decimals == 0 ? String(value) : "\(value / scale).\(String(value % scale).leftPadded(to: decimals))"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

@Suite("CLDR plural rules")
struct PluralRulesTests {
    @Test("the samples are many: every file lists them")
    func samplesExist() {
        #expect(samples.count > 45 * 1_000, "every language checks thousands of numbers: \(samples.count)")
        #expect(Set(samples.map(\.tag)) == Set(embeddedLanguageFiles.map { $0.name.dropLast(5).lowercased() }))
    }

    @Test("every CLDR sample in every language file falls in its own category")
    func everySampleMatchesItsCategory() throws {
        let catalog = try LanguageCatalog.bundled()
        for (tag, category, sample) in samples {
            let rules = try #require(catalog.language(tagged: tag)).pluralRules
            let operands = try #require(PluralOperands(sample), "\(tag) sample \(sample)")
            #expect(rules.category(of: operands) == category, "\(tag): \(sample) should be \(category)")
        }
    }

    @Test("Arabic has six forms", arguments: [
        ("0", PluralCategory.zero), ("1", .one), ("2", .two), ("3", .few), ("10", .few), ("103", .few),
        ("11", .many), ("99", .many), ("1011", .many), ("100", .other), ("102", .other), ("1.5", .other), ("3.5", .other),
    ])
    func arabicSixForms(number: String, category: PluralCategory) throws {
        let arabic = try #require(try LanguageCatalog.bundled().language(tagged: "ar"))
        #expect(arabic.pluralRules.categories.count == 6)
        #expect(arabic.pluralRules.category(of: try #require(PluralOperands(number))) == category)
    }

    @Test("operands read the number as written", arguments: [
        ("1.50", 1, 2, 50, 5, 1), ("3", 3, 0, 0, 0, 0), ("0.05", 0, 2, 5, 5, 2), ("1.1c3", 1100, 0, 0, 0, 0),
        ("1.0000001c6", 1_000_000, 1, 1, 1, 1),
    ])
    func operands(text: String, i: Int, v: Int, f: Int, t: Int, w: Int) throws {
        let operands = try #require(PluralOperands(text))
        #expect(operands.integerDigits == i && operands.visibleFractionCount == v && operands.visibleFraction == f)
        #expect(operands.significantFraction == t && operands.significantFractionCount == w)
    }

    @Test("text that is not a CLDR sample number is refused", arguments: ["", ".5", "5.", "-1", "1e", "1c99", "abc", "1.2.3", "1234567890123456789"])
    func refusesMalformedOperands(text: String) {
        #expect(PluralOperands(text) == nil)
    }

    @Test("malformed rules are refused with the reason", arguments: [
        ([PluralCategory.one: "i = 1"], "no rule for \"other\""),
        ([.other: "n = 1"], "\"other\" must have no condition"),
        ([.one: "x = 1", .other: ""], "expected an operand"),
        ([.one: "n = 1 and", .other: ""], "expected an operand"),
        ([.one: "n == 1", .other: ""], "expected a number"),
        ([.one: "n = 5..2", .other: ""], "is empty"),
        ([.one: "n % 0 = 1", .other: ""], "modulus 0"),
        ([.one: "n = 1 xor n = 2", .other: ""], "expected \"and\" or \"or\""),
    ])
    func refusesMalformedRules(sources: [PluralCategory: String], reason: String) {
        #expect {
            _ = try PluralRules(sources)
        } throws: { error in
            (error as? PluralRuleError)?.message.contains(reason) == true
        }
    }
}
