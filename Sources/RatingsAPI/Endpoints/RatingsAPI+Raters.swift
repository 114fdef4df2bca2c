import HTTP1
import RatingsCore

/// The rater's side: every rating of one rater, page by page, and account erasure.
extension RatingsAPI {
    /// Most ratings one page may hold, and how many it holds unless asked.
    static let pageLimits = (range: 1...100, standard: 20)

    /// `GET /v1/raters/{raterId}/ratings`: newest first, ties by item id, cursor pages.
    func listRatings(_ context: RequestContext) throws -> Reply {
        let rater = try services.access.account(context.parameter(.raterId), caller: context.identity())
        let language = try context.language()
        let limit = try context.target.integer("limit", in: Self.pageLimits.range, default: Self.pageLimits.standard)
        let position = try cursor(context, .raterRatings, boundTo: rater.rawValue).map { bytes in
            guard let position = CursorBytes.raterPosition(bytes) else { throw Self.badCursor }
            return position
        }
        let seal = CursorSeal(secret: store.cursorSecret)
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in store.ratings(by: rater, after: position, limit: limit, defaultScale: defaultScale, completion: $0) }) { page in
            let next = page.next.map { seal.seal(.raterRatings, boundTo: rater.rawValue, position: CursorBytes.raterPosition($0)) }
            return Responses.representation(in: language) { $0.raterPage(page, nextCursor: next, into: &$1) }
        }
    }

    /// `DELETE /v1/raters/{raterId}`: every rating of the rater removed, each item's aggregates
    /// with it, in one transaction.
    func eraseRater(_ context: RequestContext) throws -> Reply {
        let rater = try limited(services.access.account(context.parameter(.raterId), caller: context.identity()))
        return context.store({ [store] in store.erase(rater, completion: $0) }) { [metrics] cleared in
            metrics.ratingsCleared(cleared)
            return Responses.json(200) { WireFormat.erased(rater, cleared: cleared, into: &$0) }
        }
    }

    /// The refusal of a cursor the server did not issue.
    static let badCursor = APIError.invalidQuery("cursor was not issued by this server for this listing (it is malformed or was altered); start again without it.")

    /// The position inside the `cursor` parameter, nil when there is none; 400 for a cursor that
    /// is not one this server issued for this kind of listing (and this rater).
    func cursor(_ context: RequestContext, _ kind: CursorSeal.Kind, boundTo binding: String) throws -> [UInt8]? {
        guard let text = try context.target.single("cursor", rule: "pass the nextCursor of the previous page as it was given") else { return nil }
        guard let position = CursorSeal(secret: store.cursorSecret).open(text, kind, boundTo: binding) else { throw Self.badCursor }
        return position
    }
}
