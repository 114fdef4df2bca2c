import RatingsCore
import Testing

private func settings(_ prior: String, _ weight: Int) -> RankingSettings {
    guard case .success(let settings) = RankingSettings.parse(prior: prior, weight: weight) else { fatalError("bad test settings") }
    return settings
}

private func scale(_ stars: Int) -> Scale { (try? Scale(maxRating: stars)) ?? .standard }

@Suite("The Bayesian score, computed by hand")
struct RankingTests {
    /// (what, prior, weight, scale, count, sum, the score by hand to four decimals)
    static let handComputed: [(String, String, Int, Int, Int, Int, String)] = [
        ("one 5-star rating: (10·0.5 + 1) / 11", "0.5", 10, 5, 1, 5, "0.5455"),
        ("900 ratings averaging 4.8: (5 + 3420/4) / 910", "0.5", 10, 5, 900, 4_320, "0.9451"),
        ("a 1-star scale counts every rating as 1: (5 + 3) / 13", "0.5", 10, 1, 3, 3, "0.6154"),
        ("two 10-star ratings: (5 + 18/9) / 12", "0.5", 10, 10, 2, 20, "0.5833"),
        ("three 1-star ratings on five stars: (5 + 0) / 13", "0.5", 10, 5, 3, 3, "0.3846"),
        ("W = 0: the plain share of the scale", "0.5", 0, 5, 1, 5, "1.0000"),
        ("W = 0, the lowest rating", "0.5", 0, 5, 1, 1, "0.0000"),
        ("W = 0, a tie at the fifth decimal rounds up: 1/32 = 0.03125", "0.5", 0, 5, 8, 9, "0.0313"),
        ("prior 0 pulls down: (0 + 2) / 12", "0", 10, 3, 2, 6, "0.1667"),
        ("prior 1 pulls up: (10 + 0) / 11", "1", 10, 5, 1, 1, "0.9091"),
        ("a four-decimal prior: (3·0.7312 + 1) / 4", "0.7312", 3, 2, 1, 2, "0.7984"),
    ]

    @Test("scores match the hand-computed table", arguments: handComputed)
    func handComputedScores(_ row: (String, String, Int, Int, Int, Int, String)) throws {
        let (what, prior, weight, stars, count, sum, expected) = row
        let score = try #require(BayesianScore(count: count, sum: sum, scale: scale(stars), settings(prior, weight)))
        #expect(score.text == expected, "\(what)")
    }

    @Test("one 5-star rating ranks below 900 ratings averaging 4.8; no ratings is not ranked")
    func fewAgainstMany() throws {
        let few = try #require(BayesianScore(count: 1, sum: 5, scale: .standard, .standard))
        let many = try #require(BayesianScore(count: 900, sum: 4_320, scale: .standard, .standard))
        #expect(few < many)
        #expect(BayesianScore(count: 0, sum: 0, scale: .standard, .standard) == nil)
    }

    @Test("equal scores on different scales are equal exactly, and get the same key")
    func exactTies() throws {
        let five = try #require(BayesianScore(count: 2, sum: 10, scale: scale(5), .standard))
        let three = try #require(BayesianScore(count: 2, sum: 6, scale: scale(3), .standard))
        let one = try #require(BayesianScore(count: 2, sum: 2, scale: scale(1), .standard))
        #expect(five == three && three == one)
        #expect(five.key == three.key && three.key == one.key)
    }

    @Test("the key orders exactly as the fractions do, even for scores a hair apart")
    func keysFollowScores() throws {
        // 999,999 ratings of one below the maximum against 1,000,000: a difference near 1e-13.
        let a = try #require(BayesianScore(count: 1_000_000, sum: 4_999_999, scale: .standard, .standard))
        let b = try #require(BayesianScore(count: 999_999, sum: 4_999_994, scale: .standard, .standard))
        #expect((a < b) == ((a.key.high, a.key.low) < (b.key.high, b.key.low)))
        #expect(a != b && a.key != b.key)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let scales = (scale(Int.random(in: 1...10, using: &random)), scale(Int.random(in: 1...10, using: &random)))
            let counts = (Int.random(in: 1...5_000, using: &random), Int.random(in: 1...5_000, using: &random))
            let sums = (Int.random(in: counts.0...(counts.0 * scales.0.maxRating), using: &random),
                        Int.random(in: counts.1...(counts.1 * scales.1.maxRating), using: &random))
            let prior = settings("0.\(Int.random(in: 0...9_999, using: &random))", Int.random(in: 0...100_000, using: &random))
            let x = try #require(BayesianScore(count: counts.0, sum: sums.0, scale: scales.0, prior))
            let y = try #require(BayesianScore(count: counts.1, sum: sums.1, scale: scales.1, prior))
            #expect((x < y) == ((x.key.high, x.key.low) < (y.key.high, y.key.low)))
            #expect((x == y) == (x.key == y.key))
        }
    }

    /// (count, sum, scale, key): the benchmark's C reference (bench/rating-write.h) binds the key
    /// it computes for each rating, and bench/test_reference.py checks it against these same rows.
    static let standardKeys: [(Int, Int, Int, (high: Int, low: Int))] = [
        (1, 4, 5, (2_410_654_055_087_043_677, 419_244_183_493_398_900)),
        (2, 8, 5, (2_497_996_593_314_835_114, 3_074_457_345_618_258_602)),
        (26, 27, 5, (672_537_544_353_994_069, 1_537_228_672_809_129_301)),
        (3, 3, 1, (2_837_960_626_724_546_402, 2_128_470_470_043_409_801)),
        (250, 1_999, 10, (3_535_625_947_460_997_393, 307_445_734_561_825_860)),
        (7, 35, 5, (3_255_307_777_713_450_285, 813_826_944_428_362_571)),
    ]

    @Test("the key under the standard settings, as the benchmark's reference writes it", arguments: standardKeys)
    func standardKey(_ row: (Int, Int, Int, (high: Int, low: Int))) throws {
        let (count, sum, stars, expected) = row
        let key = try #require(BayesianScore(count: count, sum: sum, scale: scale(stars), .standard)).key
        #expect(key == expected)
    }

    @Test("the prior is a decimal from 0 to 1 with at most four decimals; the weight 0 to 100,000", arguments: [
        ("0.5", 10, true), ("0", 0, true), ("1", 100_000, true), ("1.0000", 5, true), ("0.12345", 5, false), ("1.0001", 5, false),
        ("-0.5", 5, false), (".5", 5, false), ("0.", 5, false), ("2", 5, false), ("0,5", 5, false), ("0.5", -1, false), ("0.5", 100_001, false),
    ])
    func settingsBounds(prior: String, weight: Int, valid: Bool) {
        if case .success = RankingSettings.parse(prior: prior, weight: weight) { #expect(valid) } else { #expect(!valid) }
    }
}
