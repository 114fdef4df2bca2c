import HTTP1
import Locking
import RatingsCore

/// Chooses the language of a response: the `lang` query parameter when given, otherwise
/// `Accept-Language`, otherwise the catalog's fallback (English). A class, so a request reaches
/// it, and the catalog it holds, through one reference.
final class LanguageNegotiator: Sendable {
    private let catalog: LanguageCatalog
    /// The catalog's languages, in its order (the fallback first), ready for the wire.
    let wireLanguages: [WireLanguage]
    /// The regional languages (`ar-SA`), each made ready the first time a request asks for it:
    /// there are more of them than languages, most never asked for, and each ready language
    /// holds every display it can answer, rendered. Once made, one stays for the negotiator's
    /// life, so caches may key on its identity.
    private let regional: [Locked<WireLanguage?>]
    /// The catalog's tags and aliases, for lookup.
    private let tags: LanguageTags
    /// The language each `Accept-Language` value chose, by the value: phones send a few
    /// distinct values over and over, and reading one (ranges, weights, lookup) costs more than
    /// the rest of a cached summary's answer. Bounded, so values nobody repeats only churn it.
    private let chosenByField = ShardedCache<String, WireLanguage>(capacity: 4_096)

    init(_ catalog: LanguageCatalog) {
        self.catalog = catalog
        tags = LanguageTags(catalog.tags, aliases: catalog.aliases)
        wireLanguages = catalog.languages.map(WireLanguage.init)
        regional = catalog.regional.map { _ in Locked(nil) }
    }

    /// The fallback language.
    var fallback: WireLanguage { wireLanguages[0] }

    /// The language with position `index` in the catalog's tags.
    private func wireLanguage(at index: Int) -> WireLanguage {
        if index < wireLanguages.count { return wireLanguages[index] }
        let position = index - wireLanguages.count
        return regional[position].withLock { ready in
            if let ready { return ready }
            let made = WireLanguage(catalog.regional[position])
            ready = made
            return made
        }
    }

    func negotiate(_ request: HTTPRequest, _ target: RequestTarget) throws -> WireLanguage {
        let given = target.rawQueryValue("lang")
        if let raw = given.first {
            let rule = "lang must be one language tag such as es or es-MX: subtags of 1 to 8 letters or digits joined by hyphens, at most \(LanguageRange.maxLength) characters"
            guard given.count == 1 else { throw APIError.invalidQuery("Give lang at most once; \(rule).") }
            // iOS writes locale identifiers with underscores (es_MX); read them as the tag they mean.
            guard let tag = PercentDecoding.decode(raw)?.replacing("_", with: "-"), LanguageRange.isWellFormed(tag) else {
                throw APIError.invalidQuery("\(rule); got \(ErrorResponse.quoted(PercentDecoding.decode(raw) ?? raw)).")
            }
            // One well-formed tag is a one-range Accept-Language, so both take the same lookup.
            return wireLanguage(at: AcceptLanguage(tag)?.lookup(in: tags) ?? 0)
        }
        // Several Accept-Language lines form one comma-separated list (RFC 9110 §5.3); a garbled
        // field is ignored, as RFC 9110 §12.5.4 allows, rather than refused.
        let lines = request.headers.values("accept-language")
        if lines.isEmpty { return fallback }
        let field = lines.count == 1 ? lines[0] : lines.joined(separator: ",")
        return chosenByField.value(of: field) { wireLanguage(at: AcceptLanguage(field)?.lookup(in: tags) ?? 0) }
    }
}
