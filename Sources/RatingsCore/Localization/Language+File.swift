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
        guard file == "\(language.contentTag).json" else {
            throw LanguageFileError(file: file, problem: "declares the language \"\(language.contentTag)\"; name the file \(language.contentTag).json")
        }
        return language
    }

    private static func parse(_ root: JSONValue) throws(LanguageFileError.Problem) -> Language {
        let tag = try Self.string("language", in: root)
        _ = try Self.string("reviewers", in: root) // who reviews the words: required, read by people
        let direction = try Self.string("layoutDirection", in: root)
        guard let layoutDirection = LayoutDirection(rawValue: direction) else {
            throw .init("layoutDirection must be \"leftToRight\" or \"rightToLeft\"; found \"\(direction)\"")
        }
        let numbers = root["numbers"] ?? .null
        let style = try Self.numberStyle(numbers, at: "numbers.")
        var regions: [String: NumberStyle] = [:]
        if let given = root["regions"] {
            guard case .object(let members) = given else { throw .init("regions must be an object of region codes and their numbers") }
            for (region, value) in members {
                guard (2...3).contains(region.count), region.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
                    throw .init("regions has \"\(region)\", which is not a region code such as SA or 419")
                }
                regions[region] = try Self.numberStyle(value, at: "regions.\(region).")
            }
        }
        var answersFor: [String] = []
        if let given = root["answersFor"] {
            guard case .array(let values) = given else { throw .init("answersFor must be an array of language tags") }
            for case .string(let alias) in values where !alias.isEmpty { answersFor.append(alias) }
            guard answersFor.count == values.count else { throw .init("answersFor must hold non-empty language tags") }
        }
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
                        notRated: try Self.string("notRated", in: root), outOf: outOf, captions: captions, answersFor: answersFor,
                        regions: regions)
    }

    private static func numberStyle(_ object: JSONValue, at path: String) throws(LanguageFileError.Problem) -> NumberStyle {
        let separator = try Self.string("decimalSeparator", in: object, at: path), digits = try Self.string("digits", in: object, at: path)
        do { return try NumberStyle(decimalSeparator: separator, digits: digits) } catch { throw .init(path + error.message) }
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
