import HTTP1
import RatingsCore

/// Item summaries, one or many, and an item's scale.
extension RatingsAPI {
    /// Most ids one batch may ask for.
    static let maxBatch = 100

    func readSummary(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond) throws {
        let language = try context.language()
        let item = try ItemID(context.parameter("itemId"))
        store.summary(of: item, defaultScale: configuration.defaultScale, completion: context.reply(respond) { summary in
            Responses.representation(in: language) { $0.summary(summary, into: &$1) }
        })
    }

    func readSummaries(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond) throws {
        let language = try context.language()
        let values = context.target.rawQueryValues("ids")
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
                throw APIError.invalidQuery("ids has \(ErrorResponse.quoted(piece)), whose percent-escapes do not decode to UTF-8.")
            }
            do {
                return try ItemID(decoded)
            } catch {
                throw APIError.invalidQuery("ids has \(ErrorResponse.quoted(decoded)), which is not an identifier: it \(IdentifierRule.problem(with: decoded) ?? "is invalid"). Identifiers are 1 to \(IdentifierRule.maxLength) characters from \(IdentifierRule.alphabetDescription).")
            }
        }
        store.summaries(of: items, defaultScale: configuration.defaultScale, completion: context.reply(respond) { summaries in
            Responses.representation(in: language) { $0.summaries(summaries, into: &$1) }
        })
    }

    func configure(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond) throws {
        try services.access.requireAdmin(context.identity())
        let language = try context.language()
        let item = try ItemID(context.parameter("itemId"))
        let scale: Scale
        switch try RequestBody.integerMember("maxRating", of: RequestBody.json(context.request)) {
        case .integer(let maxRating): scale = try Scale(maxRating: maxRating)
        case .other(let given): throw RatingError.scaleOutOfRange(given: given)
        }
        store.configure(ConfigureRequest(item: item, scale: scale), completion: context.reply(respond) { outcome in
            Responses.json(outcome.created ? 201 : 200, in: language) { $0.summary(outcome.summary, into: &$1) }
        })
    }
}
