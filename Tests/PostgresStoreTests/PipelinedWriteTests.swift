@testable import PostgresStore
import Platform
import RatingsCore
import TestSupport
import Testing

@Suite("PostgreSQL writes in one round trip: the pipeline, the score key in SQL, the scale check")
struct PipelinedWriteTests {
    private func connection(_ uri: String) throws -> (PostgresConnection, Double) {
        let deadline = SystemClock.monotonicSeconds() + 60
        return (try PostgresConnection(uri: uri, applicationName: "pipeline test", deadline: deadline), deadline)
    }

    @Test("a pipeline is one transaction: a failing statement undoes the ones before it and skips the rest")
    func pipelineIsAtomic() throws {
        let uri = try PostgresCluster.shared().freshDatabaseURI()
        let (db, deadline) = try connection(uri)
        try db.execute("CREATE TABLE t (n int PRIMARY KEY)", deadline: deadline)
        let insert = "INSERT INTO t (n) VALUES ($1::int)"
        let results = try db.pipeline([PipelinedStatement(insert, ["1"]), PipelinedStatement(insert, ["2"]),
                                       PipelinedStatement("SELECT count(*) FROM t")], deadline: deadline)
        #expect(results.count == 3 && results[2].int(0, 0) == 2)
        #expect {
            try db.pipeline([PipelinedStatement(insert, ["3"]), PipelinedStatement(insert, ["1"]), PipelinedStatement(insert, ["4"])],
                            deadline: deadline)
        } throws: { error in (error as? PostgresError)?.sqlstate == "23505" }
        // Neither 3 (before the failure) nor 4 (after it) was kept, and the connection serves on.
        #expect(!db.isBroken)
        #expect(try db.query("SELECT string_agg(n::text, ',' ORDER BY n) FROM t", deadline: deadline).text(0, 0) == "1,2")
        // A pipeline that opens a transaction leaves it open for the caller.
        _ = try db.pipeline([PipelinedStatement("BEGIN"), PipelinedStatement(insert, ["5"])], deadline: deadline)
        try db.execute("ROLLBACK", deadline: deadline)
        #expect(try db.query("SELECT count(*) FROM t", deadline: deadline).int(0, 0) == 2)
    }

    @Test("the score key computed in SQL equals BayesianScore.key bit for bit")
    func scoreKeyMatchesSwift() throws {
        let uri = try PostgresCluster.shared().freshDatabaseURI()
        let (db, deadline) = try connection(uri)
        var generator = SplitMix(state: 74)
        let settings = [RankingSettings.standard] + [("0", 0), ("1", 100_000), ("0.7312", 3), ("0.0001", 99_999), ("0.5", 1)].map { prior, weight in
            // Safe in a test: the literals are valid settings.
            (try? RankingSettings.parse(prior: prior, weight: weight).get()) ?? .standard
        }
        for ranking in settings {
            var counts: [Int] = [0, 1, 2, 3, 10, 1_000_000_007, 1 << 40], sums: [Int] = [], scales: [Int] = []
            while counts.count < 400 { counts.append(Int(generator.next() % 5_000) + 1) }
            for (index, count) in counts.enumerated() {
                let maxRating = index % 10 + 1
                scales.append(maxRating)
                // Every sum a rating of 1 to maxRating stars can reach, ends included.
                let extra = count == 0 ? 0 : [0, count * (maxRating - 1), Int(generator.next() % UInt64(count * (maxRating - 1) + 1))][index % 3]
                sums.append(count + extra)
            }
            let key = PostgresSQL.scoreKey(count: "c", sum: "s", maxRating: "m", ranking)
            let rows = try db.query("SELECT \(key.high), \(key.low) FROM unnest($1::bigint[], $2::bigint[], $3::int[]) WITH ORDINALITY AS t(c, s, m, o) ORDER BY o",
                                    [PostgresSQL.integerArray(counts), PostgresSQL.integerArray(sums), PostgresSQL.integerArray(scales)],
                                    deadline: deadline)
            #expect(rows.rowCount == counts.count)
            for row in 0..<rows.rowCount {
                let scale = try Scale(maxRating: scales[row])
                let expected = ranking.key(count: counts[row], sum: sums[row], scale: scale)
                let found = (high: rows.isNull(row, 0) ? nil : rows.int(row, 0), low: rows.isNull(row, 1) ? nil : rows.int(row, 1))
                #expect(found.high == expected.high && found.low == expected.low,
                        "count \(counts[row]), sum \(sums[row]), scale \(scales[row]), \(ranking.recorded)")
            }
        }
    }

    @Test("a rating past a new item's scale is refused with the scale and leaves no item behind")
    func starsPastScaleLeaveNothing() async throws {
        let uri = try PostgresCluster.shared().freshDatabaseURI()
        let store = try PostgresRatingStore(PostgresConfiguration(uri: uri))
        defer { store.close() }
        let item = ItemID(stored: "new-item"), rater = RaterID(stored: "r")
        for stars in [6, 11, 0, -3] {
            await #expect(throws: RatingError.starsOutOfRange(given: String(stars), scale: .standard)) {
                try await store.submit(SubmitRequest(item: item, rater: rater, stars: stars, defaultScale: .standard, nowMilliseconds: 1))
            }
        }
        let schema = String(uri.split(separator: "%3D").last ?? "")
        #expect(try PostgresCluster.shared().scalar("SELECT count(*) FROM \(schema).items") == "0")
        // The same item on a ten-star scale takes them, and its key is the one Swift computes.
        _ = try await store.configure(ConfigureRequest(item: item, scale: try Scale(maxRating: 10), nowMilliseconds: 1))
        let outcome = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 6, defaultScale: .standard, nowMilliseconds: 2))
        #expect(outcome.created && outcome.summary.count == 1 && outcome.summary.sum == 6)
        let again = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 9, defaultScale: .standard, nowMilliseconds: 3))
        #expect(!again.created && again.summary.count == 1 && again.summary.sum == 9 && again.summary.distribution[8] == 1)
        let key = RankingSettings.standard.key(count: 1, sum: 9, scale: try Scale(maxRating: 10))
        #expect(try PostgresCluster.shared().scalar("SELECT score_high || ',' || score_low FROM \(schema).items") == "\(key.high ?? -1),\(key.low ?? -1)")
    }
}

/// A store on a fresh database whose pool has one connection, so that concurrent requests wait
/// for its one worker and batch.
func storeOfOneConnection() throws -> PostgresRatingStore {
    var configuration = PostgresConfiguration(uri: try PostgresCluster.shared().freshDatabaseURI())
    configuration.poolSize = 1
    return try PostgresRatingStore(configuration)
}

@Suite("PostgreSQL rating writes that wait for a worker together commit together")
struct BatchedWriteTests {
    @Test("400 writes through one connection: counts exact, each rater's first write created, a refused write refused alone")
    func batchedWritesStayExact() async throws {
        let store = try storeOfOneConnection()
        defer { store.close() }
        let small = ItemID(stored: "small")
        _ = try await store.configure(ConfigureRequest(item: small, scale: try Scale(maxRating: 3), nowMilliseconds: 1))
        // Two writes by each of 100 raters to each of two items (one of them Zipf-hot), and on a
        // three-star item every fifth write asks for 5 stars.
        let requests = (0..<400).map { index -> SubmitRequest in
            let item = index % 5 == 4 ? small : ItemID(stored: index % 3 == 0 ? "cold" : "hot")
            return SubmitRequest(item: item, rater: RaterID(stored: "r\(index % 100)"), stars: index % 5 == 4 ? 5 : index % 5 + 1,
                                 defaultScale: .standard, nowMilliseconds: Int64(index + 2))
        }
        let results = await withTaskGroup(of: (Int, Result<SubmitOutcome, any Error>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do { return (index, .success(try await store.submit(request))) } catch { return (index, .failure(error)) }
                }
            }
            return await group.reduce(into: [Int: Result<SubmitOutcome, any Error>]()) { $0[$1.0] = $1.1 }
        }
        for (index, request) in requests.enumerated() {
            switch results[index] {
            case .success:
                #expect(request.item != small, "write \(index) of 5 stars on a 3-star item was accepted")
            case .failure(let error):
                #expect(request.item == small && error as? RatingError == .starsOutOfRange(given: "5", scale: try Scale(maxRating: 3)),
                        "write \(index): \(error)")
            case nil:
                Issue.record("write \(index) got no answer")
            }
        }
        for item in [ItemID(stored: "hot"), ItemID(stored: "cold")] {
            let writes = requests.indices.filter { requests[$0].item == item }
            let raters = Set(writes.map { requests[$0].rater })
            let created = writes.filter { (try? results[$0]?.get())?.created == true }
            // Each rater's first write to the item, whichever ran first, and only that one, made it.
            #expect(created.count == raters.count && Set(created.map { requests[$0].rater }) == raters)
            let summary = try await store.summary(of: item, defaultScale: .standard)
            var stored: [Int] = []
            for rater in raters { stored.append(try #require(try await store.rating(of: item, by: rater, defaultScale: .standard)).stars.count) }
            #expect(summary.count == raters.count && summary.sum == stored.reduce(0, +))
            #expect((1...5).allSatisfy { stars in summary.distribution[stars - 1] == stored.filter { $0 == stars }.count })
        }
        #expect(try await store.summary(of: small, defaultScale: .standard).count == 0)
    }
}

@Suite("PostgreSQL summary reads that wait for a worker together are one statement")
struct BatchedReadTests {
    @Test("300 reads through one connection each answer their own item; a read after a write sees it")
    func batchedReadsAnswerTheirOwn() async throws {
        let store = try storeOfOneConnection()
        defer { store.close() }
        for index in 0..<25 {
            for rater in 0...index {
                _ = try await store.submit(SubmitRequest(item: ItemID(stored: "i\(index)"), rater: RaterID(stored: "r\(rater)"), stars: 4,
                                                         defaultScale: .standard, nowMilliseconds: 1))
            }
        }
        let three = try Scale(maxRating: 3)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for read in 0..<300 {
                group.addTask {
                    // Items 25 to 49 do not exist: each answers empty on the scale its reader asked for.
                    let index = read % 50, scale = read % 2 == 0 ? Scale.standard : three
                    let summary = try await store.summary(of: ItemID(stored: "i\(index)"), defaultScale: scale)
                    #expect(summary.item == ItemID(stored: "i\(index)"))
                    #expect(summary.count == (index < 25 ? index + 1 : 0) && summary.sum == summary.count * 4)
                    #expect(summary.scale == (index < 25 ? .standard : scale))
                }
            }
            group.addTask {
                // Writes one at a time, each followed by a read that must see it, among the others.
                for rater in 0..<40 {
                    _ = try await store.submit(SubmitRequest(item: ItemID(stored: "live"), rater: RaterID(stored: "w\(rater)"), stars: 2,
                                                             defaultScale: .standard, nowMilliseconds: 2))
                    #expect(try await store.summary(of: ItemID(stored: "live"), defaultScale: .standard).count == rater + 1)
                }
            }
            try await group.waitForAll()
        }
    }
}
