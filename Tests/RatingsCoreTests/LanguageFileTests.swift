@testable import RatingsCore
import Testing

/// The bundled English file, to break one thing at a time.
private let english = embeddedLanguageFiles.first { $0.name == "en.json" }!.text

@Suite("Language files are checked when loaded")
struct LanguageFileTests {
    @Test("every bundled file loads and names its own language")
    func bundledFilesLoad() throws {
        #expect(embeddedLanguageFiles.count == 45)
        for file in embeddedLanguageFiles {
            let language = try Language.load(file: file.name, json: file.text)
            #expect(file.name == "\(language.contentTag).json")
        }
    }

    @Test("a broken file is refused with the file and what to fix", arguments: [
        ("{", "is not valid JSON"),
        (english.replacing(#""language": "en""#, with: #""language": "fr""#), "name the file fr.json"),
        (english.replacing(#""leftToRight""#, with: #""sideways""#), "layoutDirection must be"),
        (english.replacing(#""0123456789""#, with: #""012345678""#), "ten different characters"),
        (english.replacing(#""decimalSeparator": ".""#, with: #""decimalSeparator": "1""#), "contain no digit"),
        (english.replacing(#""one": "i = 1 and v = 0 @integer 1","#, with: ""), "one sentence for each plural category"),
        (english.replacing(#""one": "{value} out of {max} star","#, with: ""), "one sentence for each plural category"),
        (english.replacing("{value} out of {max} stars", with: "{value} out of {total} stars"), "unknown placeholder {total}"),
        (english.replacing("{value} out of {max} stars", with: "out of {max} stars"), "never says {value}"),
        (english.replacing("{value} out of {max} stars", with: "{value out of {max} stars"), "unknown placeholder"),
        (english.replacing(#""Loved it""#, with: #""""#), "non-empty string"),
        (english.replacing(#", "Loved it""#, with: ""), "array of 5 strings"),
        (english.replacing(#""one": "i = 1"#, with: #""uno": "i = 1"#), "not a plural category"),
        (english.replacing(#""i = 1 and v = 0"#, with: #""i = = 1"#), "pluralRules: the rule for \"one\""),
        (english.replacing(#""Not rated""#, with: "7"), "notRated must be a non-empty string"),
        (english.replacing(#""reviewers""#, with: #""reviewer""#), "reviewers must be a non-empty string"),
        (english.replacing(#""ZA": {"decimalSeparator": ",""#, with: #""ZA": {"decimalSeparator": "1""#), "regions.ZA.decimalSeparator must be"),
        (english.replacing(#""ZA": "#, with: #""South Africa": "#), "not a region code"),
    ])
    func refusesBrokenFile(json: String, problem: String) {
        #expect {
            _ = try Language.load(file: "en.json", json: json)
        } throws: { error in
            let error = error as? LanguageFileError
            return error?.file == "en.json" && error?.problem.contains(problem) == true
                && error?.description.hasPrefix("locales/en.json: ") == true
        }
    }

    @Test("a catalog refuses a language given twice and a missing fallback")
    func catalogChecks() throws {
        let language = try Language.load(file: "en.json", json: english)
        #expect(throws: LanguageFileError.self) { try LanguageCatalog([language, language], fallback: "en") }
        #expect(throws: LanguageFileError.self) { try LanguageCatalog([language], fallback: "es") }
    }

    @Test("numbers are rewritten digit by digit with the decimal separator", arguments: [
        (",", "0123456789", "3.5", "3,5"), ("٫", "٠١٢٣٤٥٦٧٨٩", "10", "١٠"), ("٫", "٠١٢٣٤٥٦٧٨٩", "0.5", "٠٫٥"),
    ])
    func numberStyle(separator: String, digits: String, plain: String, written: String) throws {
        #expect(try NumberStyle(decimalSeparator: separator, digits: digits).format(plain) == written)
    }
}
