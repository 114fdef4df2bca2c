import JSON
import RatingsCore

/// What the request-body fuzzer (fuzz/RequestBodyFuzz.swift) does with an input, in one place
/// for it and for the test that replays its corpus (RatingsCoreTests): the bytes as a JSON body
/// and its `stars`, as a `/v1/display` value on three scales, and as an identifier.
public enum RequestBodyFuzzInput {
    /// What went wrong: a display outside its scale, a fill outside 0 to 1, or a star count that
    /// is not the scale's. (A trap anywhere stops the fuzzer, or the test, on its own.)
    public static func violations(_ bytes: [UInt8]) -> [String] {
        if let value = try? JSONParser.parse(bytes), case .object = value, let stars = value["stars"] {
            if case .value(let integer)? = stars.integer, let scale = try? Scale(maxRating: 5) {
                _ = try? Stars(integer, on: scale)
            }
            _ = stars.kindDescription
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var violations: [String] = []
        for max in [1, 5, 10] {
            guard let scale = try? Scale(maxRating: max), let value = try? DecimalInput.parse(text, on: scale) else { continue }
            let display = Display(value, on: scale)
            if !(0...2 * max).contains(display.halfSteps) { violations.append("\(display.halfSteps) half stars on a scale of \(max)") }
            if !display.fillHundredths.allSatisfy({ (0...100).contains($0) }) { violations.append("a fill outside 0...1 on a scale of \(max)") }
            if display.symbols.count != max { violations.append("\(display.symbols.count) symbols on a scale of \(max)") }
        }
        _ = IdentifierRule.problem(with: text)
        return violations
    }
}
