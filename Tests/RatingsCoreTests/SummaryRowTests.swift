import RatingsCore
import Testing

@Suite("An item's row moves with each rating as the stores' UPDATE moves it")
struct SummaryRowTests {
    let row = SummaryRow(maxRating: 5, isScaleExplicit: true, count: 3, sum: 11, distribution: [0, 0, 1, 1, 1, 0, 0, 0, 0, 0], reviewCount: 0)

    @Test("a new rating adds to the count, the sum and its bucket")
    func into() {
        let moved = row.moving(into: 2, outOf: nil)
        #expect((moved.count, moved.sum) == (4, 13))
        #expect(moved.distribution == [0, 1, 1, 1, 1, 0, 0, 0, 0, 0])
        #expect(moved.scale == row.scale && moved.isScaleExplicit)
    }

    @Test("a cleared rating leaves the count, the sum and its bucket")
    func outOf() {
        let moved = row.moving(into: nil, outOf: 5)
        #expect((moved.count, moved.sum) == (2, 6))
        #expect(moved.distribution == [0, 0, 1, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test("a changed rating keeps the count and moves between buckets")
    func between() {
        let moved = row.moving(into: 1, outOf: 4)
        #expect((moved.count, moved.sum) == (3, 8))
        #expect(moved.distribution == [1, 0, 1, 0, 1, 0, 0, 0, 0, 0])
        #expect(row.moving(into: 3, outOf: 3).distribution == row.distribution)
    }

    @Test("a new item's row has its scale and nothing else")
    func unrated() throws {
        let new = SummaryRow.unrated(on: try Scale(maxRating: 7), isScaleExplicit: false)
        #expect((new.scale.maxRating, new.isScaleExplicit, new.count, new.sum) == (7, false, 0, 0))
        #expect(new.distribution.allSatisfy { $0 == 0 } && new.distribution.count == PerStar.capacity)
    }
}
