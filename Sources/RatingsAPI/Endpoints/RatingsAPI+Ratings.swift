import HTTP1
import RatingsCore

/// One rater's rating: submit or replace, clear, read.
extension RatingsAPI {
    func submit(item: String, rater: RaterID, _ request: HTTPRequest, _ language: WireLanguage,
                _ respond: @escaping @Sendable (HTTPResponse) -> Void) throws {
        let item = try ItemID(item)
        let body = try RequestBody.json(request)
        switch RequestBody.integerMember("stars", of: body) {
        case .integer(let stars):
            let submission = SubmitRequest(item: item, rater: rater, stars: stars,
                                           defaultScale: configuration.defaultScale, nowMilliseconds: Clock.wallMilliseconds())
            store.submit(submission, completion: complete(respond) { [metrics] (outcome: SubmitOutcome) in
                metrics.ratingWritten()
                return Responses.json(outcome.created ? 201 : 200, in: language) {
                    $0.rating(outcome.rating, summary: outcome.summary, into: &$1)
                }
            })
        case .other(let given):
            // The allowed range depends on the item, so read its scale to name the range.
            let scale = try store.summary(of: item, defaultScale: configuration.defaultScale).scale
            throw RatingError.starsOutOfRange(given: given, scale: scale)
        }
    }

    func clear(item: String, rater: RaterID, _ language: WireLanguage, _ respond: @escaping @Sendable (HTTPResponse) -> Void) throws {
        let item = try ItemID(item)
        let request = ClearRequest(item: item, rater: rater, defaultScale: configuration.defaultScale)
        store.clear(request, completion: complete(respond) { [metrics] (outcome: ClearOutcome) in
            if outcome.cleared { metrics.ratingCleared() }
            return Responses.json(200, in: language) { $0.cleared(outcome, item: item, rater: rater, into: &$1) }
        })
    }

    func readRating(item: String, rater: RaterID, _ language: WireLanguage) throws -> HTTPResponse {
        let item = try ItemID(item)
        guard let rating = try store.rating(of: item, by: rater, defaultScale: configuration.defaultScale) else {
            throw RatingError.ratingNotFound(item: item, rater: rater)
        }
        return Responses.representation(in: language) { $0.rating(rating, summary: nil, into: &$1) }
    }
}
