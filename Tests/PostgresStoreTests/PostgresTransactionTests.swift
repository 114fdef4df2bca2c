@testable import PostgresStore
import Platform
import RatingsCore
import TestSupport
import Testing

@Suite("PostgreSQL transactions in as few round trips as each write allows")
struct PostgresTransactionTests {
    private let insert = "INSERT INTO t (n) VALUES ($1::int) RETURNING n"
    private let count = "SELECT count(*) FROM t"

    /// A connection to a fresh database with an empty table `t`, each statement of these tests
    /// already prepared, so that every round trip counted is one the transaction itself made.
    private func connection() throws -> (PostgresConnection, Double, Int) {
        let deadline = SystemClock.monotonicSeconds() + 60
        let db = try PostgresConnection(uri: try PostgresCluster.shared().freshDatabaseURI(), applicationName: "transaction test",
                                        deadline: deadline)
        try db.execute("CREATE TABLE t (n int PRIMARY KEY)", deadline: deadline)
        for sql in ["BEGIN", "COMMIT", insert, count] { try db.prepare(sql, parameterCount: sql == insert ? 1 : 0, deadline: deadline) }
        return (db, deadline, db.roundTrips)
    }

    @Test("statements sent without waiting run with the next query, in order; the commit carries what is left")
    func sendsTravelWithTheNextQuery() throws {
        let (db, deadline, setUp) = try connection()
        let transaction = PostgresTransaction(db, deadline: deadline)
        let first = transaction.send(insert, ["1"])
        transaction.send(insert, ["2"])
        #expect(throws: PostgresError.self) { try first.get() }
        #expect(db.roundTrips - setUp == 0)
        // BEGIN, both inserts and the count: one round trip, the count seeing the inserts.
        #expect(try transaction.query(count).int(0, 0) == 2)
        #expect(db.roundTrips - setUp == 1)
        #expect(try first.get().int(0, 0) == 1)
        let third = transaction.send(insert, ["3"])
        try transaction.commit()
        #expect(db.roundTrips - setUp == 2 && transaction.isCommitted)
        #expect(try third.get().int(0, 0) == 3)
        #expect(try db.query(count, deadline: deadline).int(0, 0) == 3)
        // The transaction is over: nothing more goes out in it.
        #expect(throws: PostgresError.self) { try transaction.query(count) }
        try transaction.commit()
        #expect(db.roundTrips - setUp == 3)
    }

    @Test("a query may carry COMMIT; a transaction that sent nothing costs no round trip")
    func lastStatementCommits() throws {
        let (db, deadline, setUp) = try connection()
        let transaction = PostgresTransaction(db, deadline: deadline)
        transaction.send(insert, ["7"])
        #expect(try transaction.query(count, commit: true).int(0, 0) == 1)
        try transaction.commit()
        #expect(db.roundTrips - setUp == 1)
        let idle = PostgresTransaction(db, deadline: deadline)
        try idle.commit()
        idle.rollBack()
        #expect(db.roundTrips - setUp == 1 && !idle.hasBegun)
    }

    @Test("a failing statement fails the round trip that carries it and the whole transaction rolls back")
    func failureRollsBackEverything() throws {
        let (db, deadline, _) = try connection()
        try db.query(insert, ["1"], deadline: deadline)
        let transaction = PostgresTransaction(db, deadline: deadline)
        #expect(try transaction.query(insert, ["2"]).int(0, 0) == 2)
        transaction.send(insert, ["3"])
        #expect { try transaction.query(insert, ["1"]) } throws: { ($0 as? PostgresError)?.sqlstate == "23505" }
        transaction.rollBack()
        #expect(!db.isBroken)
        #expect(try db.query("SELECT string_agg(n::text, ',' ORDER BY n) FROM t", deadline: deadline).text(0, 0) == "1")
    }

    @Test("each write's round trips, counted at the pool: a rating one, a review two, a vote two, an erasure two")
    func roundTripsPerWrite() async throws {
        let store = try storeOfOneConnection()
        defer { store.close() }
        let five = Scale.standard
        let policy = ModerationPolicy(mode: .post, flagThreshold: 100)
        func review(_ item: String, _ rater: String) async throws {
            _ = try await store.writeReview(ReviewWriteRequest(item: ItemID(stored: item), rater: RaterID(stored: rater), stars: 4, title: nil,
                                                               body: "Good.", language: nil, defaultScale: five, policy: .standard, nowMilliseconds: 1))
        }
        // Every kind of write, on keys of its own: round 0 prepares the statements, round 1 is
        // counted (its set-up apart).
        let writes: [(name: String, expected: Int, setUp: (Int) async throws -> Void, run: (Int) async throws -> Void)] = [
            ("rating PUT", 1, { _ in }, { round in
                _ = try await store.submit(SubmitRequest(item: ItemID(stored: "rated-\(round)"), rater: RaterID(stored: "u"), stars: 3,
                                                         defaultScale: five, nowMilliseconds: 1))
            }),
            ("review PUT", 2, { _ in }, { round in try await review("reviewed-\(round)", "u") }),
            ("vote PUT", 2, { _ in }, { round in
                _ = try await store.vote(VoteRequest(item: ItemID(stored: "reviewed-\(round)"), rater: RaterID(stored: "u"),
                                                     voter: RaterID(stored: "v"), helpful: true))
            }),
            ("flag PUT", 3, { _ in }, { round in
                _ = try await store.flag(FlagRequest(item: ItemID(stored: "reviewed-\(round)"), rater: RaterID(stored: "u"),
                                                     flagger: RaterID(stored: "f"), reason: .spam, note: nil, policy: policy, nowMilliseconds: 2))
            }),
            ("moderation PUT", 2, { _ in }, { round in
                _ = try await store.moderate(ModerationRequest(item: ItemID(stored: "reviewed-\(round)"), rater: RaterID(stored: "u"),
                                                               status: .published, reason: nil, moderator: "m", nowMilliseconds: 3))
            }),
            ("review DELETE", 3, { _ in }, { round in
                _ = try await store.removeReview(ClearRequest(item: ItemID(stored: "reviewed-\(round)"), rater: RaterID(stored: "u"),
                                                              defaultScale: five, nowMilliseconds: 4))
            }),
            ("rating DELETE", 2, { round in try await review("cleared-\(round)", "u") }, { round in
                _ = try await store.clear(ClearRequest(item: ItemID(stored: "cleared-\(round)"), rater: RaterID(stored: "u"),
                                                       defaultScale: five, nowMilliseconds: 5))
            }),
            ("rater DELETE", 2, { round in
                try await review("erased-\(round)", "gone-\(round)")
                try await review("voted-\(round)", "u")
                _ = try await store.vote(VoteRequest(item: ItemID(stored: "voted-\(round)"), rater: RaterID(stored: "u"),
                                                     voter: RaterID(stored: "gone-\(round)"), helpful: false))
            }, { round in _ = try await store.erase(RaterID(stored: "gone-\(round)")) }),
        ]
        for round in 0...1 {
            for write in writes {
                try await write.setUp(round)
                let before = store.pool.roundTrips
                try await write.run(round)
                if round == 1 { #expect(store.pool.roundTrips - before == write.expected, "\(write.name): \(store.pool.roundTrips - before)") }
            }
        }
    }
}
