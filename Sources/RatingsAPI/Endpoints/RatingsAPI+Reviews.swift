import ASCIIKit
import HTTP1
import JSON
import RatingsCore

/// Reviews: one rater's words beside their stars, an item's list of them, and helpfulness votes.
extension RatingsAPI {
    /// What a review body looks like, for the details of a body of the wrong shape.
    static let reviewShape = "{\"stars\": 4, \"title\": \"…\", \"body\": \"…\", \"language\": \"en\"}"

    /// `GET /v1/items/{itemId}/reviews/{raterId}`: the review in any status to its author and to
    /// moderators (without tokens, to anyone who names it); only a published one to everyone else.
    func readReview(_ context: RequestContext) throws -> Reply {
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let caller = try context.identityIfGiven()
        let rater = try services.access.named(context.parameter(.raterId), caller: caller)
        let mayReadUnpublished = services.access.mayReadUnpublished(of: rater, caller: caller)
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in store.review(of: item, by: rater, defaultScale: defaultScale, completion: $0) }) { review in
            guard let review, review.status == .published || mayReadUnpublished else { throw ReviewError.reviewNotFound(item: item, rater: rater) }
            return Responses.representation(in: language) { $0.review(review, into: &$1) }
        }
    }

    /// `PUT /v1/items/{itemId}/reviews/{raterId}`: the rating and the text in one transaction.
    /// The text rules run first (they need no store); stars off the item's scale are refused
    /// inside the write, and stars that are no integer at all after a read of the scale, to name it.
    func writeReview(_ context: RequestContext) throws -> Reply {
        let rater = try limited(services.access.rater(context.parameter(.raterId), caller: context.identity()))
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let defaultScale = configuration.defaultScale
        let body = try RequestBody.json(context.request)
        let text = try ReviewTextRule.body.clean(RequestBody.stringMember("body", of: body, shape: Self.reviewShape)) ?? ""
        let title = try ReviewTextRule.title.clean(RequestBody.stringMember("title", of: body, shape: Self.reviewShape))
        let tag = try RequestBody.stringMember("language", of: body, shape: Self.reviewShape)
            .map { $0.trimmingSpacesAndTabs() }
            .flatMap { $0.isEmpty ? nil : try LanguageTag($0) }
        switch RequestBody.integerMember("stars", of: body) {
        case .integer(let stars):
            let request = ReviewWriteRequest(item: item, rater: rater, stars: stars, title: title, body: text, language: tag,
                                             defaultScale: defaultScale, policy: configuration.moderation,
                                             nowMilliseconds: services.clock.wallMilliseconds())
            return context.store({ [store] in store.writeReview(request, completion: $0) }) { [metrics] outcome in
                metrics.reviewsWritten()
                return Responses.json(outcome.created ? 201 : 200, in: language) { $0.review(outcome.review, summary: outcome.summary, into: &$1) }
            }
        case let problem:
            return refusing(problem, stars: item, context)
        }
    }

    /// `DELETE /v1/items/{itemId}/reviews/{raterId}`: the text with its votes; the rating stays.
    func removeReview(_ context: RequestContext) throws -> Reply {
        let rater = try limited(services.access.rater(context.parameter(.raterId), caller: context.identity()))
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let request = ClearRequest(item: item, rater: rater, defaultScale: configuration.defaultScale,
                                   nowMilliseconds: services.clock.wallMilliseconds())
        return context.store({ [store] in store.removeReview(request, completion: $0) }) { [metrics] outcome in
            if outcome.cleared { metrics.reviewsRemoved() }
            return Responses.json(200, in: language) { $0.cleared(outcome, item: item, rater: rater, into: &$1) }
        }
    }

    /// `GET /v1/items/{itemId}/reviews`: published reviews in one of four orders, filtered by
    /// stars and language, in cursor pages bound to the item, the order and the filter.
    func listReviews(_ context: RequestContext) throws -> Reply {
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let sort = try context.target.single("sort", rule: Self.sortRule).map { text in
            guard let sort = ReviewSort(rawValue: text) else { throw APIError.invalidQuery("sort \(ErrorResponse.quoted(text)) is not an order; \(Self.sortRule).") }
            return sort
        } ?? .newest
        let filter = ReviewFilter(stars: try Self.starsFilter(context.target.rawQueryValues("stars")), language: try Self.languageFilter(context.target))
        let limit = try context.target.integer("limit", in: Self.pageLimits.range, default: Self.pageLimits.standard)
        let binding = "\(item.rawValue)\n\(sort.rawValue)\n\(filter.canonicalText)"
        let cursor = try sealedCursor(context, .itemReviews, boundTo: binding, decode: CursorBytes.reviewPosition)
        let position = cursor?.position
        // The version is taken before the read, so a page kept under it is never newer than it says.
        let version = store.reviewListVersion(of: item)
        let key = ReviewPageRenderings.Key(item: item, query: binding + "\n\(limit)\n" + (cursor?.text ?? ""), language: ObjectIdentifier(language))
        if let version, let kept = reviewPages.response(key, version: version) { return .now(kept) }
        let seal = CursorSeal(secret: store.cursorSecret)
        let defaultScale = configuration.defaultScale
        return context.store({ [store] in
            store.reviews(of: item, sort: sort, filter: filter, after: position, limit: limit, defaultScale: defaultScale, completion: $0)
        }) { [reviewPages] page in
            let next = page.next.map { seal.seal(.itemReviews, boundTo: binding, position: CursorBytes.reviewPosition($0)) }
            let response = Responses.representation(in: language) { $0.reviewPage(page.reviews, nextCursor: next, into: &$1) }
            if let version { reviewPages.keep(response, for: key, version: version) }
            return response
        }
    }

    private static let sortRule = "sort is one of newest (the default), helpful, highest, lowest"

    /// The star counts of a `stars` filter, in the forms a batch's ids come in (commas, `%2C`,
    /// repeated parameters); each an integer from 1 to 10.
    static func starsFilter(_ values: [String]) throws -> Set<Int> {
        var stars = Set<Int>()
        for value in values {
            guard let decoded = PercentDecoding.decode(value) else {
                throw APIError.invalidQuery("stars has \(ErrorResponse.quoted(value)), whose percent-escapes do not decode to UTF-8.")
            }
            for piece in decoded.split(separator: ",", omittingEmptySubsequences: false) {
                guard let count = ASCII.integer(piece, in: Scale.allowed) else {
                    throw APIError.invalidQuery("stars has \(ErrorResponse.quoted(piece)); give star counts from \(Scale.allowed.lowerBound) to \(Scale.allowed.upperBound), as stars=4,5 or stars=4&stars=5.")
                }
                stars.insert(count)
            }
        }
        return stars
    }

    /// The `language` filter: a BCP 47 tag or its leading subtags; 400 otherwise.
    private static func languageFilter(_ target: RequestTarget) throws -> LanguageTag? {
        let rule = "language is a BCP 47 tag or its first subtags, such as en or pt-BR"
        guard let text = try target.single("language", rule: rule) else { return nil }
        do {
            return try LanguageTag(text)
        } catch {
            throw APIError.invalidQuery("language \(ErrorResponse.quoted(text)) is not a language tag; \(rule).")
        }
    }

    /// `PUT` and `DELETE /v1/items/{itemId}/reviews/{raterId}/reply`: the item owner's one public
    /// answer to a published review, replaced by the next, removed by `DELETE`.
    func reply(_ context: RequestContext, removing: Bool) throws -> Reply {
        let caller = try context.identity()
        let author = try services.access.replier(caller)
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let rater = try services.access.named(context.parameter(.raterId), caller: caller)
        let body = removing ? nil
            : try ReviewTextRule.reply.clean(RequestBody.stringMember("body", of: RequestBody.json(context.request), shape: "{\"body\": \"Thank you!\"}"))
        let request = ReplyRequest(item: item, rater: rater, body: body, author: author, nowMilliseconds: services.clock.wallMilliseconds())
        return context.store({ [store] in store.reply(request, completion: $0) }) { outcome in
            Responses.json(outcome.created ? 201 : 200, in: language) { $0.review(outcome.review, into: &$1) }
        }
    }

    /// `PUT` and `DELETE /v1/items/{itemId}/reviews/{raterId}/votes/{voterId}`: one vote per
    /// voter per review, replaced by the next, withdrawn by `DELETE` (`helpful` nil).
    func vote(_ context: RequestContext, withdrawing: Bool) throws -> Reply {
        let caller = try context.identity()
        let voter = try limited(services.access.rater(context.parameter(.voterId), caller: caller))
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let author = try services.access.named(context.parameter(.raterId), caller: caller)
        let helpful = withdrawing ? nil : try RequestBody.booleanMember("helpful", of: RequestBody.json(context.request), shape: "{\"helpful\": true}")
        let request = VoteRequest(item: item, rater: author, voter: voter, helpful: helpful)
        return context.store({ [store] in store.vote(request, completion: $0) }) { [metrics] outcome in
            if let helpful { metrics.reviewVoted(helpful: helpful) }
            return Responses.json(outcome.created ? 201 : 200, in: language) { $0.vote(outcome, voter: voter, helpful: helpful, into: &$1) }
        }
    }
}
