import RatingsCore
import TestSupport
import Testing

private let catalog = try! LanguageCatalog.bundled()
private let five = try! Scale(maxRating: 5)
private let one = try! Scale(maxRating: 1)

@Suite("Displays in every bundled language")
struct LanguageTests {
    @Test("the catalog holds the eight languages, English first as the fallback")
    func catalogHoldsEveryLanguage() {
        #expect(catalog.tags == ["en", "ar", "de", "es", "fr", "he", "ja", "pt"])
        #expect(catalog.fallback.tag == "en")
        #expect(catalog.language(tagged: "ES")?.tag == "es")
        #expect(catalog.language(tagged: "es-MX") == nil, "regional fallback is negotiation's job, not the catalog's")
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
        let arabic = try #require(catalog.language(tagged: "ar"))
        let scale = try Scale(maxRating: max)
        #expect(arabic.accessibilityValue(of: Display(try Stars(1, on: scale), on: scale)) == spoken)
    }

    @Test("every language writes 10 and halves on a ten-star scale in its own digits", arguments: [
        ("en", "9.5 out of 10 stars"), ("de", "9,5 von 10 Sternen"), ("ar", "٩٫٥ من ١٠ نجوم"), ("he", "9.5 מתוך 10 כוכבים"),
    ])
    func tenStarScale(tag: String, spoken: String) throws {
        let language = try #require(catalog.language(tagged: tag))
        let ten = try Scale(maxRating: 10)
        #expect(language.accessibilityValue(of: Display(ExactValue(thousandths: 9_500), on: ten)) == spoken)
    }
}
