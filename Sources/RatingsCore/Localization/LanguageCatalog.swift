/// The languages the service speaks. The fallback comes first: it answers whenever the client
/// asks for nothing the catalog has.
public struct LanguageCatalog: Sendable {
    /// Every language, the fallback first, the rest in tag order.
    public let languages: [Language]
    /// Every tag, the fallback first: the order in which a `*` range is served.
    public let tags: [String]

    /// Builds a catalog, refusing two files for one tag or a fallback that is not among them.
    public init(_ languages: [Language], fallback: String) throws(LanguageFileError) {
        var seen = Set<String>()
        for language in languages where !seen.insert(language.tag).inserted {
            throw LanguageFileError(file: "\(language.tag).json", problem: "is given twice")
        }
        guard let first = languages.first(where: { $0.tag == fallback }) else {
            throw LanguageFileError(file: "\(fallback).json", problem: "is missing, and \(fallback) is the fallback language")
        }
        self.languages = [first] + languages.filter { $0.tag != fallback }.sorted { $0.tag < $1.tag }
        tags = self.languages.map(\.tag)
    }

    /// The languages compiled into the binary from `locales/*.json`, English as the fallback.
    public static func bundled() throws(LanguageFileError) -> LanguageCatalog {
        var languages: [Language] = []
        for file in embeddedLanguageFiles { languages.append(try Language.load(file: file.name, json: file.text)) }
        return try LanguageCatalog(languages, fallback: "en")
    }

    /// The language answered when nothing else fits.
    public var fallback: Language { languages[0] }

    /// The language with exactly this tag (any case).
    public func language(tagged tag: String) -> Language? {
        let tag = tag.lowercased()
        return languages.first { $0.tag == tag }
    }
}
