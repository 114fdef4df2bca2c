import HTTP1
import RatingsCore

/// Flags, moderators' decisions and the moderation queue.
extension RatingsAPI {
    /// What a flag's body looks like, for the details of a body of the wrong shape.
    static let flagShape = "{\"reason\": \"spam\", \"note\": \"…\"}"

    /// `PUT` and `DELETE /v1/items/{itemId}/reviews/{raterId}/flags/{flaggerId}`: one flag per
    /// flagger per review, replaced by the next, withdrawn by `DELETE` (`reason` null). Flags
    /// share the flagger's write limit.
    func flag(_ context: RequestContext, withdrawing: Bool) throws -> Reply {
        let caller = try context.identity()
        let flagger = try limited(services.access.rater(context.parameter(.flaggerId), caller: caller))
        let item = try ItemID(context.parameter(.itemId))
        let author = try services.access.named(context.parameter(.raterId), caller: caller)
        let body = withdrawing ? nil : try RequestBody.json(context.request)
        let reason = try body.map { try Self.flagReason(RequestBody.stringMember("reason", of: $0, shape: Self.flagShape)) }
        let note = try body.flatMap { try ReviewTextRule.flagNote.clean(RequestBody.stringMember("note", of: $0, shape: Self.flagShape)) }
        let request = FlagRequest(item: item, rater: author, flagger: flagger, reason: reason, note: note, policy: configuration.moderation,
                                  nowMilliseconds: services.clock.wallMilliseconds())
        return context.store({ [store] in store.flag(request, completion: $0) }) { [metrics] outcome in
            if let reason { metrics.reviewFlagged(reason) }
            return Responses.json(outcome.created ? 201 : 200) {
                WireFormat.flag(item: item, rater: author, flagger: flagger, reason: reason, into: &$0)
            }
        }
    }

    private static func flagReason(_ text: String?) throws -> FlagReason {
        guard let text else { throw APIError.invalidMember("The body has no \"reason\" member; give one of \(FlagReason.listed).") }
        guard let reason = FlagReason(rawValue: text) else {
            throw APIError.invalidMember("reason \(ErrorResponse.quoted(text)) is not a reason; give one of \(FlagReason.listed).")
        }
        return reason
    }

    /// `GET /v1/items/{itemId}/reviews/{raterId}/moderation`: the review's status, flags and
    /// history, to moderators.
    func readModeration(_ context: RequestContext) throws -> Reply {
        let caller = try context.identity()
        _ = try services.access.moderator(caller, operation: "Reading a review's moderation")
        let item = try ItemID(context.parameter(.itemId))
        let rater = try services.access.named(context.parameter(.raterId), caller: caller)
        return context.store({ [store] in store.moderation(of: item, by: rater, completion: $0) }) { record in
            guard let record else { throw ReviewError.reviewNotFound(item: item, rater: rater) }
            return Responses.representation { WireFormat.moderation(record, into: &$0) }
        }
    }

    /// `PUT /v1/items/{itemId}/reviews/{raterId}/moderation`: a moderator's decision, recorded
    /// with its reason, the moderator and the time.
    func moderate(_ context: RequestContext) throws -> Reply {
        let caller = try context.identity()
        let moderator = try services.access.moderator(caller, operation: "Moderating reviews")
        let item = try ItemID(context.parameter(.itemId))
        let rater = try services.access.named(context.parameter(.raterId), caller: caller)
        let body = try RequestBody.json(context.request)
        let shape = "{\"status\": \"published\", \"reason\": \"…\"}"
        let status = try Self.decision(RequestBody.stringMember("status", of: body, shape: shape))
        let reason = try ReviewTextRule.moderationReason.clean(RequestBody.stringMember("reason", of: body, shape: shape))
        let request = ModerationRequest(item: item, rater: rater, status: status, reason: reason, moderator: moderator,
                                        nowMilliseconds: services.clock.wallMilliseconds())
        return context.store({ [store] in store.moderate(request, completion: $0) }) { [metrics] outcome in
            metrics.moderationDecided(status)
            return Responses.json(200) { WireFormat.moderation(outcome.record, into: &$0) }
        }
    }

    private static func decision(_ text: String?) throws -> ReviewStatus {
        let rule = "give status as published or rejected (a review becomes pending only by itself: new under pre-moderation, edited, or flagged)"
        guard let text else { throw APIError.invalidMember("The body has no \"status\" member; \(rule).") }
        guard let status = ReviewStatus(rawValue: text), status != .pending else {
            throw APIError.invalidMember("status \(ErrorResponse.quoted(text)) is not a decision; \(rule).")
        }
        return status
    }

    /// `GET /v1/moderation/queue`: pending reviews of every item, longest waiting first, each
    /// with its flags, in cursor pages.
    func moderationQueue(_ context: RequestContext) throws -> Reply {
        _ = try services.access.moderator(context.identity(), operation: "Reading the moderation queue")
        let language = try context.language()
        let limit = try context.target.integer("limit", in: Self.pageLimits.range, default: Self.pageLimits.standard)
        let position = try cursor(context, .moderationQueue, boundTo: "", decode: CursorBytes.queuePosition)
        let seal = CursorSeal(secret: store.cursorSecret)
        return context.store({ [store] in store.moderationQueue(after: position, limit: limit, completion: $0) }) { page in
            let next = page.next.map { seal.seal(.moderationQueue, boundTo: "", position: CursorBytes.queuePosition($0)) }
            return Responses.representation(in: language) { $0.queuePage(page, nextCursor: next, into: &$1) }
        }
    }
}
