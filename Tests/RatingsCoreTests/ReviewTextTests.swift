import Foundation
import RatingsCore
import Testing

@Suite("Review text rules: NFC, line ends, trimming, control characters, lengths, language tags")
struct ReviewTextTests {
    /// The cases scripts/generate-unicode-tables.py wrote with Python's own NFC.
    static let nfcCases: [(source: String, nfc: String)] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/nfc-cases.txt").path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        func scalars(_ field: Substring) -> String {
            var view = String.UnicodeScalarView()
            for hex in field.split(separator: " ") { if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { view.append(scalar) } }
            return String(view)
        }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (scalars(fields[0]), scalars(fields.count > 1 ? fields[1] : ""))
        }
    }()

    @Test("NFC agrees with Python's unicodedata on every generated case (decompositions, reordered marks, Hangul)")
    func nfcMatchesReference() {
        #expect(Self.nfcCases.count > 7_000)
        let wrong = Self.nfcCases.filter { Array(NFC.normalize($0.source).unicodeScalars) != Array($0.nfc.unicodeScalars) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5).map { ($0.source.unicodeScalars.map { String($0.value, radix: 16) }) })")
    }

    @Test("NFC leaves text below U+0300 and text already composed as it is")
    func nfcKeepsComposedText() {
        #expect(NFC.normalize("Best soup in town") == "Best soup in town")
        #expect(NFC.normalize("Café, crème brûlée, 한국어, 日本語 👍🏽") == "Café, crème brûlée, 한국어, 日本語 👍🏽")
        #expect(Array(NFC.normalize("Cafe\u{301}").unicodeScalars) == Array("Caf\u{E9}".unicodeScalars))
    }

    @Test("line ends become LF, white space around is trimmed, inner white space is kept")
    func lineEndsAndTrimming() throws {
        #expect(try ReviewTextRule.body.clean("  \r\nGood\r\nbroth\rand\tnoodles \n\u{3000}") == "Good\nbroth\nand\tnoodles")
        #expect(try ReviewTextRule.title.clean(" \n ") == nil)
        #expect(try ReviewTextRule.title.clean(nil) == nil)
        #expect(throws: ReviewError.textRequired(field: "body")) { try ReviewTextRule.body.clean(" \r\n\t ") }
        #expect(throws: ReviewError.textRequired(field: "body")) { try ReviewTextRule.body.clean(nil) }
    }

    @Test("a control character other than tab, LF and CR is refused at its position in the text as sent", arguments: [
        ("a\u{0}b", 2, 0x00), ("ab\u{7}", 3, 0x07), ("\u{B}vertical tab", 1, 0x0B), ("é\u{7F}", 2, 0x7F), ("x\u{85}", 2, 0x85),
        ("👍🏽\u{9F}", 3, 0x9F), ("ï\u{80}", 2, 0x80),
    ])
    func controlCharacters(text: String, position: Int, scalar: UInt32) {
        #expect(throws: ReviewError.controlCharacter(field: "body", position: position, scalar: scalar)) { try ReviewTextRule.body.clean(text) }
    }

    @Test("scalars whose UTF-8 holds the bytes of a C1 control's second byte are not controls")
    func notControls() throws {
        // U+00A0 is C2 A0, U+0100 is C4 80, U+2080 is E2 82 80, U+1F300 is F0 9F 8C 80.
        #expect(try ReviewTextRule.body.clean("a\u{A0}b\u{100}\u{2080}\u{1F300}") == "a\u{A0}b\u{100}\u{2080}\u{1F300}")
    }

    @Test("lengths are counted in scalar values after the rules: an emoji is one, a decomposed é one")
    func lengths() throws {
        #expect(try ReviewTextRule.body.clean(String(repeating: "😀", count: 5_000))?.unicodeScalars.count == 5_000)
        #expect(throws: ReviewError.textTooLong(field: "body", limit: 5_000, found: 5_001)) {
            try ReviewTextRule.body.clean(String(repeating: "😀", count: 5_001))
        }
        // 100 decomposed é are 200 scalars as sent and 100 after NFC: within the title's limit.
        #expect(try ReviewTextRule.title.clean(String(repeating: "e\u{301}", count: 100))?.unicodeScalars.count == 100)
        #expect(throws: ReviewError.textTooLong(field: "title", limit: 100, found: 101)) {
            try ReviewTextRule.title.clean("  " + String(repeating: "t", count: 101) + "  ")
        }
    }

    @Test("language tags are answered in canonical case", arguments: [
        ("en", "en"), ("EN", "en"), ("pt-br", "pt-BR"), ("zh-hant-tw", "zh-Hant-TW"), ("ES-419", "es-419"),
        ("sr-LATN-rs", "sr-Latn-RS"), ("en-US-x-TWAIN", "en-US-x-twain"), ("de-CH-1996", "de-CH-1996"), ("yue", "yue"),
    ])
    func canonicalTags(given: String, canonical: String) throws {
        #expect(try LanguageTag(given).description == canonical)
    }

    @Test("a tag outside the rule is refused", arguments: ["", "e", "english", "en_US", "en-", "-en", "en--US", "e1", "en-toolongsubtag", "日本",
                                                          "en" + String(repeating: "-abcdefgh", count: 7)])
    func refusedTags(given: String) {
        #expect(throws: ReviewError.self) { try LanguageTag(given) }
    }

    @Test("a tag of 64 characters is taken; the 65th is refused")
    func tagLength() throws {
        let longest = "en" + String(repeating: "-abcdefg", count: 7) + "-abcde"
        let tag = try LanguageTag(longest)
        #expect(longest.count == 64 && tag.description == longest)
        #expect(throws: ReviewError.self) { try LanguageTag(longest + "g") }
    }

    @Test("a language filter matches the tag or a longer tag starting with it and a hyphen")
    func languagePrefix() throws {
        let tag = try LanguageTag("en-GB")
        #expect(tag.matches(prefix: "en") && tag.matches(prefix: "EN-gb") && !tag.matches(prefix: "e") && !tag.matches(prefix: "en-US"))
        #expect(!(try LanguageTag("eng")).matches(prefix: "en"))
    }

    @Test("most helpful: the 95 % Wilson lower bound, 0 without votes or without an up vote")
    func helpfulScore() {
        #expect(HelpfulScore(up: 0, down: 0).key == 0 && HelpfulScore(up: 0, down: 7).key == 0)
        // 1 of 1: (1 + z²/2 - z·sqrt(z²/4)) / (1 + z²) = 1 / (1 + z²) = 0.206549...
        #expect(abs(HelpfulScore(up: 1, down: 0).lowerBound - 1 / (1 + 1.96 * 1.96)) < 1e-12)
        #expect(HelpfulScore(up: 9, down: 1) > HelpfulScore(up: 1, down: 0))
        #expect(HelpfulScore(up: 90, down: 10) > HelpfulScore(up: 9, down: 1))
        #expect(HelpfulScore(up: 12, down: 3) > HelpfulScore(up: 12, down: 4))
        #expect(HelpfulScore(up: 1_000_000, down: 0).lowerBound < 1)
    }
}
