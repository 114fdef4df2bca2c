import Foundation
import RatingsCore
import TestSupport
import Testing

@Suite("Displays in the client's language, called directly over the in-memory store")
struct LanguageNegotiationTests {
    @Test("seed examples in every language on every endpoint that shows a display", arguments: LanguageSeedExample.all)
    func seedExamplesInEveryLanguage(_ expected: LanguageSeedExample) async throws {
        try await seedExamples(expected, on: .memory)
    }

    /// The words come from the language alone; a few languages on every engine show that the
    /// stores change nothing of them.
    @Test("seed examples on every engine", arguments: TestEngine.all,
          LanguageSeedExample.all.filter { ["en", "ar-SA", "mr", "zh-Hant"].contains($0.tag) })
    func seedExamplesOnEveryEngine(engine: TestEngine, _ expected: LanguageSeedExample) async throws {
        try await seedExamples(expected, on: engine)
    }

    private func seedExamples(_ expected: LanguageSeedExample, on engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            let asked = ["Accept-Language": expected.tag]
            for (rater, stars) in [("a", 3), ("b", 4)] {
                _ = service.request("PUT", "/v1/items/half/ratings/\(rater)", json: "{\"stars\":\(stars)}")
            }
            _ = service.request("PUT", "/v1/items/single", json: #"{"maxRating": 1}"#)
            _ = service.request("PUT", "/v1/items/single/ratings/a", json: #"{"stars": 1}"#)

            let half = service.request("GET", "/v1/items/half", headers: asked)
            try expectDisplay(half, at: ["display"], expected, value: expected.threeAndAHalfOfFive, caption: "")
            #expect(display(half, at: ["display"])["symbols"] as? [String]
                == ["star.fill", "star.fill", "star.fill", "star.leadinghalf.filled", "star"], "symbols never change with the language")

            let written = service.request("PUT", "/v1/items/four/ratings/r", json: #"{"stars": 4}"#, headers: asked)
            #expect(written.status == 201)
            try expectDisplay(written, at: ["display"], expected, value: expected.fourOfFive, caption: expected.fourOfFiveCaption)
            try expectDisplay(written, at: ["summary", "display"], expected, value: expected.fourOfFive, caption: expected.fourOfFiveCaption)
            let read = service.request("GET", "/v1/items/four/ratings/r?lang=\(expected.tag)")
            try expectDisplay(read, at: ["display"], expected, value: expected.fourOfFive, caption: expected.fourOfFiveCaption)

            let single = service.request("GET", "/v1/items?ids=single,nobody", headers: asked)
            let items = try #require(object(single)["items"] as? [[String: Any]])
            #expect((items[0]["display"] as? [String: Any])?["accessibilityValue"] as? String == expected.oneOfOne)
            #expect((items[1]["display"] as? [String: Any])?["accessibilityValue"] as? String == expected.notRated)
            #expect(single.header("content-language") == expected.tag)

            let cleared = service.request("DELETE", "/v1/items/single/ratings/a", headers: asked)
            try expectDisplay(cleared, at: ["summary", "display"], expected, value: expected.notRated, caption: "")

            let shown = service.request("GET", "/v1/display?value=3.5&max=5&lang=\(expected.tag)")
            try expectDisplay(shown, at: [], expected, value: expected.threeAndAHalfOfFive, caption: "")
        }
    }

    @Test("lang overrides Accept-Language; regions with numbers of their own answer as themselves, others fall back; aliases; anything unknown is English",
          arguments: [
        ("es-MX", nil, "es-MX"), ("es-AR", nil, "es"), ("fr;q=0.4, de;q=0.8", nil, "de"), ("sw", nil, "en"), (nil, nil, "en"),
        ("es;;q=x", nil, "en"), ("*", nil, "en"), ("ar;q=0", nil, "en"), ("es", "de", "de"), ("es", "sw", "en"),
        (nil, "es_MX", "es-MX"), (nil, "PT-br", "pt"), ("ja", "he-IL", "he"), ("pt-PT", nil, "pt-PT"), ("ar-SA", nil, "ar-SA"),
        ("ar-AE", nil, "ar"), ("no", nil, "nb"), ("nn-NO", nil, "nb"), ("zh-TW", nil, "zh-Hant"), ("zh-Hant-HK", nil, "zh-Hant"),
        ("zh-CN", nil, "zh-Hans"), ("zh", nil, "zh-Hans"), (nil, "zh_HK", "zh-Hant"), ("ur-IN", nil, "ur-IN"), ("sw, mr;q=0.5", nil, "mr"),
    ] as [(String?, String?, String)])
    func negotiation(acceptLanguage: String?, lang: String?, chosen: String) async throws {
        try await withAPI { service in
            let path = "/v1/display?value=2" + (lang.map { "&lang=\($0)" } ?? "")
            let response = service.request("GET", path, headers: acceptLanguage.map { ["Accept-Language": $0] } ?? [:])
            #expect(response.status == 200)
            #expect(response.header("content-language") == chosen)
            #expect(response.header("vary") == "Accept-Language")
        }
    }

    @Test("openapi.yaml's Content-Language lists exactly the tags the catalog answers with")
    func specListsEveryTag() throws {
        let spec = try String(contentsOfFile: sourceRoot + "/openapi.yaml", encoding: .utf8)
        let header = try #require(spec.range(of: "\n    Content-Language:\n"))
        let list = try #require(spec[header.upperBound...].range(of: "enum: ["))
        let end = try #require(spec[list.upperBound...].firstIndex(of: "]"))
        let documented = spec[list.upperBound..<end].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let catalog = try LanguageCatalog.bundled()
        #expect(Set(documented) == Set((catalog.languages + catalog.regional).map(\.contentTag)))
        #expect(documented.count == catalog.languages.count + catalog.regional.count)
    }

    @Test("several Accept-Language lines are read as one list")
    func severalFieldLines() async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/display?value=2",
                                           headerLines: [("accept-language", "sw"), ("accept-language", "he;q=0.5, fr;q=0.2")])
            #expect(response.header("content-language") == "he")
        }
    }

    @Test("a malformed lang is 400 saying what a tag looks like, and a write with it stores nothing", arguments: TestEngine.all, [
        "e!", "", "es-", "1es", "es%ZZ", "abcdefghi", "es--MX", String(repeating: "ab-", count: 22) + "ab",
    ])
    func malformedLang(engine: TestEngine, lang: String) async throws {
        try await withAPI(engine) { service in
            let read = service.request("GET", "/v1/items/i?lang=\(lang)")
            #expect(read.status == 400)
            #expect(detail(read).contains("lang must be one language tag such as es or es-MX"))
            let write = service.request("PUT", "/v1/items/i/ratings/r?lang=\(lang)", json: #"{"stars": 4}"#)
            #expect(write.status == 400)
            #expect(service.request("GET", "/v1/items/i/ratings/r").status == 404, "nothing was stored")
        }
    }

    @Test("lang given twice is 400")
    func langTwice() async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/display?value=1&lang=es&lang=fr")
            #expect(response.status == 400 && detail(response).contains("Give lang at most once"))
        }
    }

    @Test("each language has its own ETag; a 304 repeats the ETag and Vary, with its request id", arguments: TestEngine.all)
    func etagPerLanguage(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 4}"#)
            let spanish = service.request("GET", "/v1/items/i", headers: ["Accept-Language": "es"])
            let english = service.request("GET", "/v1/items/i")
            let spanishTag = try #require(spanish.header("etag"))
            #expect(spanishTag != english.header("etag"))
            #expect(service.request("GET", "/v1/items/i", headers: ["Accept-Language": "es-AR"]).header("etag") == spanishTag)

            let notModified = service.request("GET", "/v1/items/i", headers: ["Accept-Language": "es", "If-None-Match": spanishTag])
            #expect(notModified.status == 304 && notModified.body.isEmpty)
            #expect(notModified.header("etag") == spanishTag && notModified.header("vary") == "Accept-Language")
            let named = service.request("GET", "/v1/items/i", headers: ["If-None-Match": "*", "X-Request-ID": "client-7"])
            #expect(named.status == 304 && named.header("x-request-id") == "client-7")
            let otherLanguage = service.request("GET", "/v1/items/i", headers: ["Accept-Language": "de", "If-None-Match": spanishTag])
            #expect(otherLanguage.status == 200, "a German client's cache never gets the Spanish body confirmed")

            let head = service.request("HEAD", "/v1/items/i", headers: ["Accept-Language": "es"])
            #expect(head.header("etag") == spanishTag && head.header("content-language") == "es")
        }
    }

    @Test("English stays exactly as docs/api.md writes it, with the three new fields after it")
    func englishExactly() async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/display?value=4&max=5", headers: ["Accept-Language": "en-GB"])
            #expect(response.text == #"{"value":4,"symbols":["star.fill","star.fill","star.fill","star.fill","star"],"fill":[1,1,1,1,0],"accessibilityLabel":"Rating","accessibilityValue":"4 out of 5 stars","caption":"Really good","layoutDirection":"leftToRight","halfStarFillsFrom":"left"}"#)
            #expect(response.header("content-language") == "en")
        }
    }

    @Test("answers without a display are not negotiated, and ignore lang")
    func operationsAreNotNegotiated() async throws {
        try await withAPI { service in
            let health = service.request("GET", "/healthz?lang=e!", headers: ["Accept-Language": "es"])
            #expect(health.status == 200 && health.header("content-language") == nil && health.header("vary") == nil)
            let problem = service.request("GET", "/v1/items/i/ratings/nobody", headers: ["Accept-Language": "es"])
            #expect(problem.status == 404 && problem.header("content-language") == nil)
        }
    }
}

/// The display object found by following `path` from the body's root.
private func display(_ response: RawHTTPClient.Response, at path: [String]) -> [String: Any] {
    path.reduce(object(response)) { ($0[$1] as? [String: Any]) ?? [:] }
}

private func expectDisplay(_ response: RawHTTPClient.Response, at path: [String], _ expected: LanguageSeedExample,
                           value: String, caption: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let shown = display(response, at: path)
    #expect(shown["accessibilityLabel"] as? String == expected.label, sourceLocation: sourceLocation)
    #expect(shown["accessibilityValue"] as? String == value, sourceLocation: sourceLocation)
    #expect(shown["caption"] as? String == caption, sourceLocation: sourceLocation)
    #expect(shown["layoutDirection"] as? String == expected.layoutDirection, sourceLocation: sourceLocation)
    #expect(shown["halfStarFillsFrom"] as? String == expected.halfStarFillsFrom, sourceLocation: sourceLocation)
    #expect(response.header("content-language") == expected.tag, sourceLocation: sourceLocation)
    #expect(response.header("vary") == "Accept-Language", sourceLocation: sourceLocation)
}
