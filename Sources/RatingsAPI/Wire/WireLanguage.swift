import HTTP1
import JSON
import RatingsCore

/// A language ready for the wire: the language, and the JSON of the Display members that follow
/// from the rounded value for every scale and value (120 per language), rendered once so a
/// response copies bytes instead of phrasing and escaping five strings per display.
final class WireLanguage: Sendable {
    /// The members of one rounded value's Display on one scale, rendered without braces.
    struct DisplayParts: Sendable {
        /// `value` and `symbols`.
        let valueMembers: [UInt8]
        /// The members in this language (the VoiceOver strings, the caption, the direction).
        let languageMembers: [UInt8]

        init(rendering display: Display, in language: Language) {
            valueMembers = WireFormat.members { WireFormat.valueMembers(of: display, into: &$0) }
            languageMembers = WireFormat.members { WireFormat.languageMembers(of: display, in: language, into: &$0) }
        }
    }

    let language: Language
    /// The fields of a JSON answer in this language (`Responses.json(_:in:_:)`), made once and
    /// shared: an answer carries them as they are. A list copies its fields before it changes them.
    let jsonFields: HTTPHeaders
    /// By scale, then by half steps.
    private let parts: [[DisplayParts]]
    /// Whole Display objects of whole-star values (every rating, and averages that are whole), by
    /// scale, then by stars (0 for not rated).
    private let wholeDisplays: [[[UInt8]]]

    init(_ language: Language) {
        self.language = language
        jsonFields = Responses.jsonFields(in: language)
        parts = Scale.allowed.map { maxRating in
            // Every scale in Scale.allowed is valid, so the fallback is never taken.
            guard let scale = try? Scale(maxRating: maxRating) else { return [] }
            return (0...2 * maxRating).map { halves in
                DisplayParts(rendering: Display(ExactValue(thousandths: halves * 500), on: scale), in: language)
            }
        }
        let parts = parts
        wholeDisplays = Scale.allowed.map { maxRating in
            guard let scale = try? Scale(maxRating: maxRating) else { return [] }
            return (0...maxRating).map { stars in
                var json = JSONWriter(capacity: 384)
                WireFormat.display(Display(ExactValue(thousandths: stars * 1000), on: scale),
                                   parts: parts[maxRating - Scale.allowed.lowerBound][2 * stars], into: &json)
                return json.bytes
            }
        }
    }

    /// The rendered Display object of `display` when its value is a whole number of stars and its
    /// fill follows (1 up to the value, 0 after); nil otherwise.
    func renderedWholeDisplay(of display: Display) -> [UInt8]? {
        guard display.halfSteps % 2 == 0 else { return nil }
        let stars = display.halfSteps / 2
        for (index, fill) in display.fillHundredths.enumerated() where fill != (index < stars ? 100 : 0) { return nil }
        let byScale = display.scale.maxRating - Scale.allowed.lowerBound
        guard wholeDisplays.indices.contains(byScale), wholeDisplays[byScale].indices.contains(stars) else { return nil }
        return wholeDisplays[byScale][stars]
    }

    /// The rendered parts of `display`; nil only for a display outside every scale.
    func renderedParts(of display: Display) -> DisplayParts? {
        let byScale = display.scale.maxRating - Scale.allowed.lowerBound
        guard parts.indices.contains(byScale), parts[byScale].indices.contains(display.halfSteps) else { return nil }
        return parts[byScale][display.halfSteps]
    }
}
