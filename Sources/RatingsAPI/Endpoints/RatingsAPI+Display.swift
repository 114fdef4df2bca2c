import HTTP1
import RatingsCore

/// `/v1/display`: how any value looks on any scale; nothing is stored.
extension RatingsAPI {
    func display(_ context: RequestContext) throws -> Reply {
        let language = try context.language()
        let scale = try Scale(maxRating: context.target.integer("max", in: Scale.allowed, default: configuration.defaultScale.maxRating))
        let given = context.target.rawQueryValue("value")
        guard given.count == 1, let raw = given.first, !raw.isEmpty else {
            throw APIError.invalidQuery(given.count > 1
                ? "Give value exactly once."
                : "Give the value to display, e.g. /v1/display?value=3.5&max=5.")
        }
        guard let text = PercentDecoding.decode(raw) else {
            throw APIError.invalidQuery("value has a malformed percent-escape.")
        }
        return .now(displayRenderings.response(for: try DecimalInput.parse(text, on: scale), on: scale, in: language))
    }
}
