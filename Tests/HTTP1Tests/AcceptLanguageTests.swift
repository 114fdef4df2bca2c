import HTTP1
import Testing

private let offered = ["en", "ar", "de", "es", "fr", "he", "ja", "pt"]

@Suite("Accept-Language: weights, lookup and fallbacks")
struct AcceptLanguageTests {
    @Test("ranges and weights are read as RFC 9110 writes them")
    func readsWeights() throws {
        let field = try #require(AcceptLanguage("es-MX, es;q=0.9 , en;Q=0.5,*;q=0.001,, fr;q=1.000, de;q=0"))
        #expect(field.preferences.map(\.range) == ["es-mx", "es", "en", "*", "fr", "de"])
        #expect(field.preferences.map(\.weight) == [1000, 900, 500, 1, 1000, 0])
    }

    @Test("a field that does not parse is refused whole", arguments: [
        "es;q=2", "es;q=1.5", "es;q=0.1234", "es;q=.5", "es;q = 0.5", "es;level=1", "es;q=0.5;q=0.4", "es mx",
        "español", "es-", "-es", "es--mx", "toolonglanguage", "es-toolongsubtag", "1es", "es;", "es;q=",
    ])
    func refusesMalformed(field: String) {
        #expect(AcceptLanguage(field) == nil)
    }

    @Test("lookup picks the heaviest range the server offers, shortening es-MX to es", arguments: [
        ("es-MX", "es"), ("es-419, en;q=0.8", "es"), ("zh-Hant-TW, pt-BR;q=0.9", "pt"), ("de-CH-x-phonebk", "de"),
        ("fr;q=0.5, ja;q=0.8", "ja"), ("ar, he", "ar"), ("he;q=0.9, ar;q=0.9", "he"), ("sw, *;q=0.1", "en"),
        ("*", "en"), ("en;q=0, *", "ar"), ("es-MX;q=0, es;q=0.5", "es"), ("es;q=0, es-MX", nil), ("sw, zu", nil),
        ("fr;q=0", nil), ("", nil),
    ] as [(String, String?)])
    func lookup(field: String, chosen: String?) throws {
        let accepted = try #require(AcceptLanguage(field))
        #expect(accepted.lookup(among: offered) == chosen)
    }

    @Test("a range shortens one subtag at a time, dropping a lone singleton with its subtag", arguments: [
        ("es-MX", ["es-mx", "es"]), ("zh-Hant-TW", ["zh-hant-tw", "zh-hant", "zh"]), ("de-x-foo", ["de-x-foo", "de"]),
        ("en", ["en"]),
    ])
    func fallbacks(range: String, expected: [String]) {
        #expect(LanguageRange.fallbacks(of: range) == expected)
    }

    @Test("language tag syntax", arguments: [
        ("es", true), ("es-MX", true), ("zh-Hant-TW", true), ("es-419", true), ("x-klingon", true),
        ("", false), ("*", false), ("es_MX", false), ("419", false), ("es-", false), ("abcdefghi", false),
        ("e s", false), ("é", false), (String(repeating: "a-", count: 32) + "a", false),
    ])
    func syntax(text: String, valid: Bool) {
        #expect(LanguageRange.isWellFormed(text) == valid)
    }

    @Test("a 304 keeps only what a cache needs: ETag, Vary and the request id")
    func notModifiedKeepsValidators() {
        var ok = HTTPResponse(status: 200, headers: HTTPHeaders([
            ("content-type", "application/json"), ("etag", "\"1\""), ("content-language", "es"),
            ("vary", "Accept-Language"),
        ]), body: Array("{}".utf8))
        ok.lastField = HTTPField(name: "x-request-id", value: "r")
        let notModified = ok.notModified
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        #expect(notModified.headers.fields.map(\.name) == ["etag", "vary"])
        #expect(notModified.lastField == HTTPField(name: "x-request-id", value: "r"))
    }
}
