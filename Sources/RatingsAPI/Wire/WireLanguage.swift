import JSON
import RatingsCore

/// A language ready for the wire: the language, and the JSON of its Display members for every
/// scale and value (120 per language), rendered once so a response copies bytes instead of
/// phrasing and escaping five strings per display.
final class WireLanguage: Sendable {
    let language: Language
    /// By scale, then by half steps.
    private let members: [[[UInt8]]]

    init(_ language: Language) {
        self.language = language
        members = Scale.allowed.map { maxRating in
            // Every scale in Scale.allowed is valid, so the fallback is never taken.
            guard let scale = try? Scale(maxRating: maxRating) else { return [] }
            return (0...2 * maxRating).map { halves in
                var json = JSONWriter(capacity: 256)
                json.beginObject()
                WireFormat.languageMembers(of: Display(ExactValue(thousandths: halves * 500), on: scale), in: language, into: &json)
                json.endObject()
                return Array(json.bytes.dropFirst().dropLast()) // the members without their braces
            }
        }
    }

    /// The rendered members for `display`; nil only for a display outside every scale.
    func renderedMembers(of display: Display) -> [UInt8]? {
        let byScale = display.scale.maxRating - Scale.allowed.lowerBound
        guard members.indices.contains(byScale), members[byScale].indices.contains(display.halfSteps) else { return nil }
        return members[byScale][display.halfSteps]
    }
}
