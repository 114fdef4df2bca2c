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
    /// One caption per whole star on a five-star scale, from one star up.
    let captions: [String]
    /// Every `accessibilityValue` this language can say, by scale and then by half steps: there
    /// are only 120 (scales 1 to 10, values 0 to max in halves), so they are phrased once at load
    /// and a response only looks its phrase up.
    private let phrases: [[String]]

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
        self.captions = captions
        phrases = Scale.allowed.map { max in
            // The noun agrees with the scale ("of 1 star", "of 5 stars"), so the scale picks the form.
            let sentence = outOf[pluralRules.category(of: PluralOperands(max))] ?? outOf[.other]
            let maxText = numbers.format(String(max))
            return (0...2 * max).map { halves in
                guard halves > 0, let sentence else { return notRated }
                return sentence.render(value: numbers.format(DecimalText.halfSteps(halves)), max: maxText)
            }
        }
    }

    /// The phrase for a value of `halfSteps` halves on a scale of `maxRating` stars.
    func phrase(maxRating: Int, halfSteps: Int) -> String? {
        guard phrases.indices.contains(maxRating - 1), phrases[maxRating - 1].indices.contains(halfSteps) else { return nil }
        return phrases[maxRating - 1][halfSteps]
    }
}
