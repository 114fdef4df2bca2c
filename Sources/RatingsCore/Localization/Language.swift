/// Everything one language needs to phrase a display: its words, plural rules, numbers and
/// direction. Loaded from `locales/<tag>.json`, never written in code. A class, so that handing
/// the language to every response costs one reference count, not one per field.
public final class Language: Sendable {
    /// The language's tag, lowercase (`en`, `es`, `ar`), as sent in `Content-Language`.
    public let tag: String
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

    /// How many captions a language gives: one per star of the five-star scale.
    static let captionCount = 5

    init(tag: String, name: String, layoutDirection: LayoutDirection, numbers: NumberStyle, pluralRules: PluralRules,
         pluralRuleSources: [PluralCategory: String], accessibilityLabel: String, notRated: String,
         outOf: [PluralCategory: MessageTemplate], captions: [String]) {
        self.tag = tag
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
}
