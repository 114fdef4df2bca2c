import HTTP1
import RatingsCore

/// `GET /v1/rankings/top`: the best-rated items by Bayesian score, page by page.
extension RatingsAPI {
    func topRanked(_ context: RequestContext) throws -> Reply {
        let language = try context.language()
        let limit = try context.target.integer("limit", in: Self.pageLimits.range, default: Self.pageLimits.standard)
        let minCount = try context.target.integer("minCount", in: 1...1_000_000_000, default: 1)
        let position = try cursor(context, .ranking, boundTo: "", decode: CursorBytes.rankingPosition)
        let seal = CursorSeal(secret: store.cursorSecret)
        let settings = configuration.ranking
        return context.store({ [store] in store.topRanked(after: position, limit: limit, minCount: minCount, completion: $0) }) { page in
            let next = page.next.map { seal.seal(.ranking, boundTo: "", position: CursorBytes.rankingPosition($0)) }
            return Responses.representation(in: language) { $0.ranking(page, settings: settings, nextCursor: next, into: &$1) }
        }
    }
}
