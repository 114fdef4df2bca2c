import RatingsCore
import Testing

private func review(stars: Int = 4, body: String = "Good.", status: ReviewStatus = .published) -> Review {
    Review(item: ItemID(stored: "soup"), rater: RaterID(stored: "u-1"), stars: Stars(stored: stars), scale: .standard, title: nil, body: body,
           language: nil, status: status, createdAtMilliseconds: 1, updatedAtMilliseconds: 1, votes: .none)
}

@Suite("Change events: types, patterns, which writes emit what, the retry schedule, the webhooks file")
struct EventTests {
    @Test("a pattern is a type, a family with .*, or *; anything else is refused")
    func patterns() throws {
        let family = try #require(EventPattern("review.*"))
        #expect(family.matches(.reviewPublished) && family.matches(.reviewCreated) && !family.matches(.ratingCreated))
        #expect(try #require(EventPattern("*")).matches(.raterErased))
        #expect(try #require(EventPattern("item.configured")).matches(.itemConfigured))
        for text in ["review", "reviews.*", "rating.deleted", "**", "", "rating.*x"] { #expect(EventPattern(text) == nil, "\(text)") }
        #expect(EventType.allCases.count == 12 && Set(EventType.allCases.map(\.family)) == ["rating", "review", "item", "rater"])
    }

    @Test("which events each write emits; one that changes nothing emits none")
    func rules() {
        #expect(EventRules.submit(previous: nil, new: 4, reviewed: false) == [.ratingCreated])
        #expect(EventRules.submit(previous: 4, new: 4, reviewed: true).isEmpty)
        #expect(EventRules.submit(previous: 3, new: 4, reviewed: true) == [.ratingUpdated, .reviewUpdated])
        #expect(EventRules.clear(cleared: true, removedReview: true) == [.ratingCleared, .reviewRemoved])
        #expect(EventRules.clear(cleared: false, removedReview: false).isEmpty)
        let text = ReviewText(title: nil, body: "Good.", language: nil)
        #expect(EventRules.writeReview(previousStars: nil, newStars: 4, replacing: nil, text: text, change: nil) == [.ratingCreated, .reviewCreated])
        #expect(EventRules.writeReview(previousStars: 2, newStars: 4, replacing: nil, text: text, change: nil) == [.ratingUpdated, .reviewCreated])
        #expect(EventRules.writeReview(previousStars: 4, newStars: 4, replacing: review(), text: text, change: nil).isEmpty)
        let edited = ModerationEntry(status: .pending, previous: .published, reason: "edited", moderator: nil, atMilliseconds: 2)
        #expect(EventRules.writeReview(previousStars: 4, newStars: 4, replacing: review(), text: ReviewText(title: nil, body: "New.", language: nil),
                                       change: edited) == [.reviewUpdated, .reviewPending])
        #expect(EventRules.decision(ModerationEntry(status: .rejected, previous: .rejected, reason: nil, moderator: "m", atMilliseconds: 1)).isEmpty)
        #expect(EventRules.decision(ModerationEntry(status: .published, previous: .pending, reason: nil, moderator: "m", atMilliseconds: 1))
                == [.reviewPublished])
        let explicit = SummaryRow(maxRating: 5, isScaleExplicit: true, count: 0, sum: 0, distribution: PerStar(length: 10) { _ in 0 }, reviewCount: 0)
        #expect(EventRules.configure(before: explicit, scale: .standard).isEmpty)
        #expect(EventRules.configure(before: explicit, scale: try! Scale(maxRating: 10)) == [.itemConfigured])
        #expect(EventRules.configure(before: nil, scale: .standard) == [.itemConfigured])
    }

    @Test("retries after 5 s, 30 s, 2 min, 10 min, 30 min, then hourly, within 24 h of the first attempt; Retry-After up to an hour wins")
    func retrySchedule() {
        let first: Int64 = 1_000_000
        let delays = (1...8).map { attempts in (RetrySchedule.next(afterAttempts: attempts, firstAttemptMilliseconds: first, nowMilliseconds: first) ?? 0) - first }
        #expect(delays == [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000, 3_600_000])
        let late = first + 23 * 3_600_000 + 1
        #expect(RetrySchedule.next(afterAttempts: 20, firstAttemptMilliseconds: first, nowMilliseconds: late) == nil)
        #expect(RetrySchedule.next(afterAttempts: 20, firstAttemptMilliseconds: first, nowMilliseconds: late - 2) == first + 24 * 3_600_000 - 1)
        #expect(RetrySchedule.next(afterAttempts: 1, firstAttemptMilliseconds: first, nowMilliseconds: first, retryAfterSeconds: 90) == first + 90_000)
        #expect(RetrySchedule.next(afterAttempts: 1, firstAttemptMilliseconds: first, nowMilliseconds: first, retryAfterSeconds: 7_200) == first + 5_000)
    }

    @Test("the webhooks file: endpoints read; every mistake named without the secret")
    func configuration() throws {
        let good = #"{"endpoints": [{"id": "crm", "url": "https://user:pw@hooks.example/in?x=1", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["rating.*", "review.published"]}]}"#
        let endpoints = try WebhookConfiguration.endpoints(from: Array(good.utf8))
        #expect(endpoints.count == 1 && endpoints[0].secret.count == 24 && endpoints[0].wants(.ratingCleared) && !endpoints[0].wants(.reviewCreated))
        #expect(endpoints[0].displayURL == "https://hooks.example/in?x=1")
        let cases: [(String, String)] = [
            (#"{"endpoints": {}}"#, "\"endpoints\" array"),
            (#"{"endpoints": [{"id": "a b", "url": "http://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#, "id must be"),
            (#"{"endpoints": [{"id": "a", "url": "ftp://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#, "url must be"),
            (#"{"endpoints": [{"id": "a", "url": "http://", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#, "url must be"),
            (#"{"endpoints": [{"id": "a", "url": "http://h", "secret": "whsec_c2hvcnQ=", "events": ["*"]}]}"#, "24 to 64"),
            (#"{"endpoints": [{"id": "a", "url": "http://h", "secret": "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#, "whsec_"),
            (#"{"endpoints": [{"id": "a", "url": "http://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": []}]}"#, "non-empty"),
            (#"{"endpoints": [{"id": "a", "url": "http://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["rating.gone"]}]}"#, "no event type"),
            (#"{"endpoints": [{"id": "a", "url": "http://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}, {"id": "a", "url": "http://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#, "used twice"),
            ("{", "not JSON"),
        ]
        for (text, expected) in cases {
            do {
                _ = try WebhookConfiguration.endpoints(from: Array(text.utf8))
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
                #expect(!error.description.contains("MfKQ9r8G"))
            }
        }
    }

    @Test("an event as the outbox stores it reads back the same; a line it did not write reads as nothing")
    func storedForm() throws {
        let summary = ItemSummary(item: ItemID(stored: "soup"), scale: try Scale(maxRating: 10), count: 3, sum: 17,
                                  distribution: PerStar([0, 0, 0, 0, 1, 0, 0, 1, 0, 1]), reviewCount: 2)
        let item = ChangeEvent(type: .reviewPending, atMilliseconds: 1_764_000_000_123, subject: .item(ItemChange(
            item: ItemID(stored: "soup"), rater: RaterID(stored: "u-1"), stars: 8, status: .pending, version: 42, summary: summary)))
        let cleared = ChangeEvent(type: .ratingCleared, atMilliseconds: 5, subject: .item(ItemChange(
            item: ItemID(stored: "soup"), rater: RaterID(stored: "u-2"), stars: nil, status: nil, version: 43, summary: summary)))
        let erased = ChangeEvent(type: .raterErased, atMilliseconds: 6,
                                 subject: .rater(RaterID(stored: "u-3"), Erasure(ratings: 4, reviews: 1, votes: 2, flags: 3)))
        for event in [item, cleared, erased] {
            #expect(ChangeEvent(stored: event.stored) == event)
            #expect(event.stored.utf8.count < 120)
        }
        for line in ["", "i\trating.created\t5", "x\trating.created\t5\ta", "i\tnope\t5\tsoup\t\t\t\t1\t5\t0\t0\t0,0,0,0,0\t0"] {
            #expect(ChangeEvent(stored: line) == nil)
        }
    }
}
