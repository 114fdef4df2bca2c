import ASCIIKit
import HTTP1
import RatingsCore

/// `/v1/display`: how any value looks on any scale; nothing is stored.
extension RatingsAPI {
    func display(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond) throws {
        let language = try context.language()
        let scale = try maxParameter(context.target.rawQueryValues("max"))
        let values = context.target.rawQueryValues("value")
        guard values.count == 1, let raw = values.first, !raw.isEmpty else {
            throw APIError.invalidQuery(values.count > 1
                ? "Give value exactly once."
                : "Give the value to display, e.g. /v1/display?value=3.5&max=5.")
        }
        guard let text = PercentDecoding.decode(raw) else {
            throw APIError.invalidQuery("value has a malformed percent-escape.")
        }
        let display = Display(try DecimalInput.parse(text, on: scale), on: scale)
        respond(Responses.representation(in: language) { $0.display(display, into: &$1) })
    }

    /// `max`: decimal digits only, 1 to 10; absent means the server default.
    private func maxParameter(_ values: [String]) throws -> Scale {
        guard let raw = values.first else { return configuration.defaultScale }
        let limits = "max must be an integer from \(Scale.allowed.lowerBound) to \(Scale.allowed.upperBound) written in decimal digits"
        guard values.count == 1 else { throw APIError.invalidQuery("Give max at most once; \(limits).") }
        guard let number = ASCII.integer(raw, in: Scale.allowed), let scale = try? Scale(maxRating: number)
        else { throw APIError.invalidQuery("\(limits); got \(ErrorResponse.quoted(raw)).") }
        return scale
    }
}
