import HTTP1
import RatingsCore

/// One rater's rating: read, submit or replace, clear.
extension RatingsAPI {
    func readRating(_ context: RequestContext) throws -> Reply {
        let rater = try services.access.rater(context.parameter(.raterId), caller: context.identity())
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in store.rating(of: item, by: rater, defaultScale: defaultScale, completion: $0) }) { rating in
            guard let rating else { throw RatingError.ratingNotFound(item: item, rater: rater) }
            return Responses.representation(in: language) { $0.rating(rating, summary: nil, into: &$1) }
        }
    }

    func submit(_ context: RequestContext) throws -> Reply {
        let rater = try limited(services.access.rater(context.parameter(.raterId), caller: context.identity()))
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let defaultScale = configuration.defaultScale
        switch try RequestBody.integerMember("stars", of: RequestBody.json(context.request)) {
        case .integer(let stars):
            let submission = SubmitRequest(item: item, rater: rater, stars: stars, defaultScale: defaultScale,
                                           nowMilliseconds: services.clock.wallMilliseconds())
            return context.store({ [store] in store.submit(submission, completion: $0) }) { [metrics] outcome in
                metrics.ratingsWritten()
                return Responses.json(outcome.created ? 201 : 200, in: language) { $0.rating(outcome.rating, summary: outcome.summary, into: &$1) }
            }
        case let problem:
            return refusing(problem, stars: item, context)
        }
    }

    /// The refusal of a `stars` member that is no integer from 1 to the item's scale: the scale
    /// depends on the item, so it is read first, to name the range.
    func refusing(_ problem: RequestBody.IntegerMember, stars item: ItemID, _ context: RequestContext) -> Reply {
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in store.summary(of: item, defaultScale: defaultScale, completion: $0) }) { summary in
            throw RequestBody.failure("stars", problem, must: "an integer from 1 to \(summary.scale.maxRating) (this item's maxRating)") {
                RatingError.starsOutOfRange(given: $0, scale: summary.scale)
            }
        }
    }

    func clear(_ context: RequestContext) throws -> Reply {
        let rater = try limited(services.access.rater(context.parameter(.raterId), caller: context.identity()))
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let request = ClearRequest(item: item, rater: rater, defaultScale: configuration.defaultScale,
                                   nowMilliseconds: services.clock.wallMilliseconds())
        return context.store({ [store] in store.clear(request, completion: $0) }) { [metrics] outcome in
            if outcome.cleared { metrics.ratingsCleared() }
            if outcome.removedReview { metrics.reviewsRemoved() }
            return Responses.json(200, in: language) { $0.cleared(outcome, item: item, rater: rater, into: &$1) }
        }
    }

    /// Lets a rater's write through the rate limit, or refuses it with 429.
    func limited(_ rater: RaterID) throws -> RaterID {
        if let limiter = configuration.writeLimiter, let wait = limiter.admit(rater.rawValue, now: services.clock.monotonicSeconds()) {
            throw APIError.tooManyRequests(retryAfter: wait)
        }
        return rater
    }
}
