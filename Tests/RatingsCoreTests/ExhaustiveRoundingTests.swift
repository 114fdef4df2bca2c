import RatingsCore
import Testing

/// Checks every (sum, count) with count ≤ 200 on every scale against rational arithmetic done
/// independently: comparisons of cross-multiplied integers, not the formulas under test.
@Suite("Exhaustive rounding against exact rationals")
struct ExhaustiveRoundingTests {
    /// The half step h/2 nearest to s/c, ties up: the largest h with h/2 ≤ s/c + 1/4, i.e. 2h ≤ 4s/c + 1.
    private func referenceHalfSteps(sum: Int, count: Int) -> Int {
        var h = 0
        while 2 * (h + 1) * count <= 4 * sum + count { h += 1 }
        return h
    }

    /// The hundredth nearest to f = num/den in [0, 1], ties up: largest k with k/100 ≤ f + 1/200.
    private func referenceHundredths(_ num: Int, _ den: Int) -> Int {
        var k = 0
        while 2 * (k + 1) * den <= 200 * num + den && k < 100 { k += 1 }
        return k
    }

    @Test("every average with up to 200 ratings on every scale", arguments: 1...10)
    func everyAverageOnScale(max: Int) throws {
        let scale = try Scale(maxRating: max)
        for count in 1...200 {
            for sum in count...(count * max) {
                let display = ItemSummary(item: ItemID(stored: "i"), scale: scale, count: count, sum: sum, distribution: [], reviewCount: 0).display
                let expectedHalves = referenceHalfSteps(sum: sum, count: count)
                guard display.halfSteps == expectedHalves else {
                    Issue.record("sum \(sum) count \(count) max \(max): \(display.halfSteps) != \(expectedHalves)")
                    return
                }
                for star in 1...max {
                    // share of star n covered: clamp(sum/count − (n − 1), 0, 1) = (sum − (n−1)·count)/count
                    let covered = Swift.min(Swift.max(sum - (star - 1) * count, 0), count)
                    let expected = referenceHundredths(covered, count)
                    guard display.fillHundredths[star - 1] == expected else {
                        Issue.record("fill of star \(star) for \(sum)/\(count): \(display.fillHundredths[star - 1]) != \(expected)")
                        return
                    }
                }
                let average = ExactValue(sum: sum, count: count).roundedHundredths
                let whole = sum / count
                #expect(average == whole * 100 + referenceHundredths(sum - whole * count, count),
                        "average of \(sum)/\(count)")
            }
        }
    }
}
