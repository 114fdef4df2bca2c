/// Everything one language needs to phrase a display: its words, plural rules, numbers and
/// direction. Loaded from `locales/<tag>.json`, never written in code. A class, so that handing
/// the language to every response costs one reference count, not one per field.
public final class Language: Sendable {
    /// The language's tag, lowercase (`en`, `zh-hans`, `ar-sa`): how it is looked up.
    public let tag: String
    /// The tag as sent in `Content-Language`, in BCP 47's conventional case (`zh-Hans`, `ar-SA`).
    public let contentTag: String
    /// The language's name for itself (`Español`).
    public let name: String
    /// Which way the language runs, and so which way a row of stars runs.
    public let layoutDirection: LayoutDirection
    /// How the language writes the value and the scale.
    public let numbers: NumberStyle
    /// Which form of "out of N stars" each N takes.
    public let pluralRules: PluralRules
    /// The rules as the file writes them, CLDR samples included, for checking against them.
    public let pluralRuleSources: [PluralCategory: String]
    /// What VoiceOver says first ("Rating").
    public let accessibilityLabel: String
    /// What VoiceOver says for a value of 0 ("Not rated").
    let notRated: String
    /// "3.5 out of 5 stars", one sentence per plural category of the scale.
    let outOf: [PluralCategory: MessageTemplate]
    /// One caption per whole star on a five-star scale, from one star up.
    let captions: [String]
    /// Tags this language also answers, lowercase (`nb` answers `no` and `nn`).
    public let answersFor: [String]
    /// The regions whose numbers differ from the language's (CLDR's default numbering system and
    /// decimal separator for `ar-SA`), by region code as written (`SA`, `419`).
    public let regions: [String: NumberStyle]

    /// How many captions a language gives: one per star of the five-star scale.
    static let captionCount = 5

    init(tag: String, name: String, layoutDirection: LayoutDirection, numbers: NumberStyle, pluralRules: PluralRules,
         pluralRuleSources: [PluralCategory: String], accessibilityLabel: String, notRated: String,
         outOf: [PluralCategory: MessageTemplate], captions: [String], answersFor: [String] = [], regions: [String: NumberStyle] = [:]) {
        self.tag = tag.lowercased()
        contentTag = tag
        self.answersFor = answersFor.map { $0.lowercased() }
        self.regions = regions
        self.name = name
        self.layoutDirection = layoutDirection
        self.numbers = numbers
        self.pluralRules = pluralRules
        self.pluralRuleSources = pluralRuleSources
        self.accessibilityLabel = accessibilityLabel
        self.notRated = notRated
        self.outOf = outOf
        self.captions = captions
    }

    /// The language as spoken in `region`: the same words and rules, the region's numbers, and
    /// the region in its tag (`ar` in `SA` is `ar-SA`). It answers no other tags.
    public func inRegion(_ region: String, numbers: NumberStyle) -> Language {
        Language(tag: "\(contentTag)-\(region)", name: name, layoutDirection: layoutDirection, numbers: numbers, pluralRules: pluralRules,
                 pluralRuleSources: pluralRuleSources, accessibilityLabel: accessibilityLabel, notRated: notRated, outOf: outOf,
                 captions: captions)
    }
}
