internal import JSON

extension Language {
    /// Reads one `locales/<tag>.json` file, checking everything a response will need from it,
    /// so a broken translation stops start-up instead of reaching a user.
    public static func load(file: String, json: String) throws(LanguageFileError) -> Language {
        let root: JSONValue
        do { root = try JSONParser.parse(Array(json.utf8)) } catch {
            throw LanguageFileError(file: file, problem: "is not valid JSON: \(error)")
        }
        let language: Language
        do { language = try parse(root) } catch { throw LanguageFileError(file: file, problem: error.message) }
        guard file == "\(language.tag).json" else {
            throw LanguageFileError(file: file, problem: "declares the language \"\(language.tag)\"; name the file \(language.tag).json")
        }
        return language
    }

    private static func parse(_ root: JSONValue) throws(LanguageFileError.Problem) -> Language {
        let tag = try Self.string("language", in: root).lowercased()
        let direction = try Self.string("layoutDirection", in: root)
        guard let layoutDirection = LayoutDirection(rawValue: direction) else {
            throw .init("layoutDirection must be \"leftToRight\" or \"rightToLeft\"; found \"\(direction)\"")
        }
        let numbers = root["numbers"] ?? .null
        let style = try NumberStyle(decimalSeparator: Self.string("decimalSeparator", in: numbers, at: "numbers."),
                                    digits: Self.string("digits", in: numbers, at: "numbers."))
        let ruleSources = try Self.categories("pluralRules", in: root)
        let rules: PluralRules
        do { rules = try PluralRules(ruleSources) } catch { throw .init("pluralRules: \(error.message)") }
        let sentences = try Self.categories("outOf", in: root)
        guard Set(sentences.keys) == rules.categories else {
            let names = { (set: Set<PluralCategory>) in set.map(\.rawValue).sorted().joined(separator: ", ") }
            throw .init("outOf must have one sentence for each plural category of pluralRules (\(names(rules.categories))); it has \(names(Set(sentences.keys)))")
        }
        var outOf: [PluralCategory: MessageTemplate] = [:]
        for (category, sentence) in sentences { outOf[category] = try MessageTemplate(sentence) }
        guard case .array(let captionValues) = root["captions"] ?? .null, captionValues.count == Self.captionCount else {
            throw .init("captions must be an array of \(Self.captionCount) strings, for one to five stars")
        }
        var captions: [String] = []
        for case .string(let caption) in captionValues where !caption.isEmpty { captions.append(caption) }
        guard captions.count == Self.captionCount else { throw .init("every caption must be a non-empty string") }

        return Language(tag: tag, name: try Self.string("name", in: root), layoutDirection: layoutDirection, numbers: style,
                        pluralRules: rules, pluralRuleSources: ruleSources, accessibilityLabel: try Self.string("accessibilityLabel", in: root),
                        notRated: try Self.string("notRated", in: root), outOf: outOf, captions: captions)
    }

    private static func string(_ key: String, in object: JSONValue, at path: String = "") throws(LanguageFileError.Problem) -> String {
        guard case .string(let value) = object[key] ?? .null, !value.isEmpty else {
            throw .init("\(path)\(key) must be a non-empty string")
        }
        return value
    }

    /// An object whose keys are plural categories and whose values are strings.
    private static func categories(_ key: String, in root: JSONValue) throws(LanguageFileError.Problem) -> [PluralCategory: String] {
        guard case .object(let members) = root[key] ?? .null else {
            throw .init("\(key) must be an object keyed by plural category (zero, one, two, few, many, other)")
        }
        var result: [PluralCategory: String] = [:]
        for (name, value) in members {
            guard let category = PluralCategory(rawValue: name) else {
                throw .init("\(key) has \"\(name)\", which is not a plural category (zero, one, two, few, many, other)")
            }
            guard case .string(let text) = value, result[category] == nil else {
                throw .init("\(key).\(name) must be a string, given once")
            }
            result[category] = text
        }
        return result
    }
}
