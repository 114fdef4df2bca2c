import JSON
import HTTP1
import RatingsCore

/// The JSON shapes of the API (Display, Summary, Rating, Cleared) in one language: the one place
/// where field names are written.
struct WireFormat {
    /// The language of the display's words and direction, with its members pre-rendered.
    let language: WireLanguage

    func display(_ display: Display, into json: inout JSONWriter) {
        if let whole = language.renderedWholeDisplay(of: display) { return json.value(whole) }
        // Every display's parts are rendered before; only one outside every scale would not be.
        let parts = language.renderedParts(of: display) ?? WireLanguage.DisplayParts(rendering: display, in: language.language)
        Self.display(display, parts: parts, into: &json)
    }

    /// A Display object: the value members and the language's members as rendered before (both
    /// follow from the rounded value and the scale alone), around the fill, which is written now.
    static func display(_ display: Display, parts: WireLanguage.DisplayParts, into json: inout JSONWriter) {
        json.beginObject()
        json.members(parts.valueMembers)
        json.key("fill"); json.beginArray()
        for share in display.fillHundredths { hundredths(share, into: &json) }
        json.endArray()
        json.members(parts.languageMembers)
        json.endObject()
    }

    /// A number of hundredths as a JSON number (`0.3`, `4.67`, `1`), copied from `hundredthsTexts`.
    static func hundredths(_ value: Int, into json: inout JSONWriter) {
        if hundredthsTexts.indices.contains(value) { json.value(hundredthsTexts[value]) } else { json.number(DecimalText.hundredths(value)) }
    }

    /// Every number of hundredths an answer writes, as JSON: a star's fill (0 to 100) and an
    /// average (up to the largest scale's top), made once, so an answer copies its numbers and
    /// formats none.
    private static let hundredthsTexts: [[UInt8]] = (0...Scale.allowed.upperBound * 100).map { Array(DecimalText.hundredths($0).utf8) }

    /// The members `write` writes, without the braces around them.
    static func members(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        write(&json)
        json.endObject()
        return json.innerBytes
    }

    /// The members of a Display that depend only on its rounded value and scale: `value`, `symbols`.
    static func valueMembers(of display: Display, into json: inout JSONWriter) {
        json.key("value"); json.number(display.valueText)
        json.key("symbols"); json.beginArray()
        for symbol in display.symbols { json.value(quoted(symbol)) }
        json.endArray()
    }

    /// A symbol's name as a JSON string, ready to copy: every star of every display is one.
    static func quoted(_ symbol: StarSymbol) -> StaticString {
        switch symbol {
        case .full: "\"star.fill\""
        case .half: "\"star.leadinghalf.filled\""
        case .empty: "\"star\""
        }
    }

    /// The members of a Display that depend on its language, in the order docs/api.md lists them.
    static func languageMembers(of display: Display, in language: Language, into json: inout JSONWriter) {
        json.key("accessibilityLabel"); json.string(language.accessibilityLabel)
        json.key("accessibilityValue"); json.string(language.accessibilityValue(of: display))
        json.key("caption"); json.string(language.caption(of: display))
        json.key("layoutDirection"); json.string(language.layoutDirection.rawValue)
        json.key("halfStarFillsFrom"); json.string(language.layoutDirection.leadingEdge.rawValue)
    }

    /// A Summary; `extra` writes members that follow the Summary's own (`myStars`, `score`).
    func summary(_ summary: ItemSummary, into json: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }) {
        json.beginObject()
        json.key("itemId"); json.string(summary.item.rawValue)
        json.key("maxRating"); json.integer(summary.scale.maxRating)
        json.key("count"); json.integer(summary.count)
        json.key("average")
        if let average = summary.averageHundredths { Self.hundredths(average, into: &json) } else { json.null() }
        json.key("distribution"); json.beginArray()
        for count in summary.distribution { json.integer(count) }
        json.endArray()
        json.key("reviewCount"); json.integer(summary.reviewCount)
        json.key("display"); display(summary.display, into: &json)
        extra(&json)
        json.endObject()
    }

    /// A Rating; with the item's Summary after a write. A write's Summary is written here rather
    /// than through `SummaryRenderings`: it is new, so caching it would mean hashing its ETag and
    /// replacing an entry on every write, for a read that may never come (a read renders and
    /// caches it itself).
    func rating(_ rating: Rating, summary: ItemSummary?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("itemId"); json.string(rating.item.rawValue)
        json.key("raterId"); json.string(rating.rater.rawValue)
        json.key("stars"); json.integer(rating.stars.count)
        json.key("updatedAt"); Timestamp.withRFC3339(milliseconds: rating.updatedAtMilliseconds) { json.string(utf8: $0) }
        json.key("display"); display(rating.display, into: &json)
        if let summary { json.key("summary"); self.summary(summary, into: &json) }
        json.endObject()
    }

    /// What clearing changed, with the item's Summary after it (written here, as after a rating).
    func cleared(_ outcome: ClearOutcome, item: ItemID, rater: RaterID, into json: inout JSONWriter) {
        json.beginObject()
        json.key("itemId"); json.string(item.rawValue)
        json.key("raterId"); json.string(rater.rawValue)
        json.key("cleared"); json.bool(outcome.cleared)
        json.key("summary"); summary(outcome.summary, into: &json)
        json.endObject()
    }

    /// A batch asked for by a rater: each summary with the rater's own `myStars`.
    func listingsWithStars(_ listings: [ItemListing], into json: inout JSONWriter) {
        json.beginObject()
        json.key("items"); json.beginArray()
        for listing in listings {
            summary(listing.summary, into: &json) { json in
                json.key("myStars")
                if let stars = listing.myStars { json.integer(stars.count) } else { json.null() }
            }
        }
        json.endArray()
        json.endObject()
    }

    /// A batch without a rater: `{"items":[…]}`, the entries written by `items` (summaries
    /// rendered before, copied in order with `value`).
    static func summaryList(into json: inout JSONWriter, _ items: (inout JSONWriter) -> Void) {
        json.beginObject()
        json.key("items"); json.beginArray()
        items(&json)
        json.endArray()
        json.endObject()
    }

    /// A page of a rater's ratings (each without its summary) and the cursor of the next page.
    func raterPage(_ page: RaterPage, nextCursor: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("ratings"); json.beginArray()
        for item in page.ratings { rating(item, summary: nil, into: &json) }
        json.endArray()
        json.key("nextCursor"); if let nextCursor { json.string(nextCursor) } else { json.null() }
        json.endObject()
    }

    /// What an erasure removed (no display, so no language).
    static func erased(_ rater: RaterID, _ erasure: Erasure, into json: inout JSONWriter) {
        json.beginObject()
        json.key("raterId"); json.string(rater.rawValue)
        json.key("cleared"); json.integer(erasure.ratings)
        json.key("reviews"); json.integer(erasure.reviews)
        json.key("votes"); json.integer(erasure.votes)
        json.key("flags"); json.integer(erasure.flags)
        json.endObject()
    }

    /// A Review; with the item's Summary after a write, with its flags in the moderation queue.
    func review(_ review: Review, summary: ItemSummary? = nil, flags: FlagCounts? = nil, into json: inout JSONWriter) {
        json.beginObject()
        json.key("itemId"); json.string(review.item.rawValue)
        json.key("raterId"); json.string(review.rater.rawValue)
        json.key("stars"); json.integer(review.stars.count)
        json.key("title"); if let title = review.title { json.string(title) } else { json.null() }
        json.key("body"); json.string(review.body)
        json.key("language"); if let language = review.language { json.string(language.description) } else { json.null() }
        json.key("createdAt"); Timestamp.withRFC3339(milliseconds: review.createdAtMilliseconds) { json.string(utf8: $0) }
        json.key("updatedAt"); Timestamp.withRFC3339(milliseconds: review.updatedAtMilliseconds) { json.string(utf8: $0) }
        json.key("status"); json.string(review.status.rawValue)
        json.key("helpful"); json.beginObject()
        json.key("up"); json.integer(review.votes.up)
        json.key("down"); json.integer(review.votes.down)
        json.endObject()
        json.key("reply")
        if let reply = review.reply {
            json.beginObject()
            json.key("body"); json.string(reply.body)
            json.key("author"); if let author = reply.author { json.string(author) } else { json.null() }
            json.key("updatedAt"); Timestamp.withRFC3339(milliseconds: reply.updatedAtMilliseconds) { json.string(utf8: $0) }
            json.endObject()
        } else {
            json.null()
        }
        json.key("display"); display(review.display, into: &json)
        if let summary { json.key("summary"); self.summary(summary, into: &json) }
        if let flags { json.key("flags"); WireFormat.flags(flags, into: &json) }
        json.endObject()
    }

    /// Flags by reason: every reason, in a fixed order, 0 where there are none.
    static func flags(_ flags: FlagCounts, into json: inout JSONWriter) {
        json.beginObject()
        for reason in FlagReason.allCases {
            json.key(memberName(of: reason)); json.integer(flags[reason])
        }
        json.endObject()
    }

    /// A reason as a member name (`FlagReason.rawValue`, as the writer takes names).
    private static func memberName(of reason: FlagReason) -> StaticString {
        switch reason {
        case .spam: "spam"
        case .offensive: "offensive"
        case .offTopic: "off-topic"
        case .personalInformation: "personal-information"
        case .fake: "fake"
        case .other: "other"
        }
    }

    /// A flag's answer (no display, so no language): `reason` null once withdrawn.
    static func flag(item: ItemID, rater: RaterID, flagger: RaterID, reason: FlagReason?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("itemId"); json.string(item.rawValue)
        json.key("raterId"); json.string(rater.rawValue)
        json.key("flaggerId"); json.string(flagger.rawValue)
        json.key("reason"); if let reason { json.string(reason.rawValue) } else { json.null() }
        json.endObject()
    }

    /// A review's moderation: status, flags by reason, history oldest first.
    static func moderation(_ record: ModerationRecord, into json: inout JSONWriter) {
        json.beginObject()
        json.key("status"); json.string(record.status.rawValue)
        json.key("flags"); flags(record.flags, into: &json)
        json.key("history"); json.beginArray()
        for entry in record.history {
            json.beginObject()
            json.key("status"); json.string(entry.status.rawValue)
            json.key("previous"); json.string(entry.previous.rawValue)
            json.key("reason"); if let reason = entry.reason { json.string(reason) } else { json.null() }
            json.key("moderator"); if let moderator = entry.moderator { json.string(moderator) } else { json.null() }
            json.key("at"); Timestamp.withRFC3339(milliseconds: entry.atMilliseconds) { json.string(utf8: $0) }
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// A page of the moderation queue: each Review with its flags, and the next page's cursor.
    func queuePage(_ page: ModerationQueuePage, nextCursor: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("reviews"); json.beginArray()
        for entry in page.entries { review(entry.review, flags: entry.flags, into: &json) }
        json.endArray()
        json.key("nextCursor"); if let nextCursor { json.string(nextCursor) } else { json.null() }
        json.endObject()
    }

    /// A page of reviews (an item's or a rater's) and the cursor of the next page.
    func reviewPage(_ reviews: [Review], nextCursor: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("reviews"); json.beginArray()
        for item in reviews { review(item, into: &json) }
        json.endArray()
        json.key("nextCursor"); if let nextCursor { json.string(nextCursor) } else { json.null() }
        json.endObject()
    }

    /// A vote's answer: the vote (`helpful` null once withdrawn) and the review after it.
    func vote(_ outcome: VoteOutcome, voter: RaterID, helpful: Bool?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("itemId"); json.string(outcome.review.item.rawValue)
        json.key("raterId"); json.string(outcome.review.rater.rawValue)
        json.key("voterId"); json.string(voter.rawValue)
        json.key("helpful"); if let helpful { json.bool(helpful) } else { json.null() }
        json.key("review"); review(outcome.review, into: &json)
        json.endObject()
    }

    /// A page of the ranking: each summary with its score, and the cursor of the next page.
    func ranking(_ page: RankingPage, settings: RankingSettings, nextCursor: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("items"); json.beginArray()
        for item in page.items {
            summary(item, into: &json) { json in
                json.key("score"); json.number(BayesianScore(item, settings)?.text ?? settings.priorText)
            }
        }
        json.endArray()
        json.key("nextCursor"); if let nextCursor { json.string(nextCursor) } else { json.null() }
        json.endObject()
    }

    /// The admin route's answer: each endpoint in force with its outbox rows and latest error.
    static func webhookStatus(_ endpoints: [WebhookEndpoint], totals: [String: DeliveryTotals], into json: inout JSONWriter) {
        json.beginObject()
        json.key("endpoints"); json.beginArray()
        for endpoint in endpoints {
            let counts = totals[endpoint.id] ?? DeliveryTotals()
            json.beginObject()
            json.key("id"); json.string(endpoint.id)
            json.key("url"); json.string(endpoint.displayURL)
            json.key("pending"); json.integer(counts.pending)
            json.key("delivered"); json.integer(counts.delivered)
            json.key("failed"); json.integer(counts.failed)
            json.key("lastError")
            if let error = counts.lastError {
                json.beginObject()
                json.key("at"); Timestamp.withRFC3339(milliseconds: error.atMilliseconds) { json.string(utf8: $0) }
                if let status = error.status { json.key("status"); json.integer(status) }
                if let text = error.error { json.key("error"); json.string(text) }
                json.endObject()
            } else {
                json.null()
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }
}
