@testable import RatingsCore
import TestSupport
import Testing

private let catalog = try! LanguageCatalog.bundled()
private let five = try! Scale(maxRating: 5)
private let one = try! Scale(maxRating: 1)

@Suite("Displays in every bundled language")
struct LanguageTests {
    @Test("the catalog holds the 45 languages, English first as the fallback, and the regions whose numbers differ")
    func catalogHoldsEveryLanguage() {
        #expect(catalog.languages.map(\.contentTag) == ["en", "ar", "bn", "ca", "cs", "da", "de", "el", "es", "fi", "fr", "gu", "he", "hi", "hr",
                                                       "hu", "id", "it", "ja", "kn", "ko", "ml", "mr", "ms", "nb", "nl", "or", "pa", "pl", "pt",
                                                       "pt-PT", "ro", "ru", "sk", "sl", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi", "zh-Hans",
                                                       "zh-Hant"])
        #expect(catalog.fallback.tag == "en")
        #expect(catalog.language(tagged: "ES")?.tag == "es")
        #expect(catalog.language(tagged: "zh-hant")?.contentTag == "zh-Hant")
        #expect(catalog.language(tagged: "ar-sa")?.contentTag == "ar-SA" && catalog.language(tagged: "ar-sa")?.numbers.digits.first == "٠")
        #expect(catalog.language(tagged: "es-MX")?.numbers.decimalSeparator == ".", "CLDR: Mexico writes 3.5")
        #expect(catalog.language(tagged: "fr-CA") == nil, "a region that writes numbers as the language does is the language")
        #expect(catalog.language(tagged: "pt-PT")?.contentTag == "pt-PT", "a region with a file of its own is that file")
        #expect(catalog.aliases == ["no": "nb", "nn": "nb", "zh": "zh-hans", "zh-cn": "zh-hans", "zh-sg": "zh-hans",
                                    "zh-tw": "zh-hant", "zh-hk": "zh-hant", "zh-mo": "zh-hant"])
    }

    /// Every language at 0, 0.5, 1, 1.5, 2, 3.5, 5 and 10 on scales of 1, 2, 3, 5 and 10 stars
    /// (each value that fits the scale), as the language's own numbers and plural forms say.
    @Test("every language speaks every value on every scale in its own digits and forms", arguments: catalog.languages + catalog.regional)
    func everyValueOnEveryScale(_ language: Language) throws {
        let ascii = language.numbers.digits == Array("0123456789")
        for max in [1, 2, 3, 5, 10] {
            let scale = try Scale(maxRating: max)
            let category = language.pluralRules.category(of: PluralOperands(max))
            for thousandths in [0, 500, 1_000, 1_500, 2_000, 3_500, 5_000, 10_000] where thousandths <= max * 1_000 {
                let display = Display(ExactValue(thousandths: thousandths), on: scale)
                let spoken = language.accessibilityValue(of: display)
                guard thousandths > 0 else {
                    #expect(spoken == language.accessibilityValue(of: Display(ExactValue(thousandths: 0), on: try Scale(maxRating: 5))))
                    continue
                }
                let value = language.numbers.format(display.valueText)
                #expect(spoken.contains(value), "\(language.contentTag): \(spoken) says \(value)")
                #expect(!spoken.contains("{") && !spoken.contains("}"), "\(language.contentTag): \(spoken)")
                if !ascii { #expect(!spoken.contains { $0.isASCII && $0.isNumber }, "\(language.contentTag) writes its own digits: \(spoken)") }
                // The sentence is the one of the scale's plural form, with the numbers put in.
                let sentence = try #require(language.outOf[category])
                #expect(spoken == sentence.render(value: value, max: language.numbers.format(String(max))))
            }
        }
        let rightToLeft = ["ar", "he", "ur"].contains(language.tag.prefix(2))
        #expect(language.layoutDirection == (rightToLeft ? .rightToLeft : .leftToRight))
        #expect(language.layoutDirection.leadingEdge.rawValue == (rightToLeft ? "right" : "left"))
    }

    @Test("seed examples: 3.5 of 5, 4 of 5, 1 of 1, not rated", arguments: LanguageSeedExample.all)
    func seedExamples(_ expected: LanguageSeedExample) throws {
        let language = try #require(catalog.language(tagged: expected.tag))
        let threeAndAHalf = Display(ExactValue(thousandths: 3500), on: five)
        let four = Display(try Stars(4, on: five), on: five)
        let oneOfOne = Display(try Stars(1, on: one), on: one)
        let notRated = Display(ExactValue(thousandths: 0), on: five)
        #expect(language.accessibilityLabel == expected.label)
        #expect(language.accessibilityValue(of: threeAndAHalf) == expected.threeAndAHalfOfFive)
        #expect(language.accessibilityValue(of: four) == expected.fourOfFive)
        #expect(language.accessibilityValue(of: oneOfOne) == expected.oneOfOne)
        #expect(language.accessibilityValue(of: notRated) == expected.notRated)
        #expect(language.caption(of: four) == expected.fourOfFiveCaption)
        #expect(language.caption(of: threeAndAHalf) == "" && language.caption(of: oneOfOne) == "" && language.caption(of: notRated) == "")
        #expect(language.layoutDirection.rawValue == expected.layoutDirection)
        #expect(language.layoutDirection.leadingEdge.rawValue == expected.halfStarFillsFrom)
    }

    @Test("English captions name each whole star of a five-star scale and nothing else")
    func englishCaptions() throws {
        let english = catalog.fallback
        let captions = try (1...5).map { english.caption(of: Display(try Stars($0, on: five), on: five)) }
        #expect(captions == ["Terrible", "Not great", "It was fine", "Really good", "Loved it"])
        let ten = try Scale(maxRating: 10)
        #expect(english.caption(of: Display(try Stars(4, on: ten), on: ten)) == "")
        #expect(english.caption(of: Display(ExactValue(thousandths: 4_250), on: five)) == "", "rounds to 4.5, not a whole star")
        #expect(english.caption(of: Display(ExactValue(thousandths: 3_800), on: five)) == "Really good", "rounds to 4")
    }

    @Test("every language has five distinct captions", arguments: catalog.tags)
    func captionsAreComplete(tag: String) throws {
        let language = try #require(catalog.language(tagged: tag))
        let captions = try (1...5).map { language.caption(of: Display(try Stars($0, on: five), on: five)) }
        #expect(Set(captions).count == 5 && !captions.contains(""))
    }

    @Test("Arabic picks singular, dual, plural 3–10 by the scale", arguments: [
        (1, "١ من نجمة واحدة"), (2, "١ من نجمتين"), (3, "١ من ٣ نجوم"), (10, "١ من ١٠ نجوم"),
    ])
    func arabicFormsFollowTheScale(max: Int, spoken: String) throws {
        let arabic = try #require(catalog.language(tagged: "ar-EG"))
        let scale = try Scale(maxRating: max)
        #expect(arabic.accessibilityValue(of: Display(try Stars(1, on: scale), on: scale)) == spoken)
    }

    @Test("every language writes 10 and halves on a ten-star scale in its own digits", arguments: [
        ("en", "9.5 out of 10 stars"), ("de", "9,5 von 10 Sternen"), ("ar", "9.5 من 10 نجوم"), ("ar-SA", "٩٫٥ من ١٠ نجوم"),
        ("he", "9.5 מתוך 10 כוכבים"), ("mr", "१० पैकी ९.५ तारे"), ("bn", "১০টি তারার মধ্যে ৯.৫"), ("ur-IN", "۱۰ میں سے ۹٫۵ ستارے"),
        ("de-CH", "9.5 von 10 Sternen"), ("en-ZA", "9,5 out of 10 stars"), ("ru", "9,5 из 10 звёзд"), ("pl", "9,5 z 10 gwiazdek"),
    ])
    func tenStarScale(tag: String, spoken: String) throws {
        let language = try #require(catalog.language(tagged: tag))
        let ten = try Scale(maxRating: 10)
        #expect(language.accessibilityValue(of: Display(ExactValue(thousandths: 9_500), on: ten)) == spoken)
    }
}
