import RatingsCore
import TestSupport
import Testing

private let five = Scale.standard

private func item(_ name: String) -> ItemID { ItemID(stored: name) }
private func rater(_ name: String) -> RaterID { RaterID(stored: name) }

@discardableResult
private func write(_ store: any ReviewStore, _ itemName: String, _ raterName: String, _ stars: Int = 4, body: String = "Good.",
                   policy: ModerationPolicy = .standard, at time: Int64 = 1) async throws -> ReviewWriteOutcome {
    try await store.writeReview(ReviewWriteRequest(item: item(itemName), rater: rater(raterName), stars: stars, title: nil, body: body,
                                                   language: nil, defaultScale: five, policy: policy, nowMilliseconds: time))
}

@discardableResult
private func flag(_ store: any ReviewStore, _ itemName: String, _ author: String, by flagger: String, _ reason: FlagReason? = .spam,
                  threshold: Int = 3, at time: Int64 = 2) async throws -> FlagOutcome {
    try await store.flag(FlagRequest(item: item(itemName), rater: rater(author), flagger: rater(flagger), reason: reason, note: "see",
                                     policy: ModerationPolicy(mode: .post, flagThreshold: threshold), nowMilliseconds: time))
}

@discardableResult
private func decide(_ store: any ReviewStore, _ itemName: String, _ author: String, _ status: ReviewStatus, reason: String? = nil,
                    at time: Int64 = 3) async throws -> ModerationOutcome {
    try await store.moderate(ModerationRequest(item: item(itemName), rater: rater(author), status: status, reason: reason,
                                               moderator: "mod-1", nowMilliseconds: time))
}

private func listed(_ store: any ReviewStore, _ itemName: String) async throws -> [String] {
    try await store.reviews(of: item(itemName), sort: .newest, limit: 50).reviews.map(\.rater.rawValue)
}

private func reviewCount(_ store: any ReviewStore, _ itemName: String) async throws -> Int {
    try await store.summary(of: item(itemName), defaultScale: five).reviewCount
}

/// Every page of the moderation queue, followed cursor by cursor.
private func wholeQueue(_ store: any ReviewStore, limit: Int) async throws -> [QueuedReview] {
    var seen: [QueuedReview] = [], position: QueuePosition?
    repeat {
        let page = try await store.moderationQueue(after: position, limit: limit)
        #expect(page.entries.count <= limit)
        seen += page.entries
        position = page.next
    } while position != nil
    return seen
}

@Suite("Every engine: flags, moderation decisions, the history and the queue")
struct ModerationContractTests {
    @Test("flags from distinct flaggers reaching the threshold hide a published review once; its stars still count",
          arguments: TestEngine.all)
    func threshold(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "author", 5, at: 1)
            try await write(store, "soup", "other", 3, at: 1)
            let first = try await flag(store, "soup", "author", by: "f-1", .spam, at: 10)
            #expect(first.created && first.change == nil && first.review.status == .published)
            // Replacing a flag is not a second flagger.
            let replaced = try await flag(store, "soup", "author", by: "f-1", .fake, at: 11)
            #expect(!replaced.created && replaced.change == nil)
            try await flag(store, "soup", "author", by: "f-2", .offensive, at: 12)
            #expect(try await listed(store, "soup").contains("author"))
            let third = try await flag(store, "soup", "author", by: "f-3", .spam, at: 13)
            #expect(third.change == ModerationEntry(status: .pending, previous: .published, reason: "flags", moderator: nil, atMilliseconds: 13))
            #expect(third.review.status == .pending)
            #expect(try await listed(store, "soup") == ["other"])
            let summary = try await store.summary(of: item("soup"), defaultScale: five)
            #expect(summary.reviewCount == 1 && summary.count == 2 && summary.sum == 8)
            // A pending review is hidden from other flaggers.
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("author"))) {
                try await flag(store, "soup", "author", by: "f-4", .other, at: 14)
            }
            let record = try await store.moderation(of: item("soup"), by: rater("author"))
            #expect(record?.status == .pending && record?.history.count == 1)
            #expect(record?.flags[.spam] == 1 && record?.flags[.fake] == 1 && record?.flags[.offensive] == 1 && record?.flags.total == 3)
            #expect(try await reviewCount(store, "soup") == 1)
            #expect(try await store.pendingReviewCount() == 1)
        }
    }

    @Test("a flag goes only on someone else's published review; a withdrawal also where the flagger's flag helped hide it",
          arguments: TestEngine.all)
    func flagRules(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("nobody"))) {
                try await flag(store, "soup", "nobody", by: "f-1")
            }
            try await write(store, "soup", "author")
            await #expect(throws: ReviewError.ownReview(rater: rater("author"))) { try await flag(store, "soup", "author", by: "author") }
            try await flag(store, "soup", "author", by: "f-1", threshold: 1)
            // Now pending: hidden from a new flagger, but the one who flagged may withdraw.
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("author"))) {
                try await flag(store, "soup", "author", by: "f-2")
            }
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("author"))) {
                try await flag(store, "soup", "author", by: "f-2", nil)
            }
            let withdrawn = try await flag(store, "soup", "author", by: "f-1", nil)
            #expect(!withdrawn.created && withdrawn.review.status == .pending)
            #expect(try await store.moderation(of: item("soup"), by: rater("author"))?.flags == FlagCounts.none)
        }
    }

    @Test("a decision is recorded with its moderator, resets the round of flags, and moves the lists and reviewCount",
          arguments: TestEngine.all)
    func decisions(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "author", at: 1)
            for flagger in ["f-1", "f-2", "f-3"] { try await flag(store, "soup", "author", by: flagger, at: 5) }
            #expect(try await reviewCount(store, "soup") == 0)
            let published = try await decide(store, "soup", "author", .published, reason: "Fair criticism.", at: 20)
            #expect(published.review.status == .published && published.record.status == .published)
            #expect(published.record.history == [
                ModerationEntry(status: .pending, previous: .published, reason: "flags", moderator: nil, atMilliseconds: 5),
                ModerationEntry(status: .published, previous: .pending, reason: "Fair criticism.", moderator: "mod-1", atMilliseconds: 20),
            ])
            #expect(published.record.flags[.spam] == 3)
            #expect(try await listed(store, "soup") == ["author"])
            #expect(try await reviewCount(store, "soup") == 1)
            // The old flags stay listed but no longer count: two new flaggers are not enough, a third is.
            try await flag(store, "soup", "author", by: "f-4", at: 30)
            try await flag(store, "soup", "author", by: "f-5", at: 31)
            // A flagger of the last round replacing their flag does not count again.
            try await flag(store, "soup", "author", by: "f-1", .fake, at: 32)
            #expect(try await store.review(of: item("soup"), by: rater("author"))?.status == .published)
            let crossing = try await flag(store, "soup", "author", by: "f-6", at: 33)
            #expect(crossing.change?.reason == "flags")
            // A decision that keeps the status is recorded too.
            let rejected = try await decide(store, "soup", "author", .rejected, at: 40)
            let again = try await decide(store, "soup", "author", .rejected, reason: "Still spam.", at: 41)
            #expect(rejected.record.history.count == 4 && again.record.history.count == 5)
            #expect(again.record.history.last == ModerationEntry(status: .rejected, previous: .rejected, reason: "Still spam.",
                                                                  moderator: "mod-1", atMilliseconds: 41))
            #expect(try await reviewCount(store, "soup") == 0)
            #expect(try await listed(store, "soup").isEmpty)
            #expect(try await store.pendingReviewCount() == 0)
            await #expect(throws: ReviewError.reviewNotFound(item: item("soup"), rater: rater("nobody"))) {
                try await decide(store, "soup", "nobody", .published)
            }
        }
    }

    @Test("pre-moderation holds new reviews; edits of text requeue, stars alone never change the status", arguments: TestEngine.all)
    func statusRules(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let pre = ModerationPolicy(mode: .pre, flagThreshold: 3)
            let held = try await write(store, "soup", "author", 4, body: "First.", policy: pre, at: 10)
            #expect(held.review.status == .pending && held.change == nil && held.summary.reviewCount == 0 && held.summary.count == 1)
            #expect(try await listed(store, "soup").isEmpty)
            try await decide(store, "soup", "author", .published, at: 20)
            // Stars alone, through either route, keep the status under pre-moderation.
            let restarred = try await write(store, "soup", "author", 2, body: "First.", policy: pre, at: 30)
            #expect(restarred.review.status == .published && restarred.change == nil)
            _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("author"), stars: 3, defaultScale: five, nowMilliseconds: 31))
            #expect(try await store.review(of: item("soup"), by: rater("author"))?.status == .published)
            // New text on a published review: pending under pre, with an `edited` entry.
            let edited = try await write(store, "soup", "author", 3, body: "Second.", policy: pre, at: 40)
            #expect(edited.review.status == .pending && edited.summary.reviewCount == 0)
            #expect(edited.change == ModerationEntry(status: .pending, previous: .published, reason: "edited", moderator: nil, atMilliseconds: 40))
            // Under post, new text keeps a published review published; a rejected one goes back to pending.
            try await decide(store, "soup", "author", .published, at: 50)
            let post = try await write(store, "soup", "author", 3, body: "Third.", at: 60)
            #expect(post.review.status == .published && post.change == nil && post.summary.reviewCount == 1)
            try await decide(store, "soup", "author", .rejected, at: 70)
            let sameText = try await write(store, "soup", "author", 5, body: "Third.", at: 75)
            #expect(sameText.review.status == .rejected && sameText.change == nil)
            let retried = try await write(store, "soup", "author", 5, body: "Fourth.", at: 80)
            #expect(retried.review.status == .pending && retried.change?.previous == .rejected && retried.summary.reviewCount == 0)
            // Edits of a pending review keep it pending, with no new entry and its place in the queue.
            let queued = try await store.moderationQueue(after: nil, limit: 5).entries.first?.pendingSinceMilliseconds
            try await write(store, "soup", "author", 5, body: "Fifth.", at: 90)
            #expect(try await store.moderationQueue(after: nil, limit: 5).entries.first?.pendingSinceMilliseconds == queued)
            let history = try await store.moderation(of: item("soup"), by: rater("author"))?.history.map(\.reason)
            #expect(history == [nil, "edited", nil, nil, "edited"])
        }
    }

    @Test("the queue: every item's pending reviews, longest waiting first, ties by item then rater, pages neither repeat nor skip",
          arguments: TestEngine.all)
    func queue(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let pre = ModerationPolicy(mode: .pre, flagThreshold: 3)
            var expected: [(Int64, String, String)] = []
            for index in 0..<23 {
                let (itemName, author, time) = ("item-\(index % 4)", "r-\(index % 5)", Int64(100 + index % 6))
                guard !expected.contains(where: { $0.1 == itemName && $0.2 == author }) else { continue }
                try await write(store, itemName, author, policy: pre, at: time)
                expected.append((time, itemName, author))
            }
            try await write(store, "item-0", "published", at: 1)
            try await flag(store, "item-0", "published", by: "f-1", .spam, threshold: 2, at: 50)
            try await flag(store, "item-0", "published", by: "f-2", .offensive, threshold: 2, at: 99)
            expected.append((99, "item-0", "published"))
            let ordered = expected.sorted { a, b in
                a.0 != b.0 ? a.0 < b.0 : a.1 != b.1 ? a.1 < b.1 : a.2 < b.2
            }
            let queue = try await wholeQueue(store, limit: 4)
            #expect(queue.map { "\($0.pendingSinceMilliseconds) \($0.review.item.rawValue) \($0.review.rater.rawValue)" }
                    == ordered.map { "\($0.0) \($0.1) \($0.2)" })
            #expect(queue.first?.flags[.spam] == 1 && queue.first?.flags[.offensive] == 1 && queue.first?.review.status == .pending)
            #expect(try await store.pendingReviewCount() == ordered.count)
            // Deciding takes a review out of the queue.
            try await decide(store, "item-0", "published", .published)
            #expect(try await wholeQueue(store, limit: 100).count == ordered.count - 1)
        }
    }

    @Test("removing a review keeps its history; erasing the author removes it, and removes the flags they placed",
          arguments: TestEngine.all)
    func historyAndErasure(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "author", at: 1)
            try await write(store, "soup", "flagger", at: 1)
            try await flag(store, "soup", "author", by: "flagger", threshold: 1, at: 2)
            try await flag(store, "soup", "flagger", by: "author", .fake, at: 2)
            try await decide(store, "soup", "author", .rejected, at: 3)
            _ = try await store.removeReview(ClearRequest(item: item("soup"), rater: rater("author"), defaultScale: five, nowMilliseconds: 0))
            #expect(try await store.moderation(of: item("soup"), by: rater("author")) == nil)
            // A rewritten review shows the history again, without the old flags.
            try await write(store, "soup", "author", body: "Again.", at: 4)
            let record = try await store.moderation(of: item("soup"), by: rater("author"))
            #expect(record?.history.count == 2 && record?.flags == FlagCounts.none && record?.status == .published)
            let erased = try await store.erase(rater("author"))
            #expect(erased == Erasure(ratings: 1, reviews: 1, votes: 0, flags: 1))
            #expect(try await store.moderation(of: item("soup"), by: rater("flagger"))?.flags == FlagCounts.none)
            try await write(store, "soup", "author", body: "Back.", at: 5)
            #expect(try await store.moderation(of: item("soup"), by: rater("author"))?.history == [])
            // A moderator's decisions stay, naming them, when the moderator is erased.
            try await decide(store, "soup", "flagger", .rejected, at: 6)
            _ = try await store.erase(rater("mod-1"))
            #expect(try await store.moderation(of: item("soup"), by: rater("flagger"))?.history.last?.moderator == "mod-1")
        }
    }

    @Test("concurrent flags past the threshold make the review pending once", arguments: TestEngine.durable)
    func concurrentFlags(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await write(store, "soup", "author", at: 1)
            // Each flag is taken (published then) or refused (pending by then, hidden from its flagger).
            let outcomes = await withTaskGroup(of: FlagOutcome?.self) { group in
                for index in 0..<40 { group.addTask { try? await flag(store, "soup", "author", by: "f-\(index)", threshold: 5, at: 10) } }
                var outcomes: [FlagOutcome?] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(outcomes.compactMap { $0 }.count == 5)
            #expect(outcomes.compactMap { $0?.change }.count == 1)
            let record = try await store.moderation(of: item("soup"), by: rater("author"))
            #expect(record?.history.count == 1 && record?.flags[.spam] == 5 && record?.status == .pending)
            #expect(try await reviewCount(store, "soup") == 0)
        }
    }
}
