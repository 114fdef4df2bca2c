import RatingsCore
import Testing

private let five = try! Scale(maxRating: 5)
private let english = try! LanguageCatalog.bundled().fallback

@Suite("Display of exact values")
struct DisplayTests {
    @Test("seed example: 3.5 shows three full stars, one half, one empty")
    func seedExampleThreeAndAHalf() {
        let display = Display(ExactValue(thousandths: 3500), on: five)
        #expect(display.valueText == "3.5")
        #expect(display.symbols == [.full, .full, .full, .half, .empty])
        #expect(display.symbols.map(\.rawValue) == ["star.fill", "star.fill", "star.fill", "star.leadinghalf.filled", "star"])
        #expect(display.fillHundredths == [100, 100, 100, 50, 0])
        #expect(english.accessibilityLabel == "Rating")
        #expect(english.accessibilityValue(of: display) == "3.5 out of 5 stars")
    }

    @Test("rounds to the nearest half, ties up", arguments: [
        ("4.2", "4"), ("3.3", "3.5"), ("3.25", "3.5"), ("3.75", "4"), ("2.74", "2.5"),
        ("3.2499", "3"), ("3.7499999", "3.5"), ("0.25", "0.5"), ("0.24", "0"), ("4.75", "5"),
    ])
    func roundsToNearestHalfTiesUp(input: String, expected: String) throws {
        let value = try DecimalInput.parse(input, on: five)
        #expect(Display(value, on: five).valueText == expected)
    }

    @Test("clamps to the scale before displaying", arguments: [
        ("-1", "0", "Not rated"), ("7", "5", "5 out of 5 stars"), ("1e400", "5", "5 out of 5 stars"),
        ("-1e400", "0", "Not rated"), ("-0", "0", "Not rated"), ("5.0000001", "5", "5 out of 5 stars"),
        ("1e-400", "0", "Not rated"), ("0.0000000000000000000000000000000000000001e40", "1", "1 out of 5 stars"),
    ])
    func clampsBeforeDisplaying(input: String, value: String, spoken: String) throws {
        let display = Display(try DecimalInput.parse(input, on: five), on: five)
        #expect(display.valueText == value)
        #expect(english.accessibilityValue(of: display) == spoken)
    }

    @Test("a clamped value fills every star", arguments: ["7", "1e400", "5"])
    func clampedValueFillsEveryStar(input: String) throws {
        let display = Display(try DecimalInput.parse(input, on: five), on: five)
        #expect(display.fillHundredths == [100, 100, 100, 100, 100])
        #expect(display.symbols == Array(repeating: .full, count: 5))
    }

    @Test("refuses what is not a JSON number", arguments: [
        "", "nan", "NaN", "inf", "-inf", "Infinity", "3,5", "0x5", "+3", "03", ".5", "5.", "1e", "1e+",
        " 3", "3 ", "--1", "1.2.3", "١", "3\u{0}",
    ])
    func refusesNonNumbers(input: String) {
        #expect(throws: RatingError.invalidDisplayValue(given: input)) { try DecimalInput.parse(input, on: five) }
    }

    @Test("a plain decimal is read as the same value as that number written with an exponent")
    func plainDecimalsAgreeWithTheGeneralReading() throws {
        // `e0` sends the same number through the general reading, so the quick one for plain
        // decimals must agree with it on every value and on every refusal.
        let wholes = ["0", "1", "3", "9", "10", "99", "999", "1000", "9999", "10000", "99999", String(repeating: "9", count: 19),
                      String(repeating: "9", count: 25), "00", "05", ""]
        let fractions = ["", ".0", ".5", ".25", ".125", ".1239", ".0001", ".9999999", ".", ".5.5", ".x"]
        for maxRating in [2, 5, 10] {
            let scale = try Scale(maxRating: maxRating)
            for whole in wholes {
                for fraction in fractions {
                    let text = whole + fraction
                    let plain = Result { () throws(RatingError) in try DecimalInput.parse(text, on: scale) }
                    let general = Result { () throws(RatingError) in try DecimalInput.parse(text + "e0", on: scale) }
                    switch (plain, general) {
                    case let (.success(a), .success(b)): #expect(a == b, "\(text) on \(maxRating)")
                    case (.failure, .failure): break
                    default: Issue.record("\(text) on \(maxRating): \(plain) but with e0 \(general)")
                    }
                }
            }
        }
        #expect(try DecimalInput.parse("3.3", on: five) == ExactValue(thousandths: 3300))
        #expect(try DecimalInput.parse("4.9999", on: five) == ExactValue(thousandths: 4999))
        #expect(try DecimalInput.parse("9999.5", on: five) == ExactValue(thousandths: 5000))
    }

    @Test("a long run of digits is clamped to the scale, not multiplied past Int's range", arguments: [
        String(repeating: "9", count: 19), String(repeating: "9", count: 20) + ".5", String(repeating: "9", count: 400),
        "9999999999999999999999902840" + "e0", "1" + String(repeating: "0", count: 30) + ".25",
    ])
    func longDigitRunsAreClamped(input: String) throws {
        for maxRating in [1, 5, 10] {
            let scale = try Scale(maxRating: maxRating)
            #expect(try DecimalInput.parse(input, on: scale) == ExactValue(thousandths: maxRating * 1000))
        }
    }

    @Test("a long run of digits with a leading zero or a bad tail is refused, not multiplied past Int's range", arguments: [
        "0" + String(repeating: "9", count: 25), String(repeating: "9", count: 25) + "x", String(repeating: "9", count: 25) + ".",
    ])
    func longDigitRunsAreRefused(input: String) {
        #expect(throws: RatingError.invalidDisplayValue(given: input)) { try DecimalInput.parse(input, on: five) }
    }

    @Test("fill comes from the unrounded value, two decimals, ties up", arguments: [
        ("3.3", [100, 100, 100, 30, 0]), ("0.005", [1, 0, 0, 0, 0]), ("0.0049", [0, 0, 0, 0, 0]),
        ("4.995", [100, 100, 100, 100, 100]), ("4.994", [100, 100, 100, 100, 99]), ("2.125", [100, 100, 13, 0, 0]),
    ])
    func fillFromUnroundedValue(input: String, fill: [Int]) throws {
        #expect(Array(Display(try DecimalInput.parse(input, on: five), on: five).fillHundredths) == fill)
    }

    @Test("a near tie is decided exactly: 191/51 is 3.5 although its average prints as 3.75")
    func nearTieDecidedExactly() {
        let average = ExactValue(sum: 191, count: 51)
        #expect(Display(average, on: five).valueText == "3.5")
        #expect(DecimalText.hundredths(average.roundedHundredths) == "3.75")
        #expect(Display(average, on: five).fillHundredths == [100, 100, 100, 75, 0])
    }

    @Test("an average: 11/3 is 3.67 and shows 3.5")
    func averageExample() {
        let average = ExactValue(sum: 11, count: 3)
        #expect(average.roundedHundredths == 367)
        #expect(Display(average, on: five).valueText == "3.5")
        #expect(Display(average, on: five).fillHundredths == [100, 100, 100, 67, 0])
    }

    @Test("accessibility value in every form", arguments: [
        (1, 1000, "1 out of 1 star"), (1, 500, "0.5 out of 1 star"), (1, 0, "Not rated"),
        (3, 500, "0.5 out of 3 stars"), (5, 4000, "4 out of 5 stars"), (10, 10000, "10 out of 10 stars"),
        (5, 200, "Not rated"),
    ])
    func accessibilityValue(max: Int, thousandths: Int, spoken: String) throws {
        let scale = try Scale(maxRating: max)
        #expect(english.accessibilityValue(of: Display(ExactValue(thousandths: thousandths), on: scale)) == spoken)
    }

    @Test("no ratings means not rated")
    func noRatingsIsNotRated() {
        let display = Display(ExactValue(sum: 0, count: 0), on: five)
        #expect(display.halfSteps == 0)
        #expect(english.accessibilityValue(of: display) == "Not rated")
        #expect(display.symbols == Array(repeating: .empty, count: 5))
        #expect(display.fillHundredths == [0, 0, 0, 0, 0])
    }
}
