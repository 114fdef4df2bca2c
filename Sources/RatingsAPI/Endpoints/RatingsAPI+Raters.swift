import HTTP1
import RatingsCore

/// The rater's side: every rating of one rater, page by page, and account erasure.
extension RatingsAPI {
    /// `GET /v1/raters/{raterId}/ratings`: newest first, ties by item id, cursor pages.
    func listRatings(_ context: RequestContext) throws -> Reply {
        let rater = try services.access.account(context.parameter(.raterId), caller: context.identity())
        let language = try context.language()
        let limit = try context.target.integer("limit", in: Self.pageLimits.range, default: Self.pageLimits.standard)
        let position = try cursor(context, .raterRatings, boundTo: rater.rawValue, decode: CursorBytes.raterPosition)
        let seal = CursorSeal(secret: store.cursorSecret)
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in store.ratings(by: rater, after: position, limit: limit, defaultScale: defaultScale, completion: $0) }) { page in
            let next = page.next.map { seal.seal(.raterRatings, boundTo: rater.rawValue, position: CursorBytes.raterPosition($0)) }
            return Responses.representation(in: language) { $0.raterPage(page, nextCursor: next, into: &$1) }
        }
    }

    /// `GET /v1/raters/{raterId}/reviews`: the rater's reviews in every status, newest change
    /// first, ties by item id, cursor pages.
    func listRaterReviews(_ context: RequestContext) throws -> Reply {
        let rater = try services.access.account(context.parameter(.raterId), caller: context.identity())
        let language = try context.language()
        let limit = try context.target.integer("limit", in: Self.pageLimits.range, default: Self.pageLimits.standard)
        let position = try cursor(context, .raterReviews, boundTo: rater.rawValue, decode: CursorBytes.raterPosition)
        let seal = CursorSeal(secret: store.cursorSecret)
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in store.reviews(by: rater, after: position, limit: limit, defaultScale: defaultScale, completion: $0) }) { page in
            let next = page.next.map { seal.seal(.raterReviews, boundTo: rater.rawValue, position: CursorBytes.raterPosition($0)) }
            return Responses.representation(in: language) { $0.reviewPage(page.reviews, nextCursor: next, into: &$1) }
        }
    }

    /// `DELETE /v1/raters/{raterId}`: every rating and review of the rater and every vote they
    /// gave removed, each item's aggregates and each review's counts with them, in one transaction.
    func eraseRater(_ context: RequestContext) throws -> Reply {
        let rater = try limited(services.access.account(context.parameter(.raterId), caller: context.identity()))
        return context.store({ [store] in store.erase(rater, completion: $0) }) { [metrics] erasure in
            metrics.ratingsCleared(erasure.ratings)
            metrics.reviewsRemoved(erasure.reviews)
            return Responses.json(200) { WireFormat.erased(rater, erasure, into: &$0) }
        }
    }
}
