import RatingsCore
import Testing

@Suite("Scale, stars and identifiers refuse bad values as typed errors")
struct ValidationTests {
    @Test("scales 1 through 10 are accepted", arguments: 1...10)
    func acceptsScale(max: Int) throws {
        #expect(try Scale(maxRating: max).maxRating == max)
    }

    @Test("scales outside 1...10 are refused", arguments: [0, -1, 11, 100, Int.min, Int.max])
    func refusesScale(max: Int) {
        #expect(throws: RatingError.scaleOutOfRange(given: String(max))) { try Scale(maxRating: max) }
    }

    @Test("stars outside the scale are refused", arguments: [0, -3, 6, Int.max, Int.min])
    func rejectsStarsOutsideScale(stars: Int) throws {
        let scale = try Scale(maxRating: 5)
        #expect(throws: RatingError.starsOutOfRange(given: String(stars), scale: scale)) { try Stars(stars, on: scale) }
    }

    @Test("stars on the scale are accepted", arguments: 1...5)
    func acceptsStarsOnScale(stars: Int) throws {
        #expect(try Stars(stars, on: Scale(maxRating: 5)).count == stars)
    }

    @Test("identifiers from the API's alphabet are accepted", arguments: [
        "dinner-42", "u-17", "a", "A.B_C~D:E@F-G", "...", ".a", "a..", String(repeating: "x", count: 128),
    ])
    func acceptsIdentifier(text: String) throws {
        #expect(try ItemID(text).rawValue == text)
        #expect(try RaterID(text).rawValue == text)
        #expect(try Array(text.utf8).withUnsafeBufferPointer { bytes throws(RatingError) in try ItemID(validating: bytes) } == ItemID(text))
    }

    @Test("every byte is allowed in an identifier exactly when the API's alphabet has it")
    func alphabetByteByByte() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~:@-".utf8)
        for byte in UInt8.min...UInt8.max {
            // After an "x", so that "." is judged as a character and not as a dot segment.
            let problem = [UInt8(ascii: "x"), byte].withUnsafeBufferPointer(IdentifierRule.problem(withBytes:))
            #expect((problem == nil) == alphabet.contains(byte), "byte \(byte)")
        }
    }

    @Test("bad identifiers are refused with a reason", arguments: [
        "", ".", "..", "a b", "a/b", "é", "a%20", "a?b", "a#b", String(repeating: "x", count: 129), "a\u{0}b", "ünï",
    ])
    func refusesIdentifier(text: String) {
        #expect(IdentifierRule.problem(with: text) != nil)
        #expect(throws: RatingError.self) { try ItemID(text) }
        #expect(throws: RatingError.self) { try Array(text.utf8).withUnsafeBufferPointer { bytes throws(RatingError) in try ItemID(validating: bytes) } }
        #expect(throws: RatingError.self) { try RaterID(text) }
    }

    @Test("the reason names what is wrong", arguments: [
        ("", "is empty"), (".", "dot segment"), ("..", "dot segment"), ("a b", "outside"), ("é", "outside"),
        (String(repeating: "x", count: 129), "129 bytes long"), (String(repeating: "x", count: 100) + "/", "outside"),
    ])
    func namesTheProblem(text: String, reason: String) {
        #expect(IdentifierRule.problem(with: text)?.contains(reason) == true)
    }

    @Test("item ids are equal, and hash alike, exactly when their text is the same, however they were made")
    func itemIDEquality() throws {
        let checked = try ItemID("bench-37"), stored = ItemID(stored: "bench-37")
        #expect(checked == stored)
        #expect(checked.hashValue == stored.hashValue)
        // A batch's ids are cut from the request's bytes; the caches hold ids made from text.
        let cut = try Array("bench-37".utf8).withUnsafeBufferPointer { bytes throws(RatingError) in try ItemID(validating: bytes) }
        #expect(cut == stored && cut.precomputedHash == stored.precomputedHash && cut.rawValue == "bench-37")
        #expect(Set([checked, stored, ItemID(stored: "bench-38")]).count == 2)
        let long = String(repeating: "x", count: 100)
        #expect(try ItemID(long) == ItemID(stored: long))
        #expect(try ItemID(long) != ItemID(stored: long + "y"))
        #expect(try ItemID("a") != ItemID("A"))
    }

    @Test("summaries size the distribution to the scale")
    func distributionFollowsScale() throws {
        let summary = ItemSummary(item: ItemID(stored: "x"), scale: try Scale(maxRating: 3), count: 3, sum: 6,
                                  distribution: [1, 1, 1, 0, 0, 0, 0, 0, 0, 0], reviewCount: 0)
        #expect(summary.distribution == [1, 1, 1])
        #expect(summary.averageHundredths == 200)
        #expect(ItemSummary.empty(ItemID(stored: "y"), on: .standard).averageHundredths == nil)
    }

    @Test("per-star values compare and hash by the values they hold, however they were built")
    func perStarValues() {
        let built = PerStar(length: 5) { [0, 2, 0, 1, 0][$0] }
        let cut = PerStar([0, 2, 0, 1, 0, 9, 9, 9, 9, 9]).resized(to: 5)
        let literal: PerStar = [0, 2, 0, 1, 0]
        #expect(built == cut && cut == literal && Set([built, cut, literal]).count == 1)
        #expect(Array(literal.resized(to: 7)) == [0, 2, 0, 1, 0, 0, 0] && literal.resized(to: 7) != literal)
        #expect(literal.resized(to: 3) == [0, 2, 0] && literal.resized(to: 3) != [0, 2, 1])
        #expect(PerStar(Array(1...12)).count == PerStar.capacity && PerStar(length: 0) { _ in 1 }.isEmpty)
        #expect(PerStar.capacity == Scale.allowed.upperBound)
    }

    @Test("decimal text drops trailing zeros", arguments: [
        (367, "3.67"), (350, "3.5"), (400, "4"), (0, "0"), (5, "0.05"), (50, "0.5"), (1000, "10"), (101, "1.01"),
    ])
    func decimalText(hundredths: Int, text: String) {
        #expect(DecimalText.hundredths(hundredths) == text)
    }
}
