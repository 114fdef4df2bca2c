import RatingsCore
import TestSupport
import Testing

private let five = Scale.standard
private func item(_ name: String) -> ItemID { ItemID(stored: name) }
private func rater(_ name: String) -> RaterID { RaterID(stored: name) }

/// Every pending payload for `endpoint`, in the order the outbox hands them out.
private func pendingPayloads(_ store: any ReviewStore, now: Int64 = Int64.max / 4, endpoint: String = "hook") async throws -> [String] {
    try await store.claimDeliveries(for: endpoint, now: now, limit: 1_000, lease: 1).map(\.entry.payload)
}

@Suite("Durable engines: each write's change events in its own transaction, and the outbox's leases")
struct OutboxContractTests {
    @Test("every write records its events with the item's next version; writes that change nothing, refused writes and votes record none",
          arguments: TestEngine.durable)
    func eventsOfWrites(engine: TestEngine) async throws {
        try await withStore(engine, options: .init(events: CapturingRecorder())) { store in
            _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("u-1"), stars: 4, defaultScale: five, nowMilliseconds: 1))
            _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("u-1"), stars: 4, defaultScale: five, nowMilliseconds: 2))
            await #expect(throws: RatingError.self) {
                _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("u-2"), stars: 9, defaultScale: five, nowMilliseconds: 3))
            }
            _ = try await store.writeReview(ReviewWriteRequest(item: item("soup"), rater: rater("u-1"), stars: 5, title: nil, body: "Good.",
                                                               language: nil, defaultScale: five, policy: .standard, nowMilliseconds: 4))
            _ = try await store.vote(VoteRequest(item: item("soup"), rater: rater("u-1"), voter: rater("u-2"), helpful: true))
            _ = try await store.reply(ReplyRequest(item: item("soup"), rater: rater("u-1"), body: "Thanks", author: nil, nowMilliseconds: 5))
            _ = try await store.moderate(ModerationRequest(item: item("soup"), rater: rater("u-1"), status: .rejected, reason: nil,
                                                           moderator: "m", nowMilliseconds: 6))
            _ = try await store.configure(ConfigureRequest(item: item("pie"), scale: five, nowMilliseconds: 7))
            _ = try await store.configure(ConfigureRequest(item: item("pie"), scale: five, nowMilliseconds: 8))
            _ = try await store.removeReview(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 9))
            _ = try await store.clear(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 10))
            _ = try await store.clear(ClearRequest(item: item("soup"), rater: rater("u-1"), defaultScale: five, nowMilliseconds: 11))
            #expect(try await pendingPayloads(store) == [
                "rating.created soup 1",
                "rating.updated soup 2", "review.created soup 2",
                "review.replied soup 3",
                "review.rejected soup 4",
                "item.configured pie 1",
                "review.removed soup 5",
                "rating.cleared soup 6",
            ])
        }
    }

    @Test("an erasure records rating.cleared and review.removed per item, then rater.erased; flags crossing the threshold review.pending",
          arguments: TestEngine.durable)
    func eventsOfErasureAndFlags(engine: TestEngine) async throws {
        try await withStore(engine, options: .init(events: CapturingRecorder())) { store in
            _ = try await store.writeReview(ReviewWriteRequest(item: item("a"), rater: rater("gone"), stars: 5, title: nil, body: "A.",
                                                               language: nil, defaultScale: five, policy: .standard, nowMilliseconds: 1))
            _ = try await store.submit(SubmitRequest(item: item("b"), rater: rater("gone"), stars: 2, defaultScale: five, nowMilliseconds: 2))
            _ = try await store.flag(FlagRequest(item: item("a"), rater: rater("gone"), flagger: rater("f"), reason: .spam, note: nil,
                                                 policy: ModerationPolicy(mode: .post, flagThreshold: 1), nowMilliseconds: 3))
            _ = try await store.erase(rater("gone"))
            #expect(try await Set(pendingPayloads(store)) == [
                "rating.created a 1", "review.created a 1", "rating.created b 1", "review.pending a 2",
                "rating.cleared a 3", "review.removed a 3", "rating.cleared b 2", "rater.erased gone",
            ])
        }
    }

    @Test("a claim takes one endpoint's due rows and holds them for its lease; finishing records the outcome; old finished rows are pruned",
          arguments: TestEngine.durable)
    func claimsAndLeases(engine: TestEngine) async throws {
        try await withStore(engine, options: .init(events: CapturingRecorder(endpoints: ["a", "b"]))) { store in
            for index in 0..<3 {
                _ = try await store.submit(SubmitRequest(item: item("i-\(index)"), rater: rater("u"), stars: 3, defaultScale: five,
                                                         nowMilliseconds: Int64(100 + index)))
            }
            #expect(try await store.pendingDeliveries() == ["a": 3, "b": 3])
            #expect(try await store.claimDeliveries(for: "a", now: 50, limit: 10).isEmpty, "nothing is due before it was created")
            let first = try await store.claimDeliveries(for: "a", now: 1_000, limit: 10, lease: 500)
            #expect(first.map(\.entry.endpoint) == ["a", "a", "a"] && first.allSatisfy { $0.attempts == 0 && $0.firstAttemptMilliseconds == nil })
            #expect(try await store.claimDeliveries(for: "a", now: 1_200, limit: 10).isEmpty, "held rows are not claimed again")
            let second = try await store.claimDeliveries(for: "b", now: 1_200, limit: 2)
            #expect(second.map(\.entry.endpoint) == ["b", "b"] && Set(second.map(\.entry.eventID)).isSubset(of: Set(first.map(\.entry.eventID))))
            try await store.finishDelivery(DeliveryResult(delivery: first[0].id, outcome: .delivered, status: 204, error: nil,
                                                          attemptedAtMilliseconds: 1_300, firstAttemptMilliseconds: 1_300))
            try await store.finishDelivery(DeliveryResult(delivery: first[1].id, outcome: .retry(dueMilliseconds: 9_000), status: 503, error: nil,
                                                          attemptedAtMilliseconds: 1_310, firstAttemptMilliseconds: 1_310))
            try await store.finishDelivery(DeliveryResult(delivery: first[2].id, outcome: .failed, status: nil, error: "connection refused",
                                                          attemptedAtMilliseconds: 1_320, firstAttemptMilliseconds: 1_000))
            let totals = try await store.deliveryTotals()
            #expect(totals["a"]?.delivered == 1 && totals["a"]?.pending == 1 && totals["a"]?.failed == 1)
            #expect(totals["a"]?.lastError == DeliveryError(atMilliseconds: 1_320, status: nil, error: "connection refused"))
            #expect(totals["b"]?.pending == 3 && totals["b"]?.lastError == nil)
            // The retried row is due at 9,000 and its lease was released by the finish.
            #expect(try await store.claimDeliveries(for: "a", now: 8_999, limit: 10).isEmpty)
            let retried = try await store.claimDeliveries(for: "a", now: 9_000, limit: 10)
            #expect(retried.map(\.id) == [first[1].id] && retried[0].attempts == 1 && retried[0].firstAttemptMilliseconds == 1_310)
            #expect(try await store.pruneDeliveries(finishedBefore: 1_315) == 1)
            #expect(try await store.pruneDeliveries(finishedBefore: 10_000) == 1)
            #expect(try await store.deliveryTotals()["a"]?.delivered == 0)
        }
    }

    @Test("without a recorder nothing is written to the outbox", arguments: TestEngine.durable)
    func noRecorder(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            _ = try await store.submit(SubmitRequest(item: item("soup"), rater: rater("u-1"), stars: 4, defaultScale: five, nowMilliseconds: 1))
            #expect(try await store.pendingDeliveries().isEmpty)
            #expect(try await store.deliveryTotals().isEmpty)
        }
    }
}
