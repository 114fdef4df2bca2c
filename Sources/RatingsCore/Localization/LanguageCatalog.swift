/// The languages the service speaks. The fallback comes first: it answers whenever the client
/// asks for nothing the catalog has.
public struct LanguageCatalog: Sendable {
    /// Every language a file defines, the fallback first, the rest in tag order.
    public let languages: [Language]
    /// Every language as spoken in a region whose numbers differ (`ar-SA`), in tag order.
    public let regional: [Language]
    /// Every tag (lowercase) the catalog answers with: the languages' first, the fallback leading
    /// (the order in which a `*` range is served), then the regional ones.
    public let tags: [String]
    /// Tags answered by another language (lowercase): `no` → `nb`, `zh-tw` → `zh-hant`.
    public let aliases: [String: String]

    /// Builds a catalog, refusing two files for one tag, a tag answered twice, and a fallback
    /// that is not among them.
    public init(_ languages: [Language], fallback: String) throws(LanguageFileError) {
        var seen = Set<String>()
        for language in languages where !seen.insert(language.tag).inserted {
            throw LanguageFileError(file: "\(language.contentTag).json", problem: "is given twice")
        }
        guard let first = languages.first(where: { $0.tag == fallback }) else {
            throw LanguageFileError(file: "\(fallback).json", problem: "is missing, and \(fallback) is the fallback language")
        }
        self.languages = [first] + languages.filter { $0.tag != fallback }.sorted { $0.tag < $1.tag }
        // A region with a file of its own (pt-PT) is that file's.
        regional = self.languages.flatMap { language in
            language.regions.map { language.inRegion($0.key, numbers: $0.value) }.filter { !seen.contains($0.tag) }
        }.sorted { $0.tag < $1.tag }
        tags = (self.languages + regional).map(\.tag)
        var aliases: [String: String] = [:]
        for language in self.languages {
            for alias in language.answersFor {
                guard !tags.contains(alias), aliases[alias] == nil else {
                    throw LanguageFileError(file: "\(language.contentTag).json", problem: "answersFor has \(alias), which another language already answers")
                }
                aliases[alias] = language.tag
            }
        }
        self.aliases = aliases
    }

    /// The languages compiled into the binary from `locales/*.json`, English as the fallback.
    public static func bundled() throws(LanguageFileError) -> LanguageCatalog {
        var languages: [Language] = []
        for file in embeddedLanguageFiles { languages.append(try Language.load(file: file.name, json: file.text)) }
        return try LanguageCatalog(languages, fallback: "en")
    }

    /// The language answered when nothing else fits.
    public var fallback: Language { languages[0] }

    /// The language, or regional language, with exactly this tag (any case).
    public func language(tagged tag: String) -> Language? {
        let tag = tag.lowercased()
        return languages.first { $0.tag == tag } ?? regional.first { $0.tag == tag }
    }
}
