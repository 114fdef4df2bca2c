import JSON
import HTTP1
import RatingsCore

/// Item summaries, one or many, and an item's scale.
extension RatingsAPI {
    /// Most ids one batch may ask for.
    static let maxBatch = 100

    func readSummary(item: String, _ language: WireLanguage) throws -> HTTPResponse {
        let summary = try store.summary(of: ItemID(item), defaultScale: configuration.defaultScale)
        return Responses.representation(in: language) { $0.summary(summary, into: &$1) }
    }

    func readSummaries(_ target: RequestTarget, _ language: WireLanguage) throws -> HTTPResponse {
        let values = target.rawQueryValues("ids")
        guard values.count == 1, let raw = values.first else {
            throw APIError.invalidQuery(values.isEmpty
                ? "Give the items as ids=a,b,c (1 to \(Self.maxBatch) identifiers)."
                : "Give ids exactly once, as one comma-separated list.")
        }
        let pieces = raw.split(separator: ",", omittingEmptySubsequences: false)
        guard pieces.count <= Self.maxBatch else {
            throw APIError.invalidQuery("ids lists \(pieces.count) identifiers; ask for at most \(Self.maxBatch) at a time.")
        }
        let items = try pieces.map { piece throws -> ItemID in
            guard let decoded = PercentDecoding.decode(piece) else {
                throw APIError.invalidQuery("ids has \(Self.quoted(piece)), whose percent-escapes do not decode to UTF-8.")
            }
            do {
                return try ItemID(decoded)
            } catch {
                throw APIError.invalidQuery("ids has \(Self.quoted(decoded)), which is not an identifier: it \(IdentifierRule.problem(with: decoded) ?? "is invalid"). Identifiers are 1 to \(IdentifierRule.maxLength) characters from \(IdentifierRule.alphabetDescription).")
            }
        }
        let summaries = try store.summaries(of: items, defaultScale: configuration.defaultScale)
        return Responses.representation(in: language) { $0.summaries(summaries, into: &$1) }
    }

    func configure(item: String, _ request: HTTPRequest, _ language: WireLanguage,
                   _ respond: @escaping @Sendable (HTTPResponse) -> Void) throws {
        let item = try ItemID(item)
        let body = try RequestBody.json(request)
        let scale: Scale
        switch RequestBody.integerMember("maxRating", of: body) {
        case .integer(let maxRating): scale = try Scale(maxRating: maxRating)
        case .other(let given): throw RatingError.scaleOutOfRange(given: given)
        }
        store.configure(ConfigureRequest(item: item, scale: scale), completion: complete(respond) { (outcome: ConfigureOutcome) in
            Responses.json(outcome.created ? 201 : 200, in: language) { $0.summary(outcome.summary, into: &$1) }
        })
    }

    /// A client-supplied value for an error detail: JSON-quoted and cut to a readable length.
    static func quoted<S: StringProtocol>(_ text: S) -> String {
        let cut = text.count > 140 ? String(text.prefix(140)) + "…" : String(text)
        return JSONText.quoted(cut)
    }
}
