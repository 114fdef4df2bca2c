import RatingsCore
import TestSupport
import Testing

private let five = Scale.standard

private func item(_ name: String) -> ItemID { ItemID(stored: name) }
private func rater(_ name: String) -> RaterID { RaterID(stored: name) }

@discardableResult
private func write(_ store: any ReviewStore, _ itemName: String, _ raterName: String, _ stars: Int, body: String = "Good.",
                   title: String? = nil, language: String? = nil, at time: Int64 = 1) async throws -> ReviewWriteOutcome {
    try await store.writeReview(ReviewWriteRequest(item: item(itemName), rater: rater(raterName), stars: stars, title: title, body: body,
                                                   language: try language.map { try LanguageTag($0) }, defaultScale: five,
                                                   policy: .standard, nowMilliseconds: time))
}

@discardableResult
private func vote(_ store: any ReviewStore, _ itemName: String, _ author: String, _ voter: String, _ helpful: Bool?) async throws -> VoteOutcome {
    try await store.vote(VoteRequest(item: item(itemName), rater: rater(author), voter: rater(voter), helpful: helpful))
}

/// Every page of an item's reviews in `sort`, followed cursor by cursor.
private func allPages(_ store: any ReviewStore, _ itemName: String, _ sort: ReviewSort, filter: ReviewFilter = .none,
                      limit: Int) async throws -> [Review] {
    var seen: [Review] = [], position: ReviewPosition?
    repeat {
        let page = try await store.reviews(of: item(itemName), sort: sort, filter: filter, after: position, limit: limit)
        #expect(page.reviews.count <= limit)
        seen += page.reviews
        position = page.next
    } while position != nil
    return seen
}

@Suite("Every engine: reviews, their lists and helpfulness votes")
struct ReviewContractTests {
    @Test("a review writes the rating with it: 201 first even over a rating, 200 after; createdAt kept; reviewCount moves",
          arguments: TestEngine.all)
    func writeAndReplace(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("u-1"), stars: 2, defaultScale: five, nowMilliseconds: 5))
            let first = try await write(store, "soup", "u-1", 4, body: "Broth.", title: "Soup", language: "en-gb", at: 10)
            #expect(first.created && first.review.stars.count == 4 && first.review.title == "Soup" && first.review.language?.description == "en-GB")
            #expect(first.summary.count == 1 && first.summary.sum == 4 && first.summary.reviewCount == 1)
            let second = try await write(store, "soup", "u-1", 5, body: "Better broth.", at: 20)
            #expect(!second.created && second.review.createdAtMilliseconds == 10 && second.review.updatedAtMilliseconds == 20)
            #expect(second.review.title == nil && second.review.body == "Better broth." && second.summary.reviewCount == 1)
            #expect(second.summary.sum == 5 && second.summary.count == 1)
            let read = try await store.review(of: item("soup"), by: rater("u-1"))
            #expect(read == second.review)
            #expect(try await store.summary(of: item("soup"), defaultScale: five).reviewCount == 1)
        }
    }

    @Test("stars through the rating route keep the text and restar the review; clearing the rating removes the review",
          arguments: TestEngine.all)
    func ratingRouteAndClear(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "u-1", 4, body: "Broth.", at: 10)
            try await vote(store, "soup", "u-1", "u-2", true)
            _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("u-1"), stars: 2, defaultScale: five, nowMilliseconds: 30))
            let restarred = try await store.review(of: item("soup"), by: rater("u-1"))
            #expect(restarred?.stars.count == 2 && restarred?.body == "Broth." && restarred?.updatedAtMilliseconds == 30)
            #expect(restarred?.votes == HelpfulVotes(up: 1, down: 0))
            let lowest = try await store.reviews(of: item("soup"), sort: .lowest, limit: 5)
            #expect(lowest.reviews.map(\.stars.count) == [2])
            let cleared = try await store.clear(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 0))
            #expect(cleared.cleared && cleared.removedReview && cleared.summary.count == 0 && cleared.summary.reviewCount == 0)
            #expect(try await store.review(of: item("soup"), by: rater("u-1")) == nil)
            // A new review starts without the old one's votes.
            let again = try await write(store, "soup", "u-1", 3, at: 40)
            #expect(again.created && again.review.votes == .none)
        }
    }

    @Test("removing a review keeps the rating; a second removal clears nothing", arguments: TestEngine.all)
    func removeKeepsRating(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "u-1", 4)
            let removed = try await store.removeReview(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 0))
            #expect(removed.cleared && removed.summary.count == 1 && removed.summary.reviewCount == 0)
            let again = try await store.removeReview(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 0))
            #expect(!again.cleared && again.summary.count == 1)
            let never = try await store.removeReview(ClearRequest(item: item("nothing"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 0))
            #expect(!never.cleared && never.summary.count == 0)
            #expect(try await store.rating(of: item("soup"), by: rater("u-1"), defaultScale: five)?.stars.count == 4)
        }
    }

    @Test("stars off the item's scale are refused and nothing is written", arguments: TestEngine.all)
    func starsOffScale(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            await #expect(throws: RatingError.self) { try await write(store, "soup", "u-1", 6) }
            let summary = try await store.summary(of: item("soup"), defaultScale: five)
            let review = try await store.review(of: item("soup"), by: rater("u-1"))
            #expect(summary.count == 0 && review == nil)
        }
    }

    @Test("votes: one per voter, replaced, withdrawn; not on one's own review; not on a missing one", arguments: TestEngine.all)
    func votes(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "author", 4)
            let first = try await vote(store, "soup", "author", "v-1", true)
            #expect(first.created && first.review.votes == HelpfulVotes(up: 1, down: 0))
            let replaced = try await vote(store, "soup", "author", "v-1", false)
            #expect(!replaced.created && replaced.review.votes == HelpfulVotes(up: 0, down: 1))
            try await vote(store, "soup", "author", "v-2", true)
            let withdrawn = try await vote(store, "soup", "author", "v-1", nil)
            #expect(!withdrawn.created && withdrawn.review.votes == HelpfulVotes(up: 1, down: 0))
            let twice = try await vote(store, "soup", "author", "v-1", nil)
            #expect(!twice.created && twice.review.votes == HelpfulVotes(up: 1, down: 0))
            await #expect(throws: ReviewError.ownReview(rater: rater("author"))) { try await vote(store, "soup", "author", "author", true) }
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("nobody"))) {
                try await vote(store, "soup", "nobody", "v-1", true)
            }
            #expect(try await store.review(of: item("soup"), by: rater("author"))?.votes == HelpfulVotes(up: 1, down: 0))
        }
    }

    @Test("the four orders, ties by createdAt then rater, page after page without repeats or gaps", arguments: TestEngine.all)
    func orders(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            // 30 reviews; times and stars repeat so that every tie-break is exercised.
            for index in 0..<30 {
                try await write(store, "soup", "r-\(index < 10 ? "0" : "")\(index)", index % 5 + 1, language: ["en", "en-GB", "de", "pt-BR"][index % 4],
                                at: Int64(index / 4))
            }
            try await write(store, "other", "r-00", 5)
            for voter in 0..<6 { try await vote(store, "soup", "r-03", "v-\(voter)", voter < 5) }
            for voter in 0..<2 { try await vote(store, "soup", "r-07", "v-\(voter)", true) }
            try await vote(store, "soup", "r-11", "v-0", false)
            let model = InMemoryRatingStore()
            for index in 0..<30 {
                try await write(model, "soup", "r-\(index < 10 ? "0" : "")\(index)", index % 5 + 1, language: ["en", "en-GB", "de", "pt-BR"][index % 4],
                                at: Int64(index / 4))
            }
            for voter in 0..<6 { try await vote(model, "soup", "r-03", "v-\(voter)", voter < 5) }
            for voter in 0..<2 { try await vote(model, "soup", "r-07", "v-\(voter)", true) }
            try await vote(model, "soup", "r-11", "v-0", false)
            for sort in ReviewSort.allCases {
                let all = try await allPages(store, "soup", sort, limit: 30)
                #expect(all.count == 30)
                for limit in [1, 4, 7] {
                    #expect(try await allPages(store, "soup", sort, limit: limit) == all, "\(sort) in pages of \(limit)")
                }
                #expect(all == (try await allPages(model, "soup", sort, limit: 30)), "\(sort) as the model orders it")
                for (a, b) in zip(all, all.dropFirst()) { #expect(ReviewPosition(a, sort).isFollowed(by: b, in: sort), "\(sort)") }
            }
            let helpful = try await allPages(store, "soup", .helpful, limit: 3)
            #expect(helpful.prefix(3).map(\.rater.rawValue) == ["r-03", "r-07", "r-28"])
            let newest = try await allPages(store, "soup", .newest, limit: 30)
            #expect(newest.prefix(3).map(\.rater.rawValue) == ["r-28", "r-29", "r-24"])
        }
    }

    @Test("filters: stars as a set, language as a prefix on subtags, case-insensitive; with every order and cursor",
          arguments: TestEngine.all)
    func filters(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let languages: [String?] = ["en", "en-GB", "eng", "de", nil, "EN-us"]
            for index in 0..<24 {
                try await write(store, "soup", "r-\(index < 10 ? "0" : "")\(index)", index % 5 + 1, language: languages[index % 6], at: Int64(index))
            }
            let english = ReviewFilter(stars: [], language: try LanguageTag("EN"))
            let fourFive = ReviewFilter(stars: [4, 5], language: nil)
            let both = ReviewFilter(stars: [4, 5], language: try LanguageTag("en"))
            for sort in ReviewSort.allCases {
                let en = try await allPages(store, "soup", sort, filter: english, limit: 3)
                #expect(Set(en.compactMap { $0.language?.description }) == ["en", "en-GB", "en-US"], "\(sort)")
                #expect(en.count == 12)
                let stars = try await allPages(store, "soup", sort, filter: fourFive, limit: 2)
                #expect(stars.allSatisfy { [4, 5].contains($0.stars.count) } && stars.count == 9, "\(sort)")
                let combined = try await allPages(store, "soup", sort, filter: both, limit: 2)
                #expect(combined == en.filter { [4, 5].contains($0.stars.count) }, "\(sort)")
            }
        }
    }

    @Test("a rater's reviews newest change first, ties by item, in pages", arguments: TestEngine.all)
    func raterReviews(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for index in 0..<13 { try await write(store, "item-\(index < 10 ? "0" : "")\(index)", "u-1", 3, at: Int64(index / 3)) }
            try await write(store, "item-00", "someone-else", 3, at: 100)
            var seen: [Review] = [], position: RaterPagePosition?
            repeat {
                let page = try await store.reviews(by: rater("u-1"), after: position, limit: 4)
                seen += page.reviews
                position = page.next
            } while position != nil
            #expect(seen.count == 13 && seen.allSatisfy { $0.rater == rater("u-1") })
            #expect(seen.prefix(2).map(\.item.rawValue) == ["item-12", "item-09"])
            #expect(seen.map(\.item.rawValue) == seen.sorted { a, b in
                a.updatedAtMilliseconds != b.updatedAtMilliseconds ? a.updatedAtMilliseconds > b.updatedAtMilliseconds : a.item.rawValue < b.item.rawValue
            }.map(\.item.rawValue))
        }
    }

    @Test("erasure removes the rater's reviews and the votes they gave, moving every count and helpful key", arguments: TestEngine.all)
    func erasure(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "a", "leaving", 5)
            try await write(store, "b", "leaving", 1)
            _ = try await store.submit(SubmitRequest(item: item("c"), rater: rater("leaving"), stars: 3, defaultScale: five, nowMilliseconds: 1))
            try await write(store, "a", "staying", 4)
            try await vote(store, "a", "staying", "leaving", true)
            try await vote(store, "a", "staying", "other", false)
            try await vote(store, "a", "leaving", "staying", true)
            let erased = try await store.erase(rater("leaving"))
            #expect(erased == Erasure(ratings: 3, reviews: 2, votes: 1, flags: 0))
            let a = try await store.summary(of: item("a"), defaultScale: five)
            #expect(a.count == 1 && a.reviewCount == 1)
            #expect(try await store.summary(of: item("b"), defaultScale: five).reviewCount == 0)
            let kept = try await store.review(of: item("a"), by: rater("staying"))
            #expect(kept?.votes == HelpfulVotes(up: 0, down: 1))
            // The stored helpful key moved too: the review sorts as one with a single down vote.
            try await write(store, "a", "second", 4, at: 0)
            let helpful = try await store.reviews(of: item("a"), sort: .helpful, limit: 5)
            #expect(helpful.reviews.map(\.rater.rawValue) == ["staying", "second"])
            #expect(try await store.erase(rater("leaving")) == Erasure(ratings: 0, reviews: 0, votes: 0, flags: 0))
        }
    }

    @Test("concurrent votes on one review count once each, and the stored helpful key equals a recomputation",
          arguments: TestEngine.durable)
    func concurrentVotes(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "author", 4)
            try await write(store, "soup", "control", 4, at: 0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for voter in 0..<200 {
                    group.addTask {
                        try await vote(store, "soup", "author", "v-\(voter)", voter % 3 != 0)
                        if voter % 10 == 0 { try await vote(store, "soup", "author", "v-\(voter)", nil) }
                    }
                }
                try await group.waitForAll()
            }
            let review = try await store.review(of: item("soup"), by: rater("author"))
            // 200 voters, 67 of them (every third) down; 20 withdrew (every tenth: 7 down, 13 up).
            #expect(review?.votes == HelpfulVotes(up: 133 - 13, down: 67 - 7))
            // The key the list sorted by, read from the store (a page's position carries it), is the
            // key computed from the counts.
            let page = try await store.reviews(of: item("soup"), sort: .helpful, limit: 1)
            #expect(page.reviews.map(\.rater.rawValue) == ["author"])
            #expect(page.next?.key == HelpfulScore(up: 120, down: 60).key && page.next?.key != 0)
        }
    }

    @Test("a reply: stored, replaced, removed, harmless twice; kept across the author's edits; gone with the review; only on a review",
          arguments: TestEngine.all)
    func replies(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "u-1", 4, at: 10)
            func reply(_ body: String?, by author: String? = "shop", at time: Int64 = 20) async throws -> ReplyOutcome {
                try await store.reply(ReplyRequest(item: item("soup"), rater: rater("u-1"), body: body, author: author, nowMilliseconds: time))
            }
            let first = try await reply("Thank you!")
            #expect(first.created && first.review.reply == ReviewReply(body: "Thank you!", author: "shop", updatedAtMilliseconds: 20))
            let replaced = try await reply("Thanks again.", by: nil, at: 30)
            #expect(!replaced.created && replaced.review.reply == ReviewReply(body: "Thanks again.", author: nil, updatedAtMilliseconds: 30))
            try await write(store, "soup", "u-1", 5, body: "Edited.", at: 40)
            #expect(try await store.review(of: item("soup"), by: rater("u-1"))?.reply?.body == "Thanks again.")
            let listed = try await store.reviews(of: item("soup"), sort: .newest, limit: 5)
            #expect(listed.reviews.first?.reply?.body == "Thanks again.")
            let removed = try await reply(nil)
            #expect(!removed.created && removed.review.reply == nil)
            #expect(try await reply(nil).review.reply == nil)
            #expect(try await store.review(of: item("soup"), by: rater("u-1"))?.reply == nil)
            _ = try await reply("Back.")
            _ = try await store.removeReview(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 0))
            try await write(store, "soup", "u-1", 3, at: 50)
            #expect(try await store.review(of: item("soup"), by: rater("u-1"))?.reply == nil, "a new review starts without the old reply")
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("nobody"))) {
                try await store.reply(ReplyRequest(item: item("soup"), rater: rater("nobody"), body: "Hi", author: nil, nowMilliseconds: 1))
            }
        }
    }
}
