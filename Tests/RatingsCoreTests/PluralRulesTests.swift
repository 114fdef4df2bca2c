@testable import RatingsCore
import Testing

/// Every (language, category, sample) that CLDR lists after `@integer` and `@decimal` in the
/// bundled files; a range `a~b` gives both ends.
private let samples: [(tag: String, category: PluralCategory, sample: String)] = {
    var result: [(tag: String, category: PluralCategory, sample: String)] = []
    for file in embeddedLanguageFiles {
        let language = try! Language.load(file: file.name, json: file.text)
        for (category, source) in language.pluralRuleSources {
            for list in source.split(separator: "@").dropFirst() {
                for token in list.split(separator: " ").dropFirst() where token != "…" && token != "…," {
                    let number = token.hasSuffix(",") ? token.dropLast() : token
                    for end in number.split(separator: "~") { result.append((language.tag, category, String(end))) }
                }
            }
        }
    }
    return result
}()

@Suite("CLDR plural rules")
struct PluralRulesTests {
    @Test("the samples are many: every file lists them")
    func samplesExist() {
        #expect(samples.count > 200)
        #expect(Set(samples.map(\.tag)) == ["en", "es", "fr", "de", "pt", "ja", "ar", "he"])
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
