// libFuzzer target: request body decoding: the strict JSON parser, the integer-member rule for
// stars and maxRating, and the exact decimal reader of /v1/display. Built by scripts/fuzz.sh,
// linked with the RatingsCore and JSON modules; not part of the package.

import JSON
import RatingsCore

@_cdecl("LLVMFuzzerTestOneInput")
public func requestBodyFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONParser.parse(bytes) {
        if case .object = value, let stars = value["stars"] {
            if case .value(let integer)? = stars.integer, let scale = try? Scale(maxRating: 5) {
                _ = try? Stars(integer, on: scale)
            }
            _ = stars.kindDescription
        }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    for max in [1, 5, 10] {
        guard let scale = try? Scale(maxRating: max), let value = try? DecimalInput.parse(text, on: scale) else { continue }
        let display = Display(value, on: scale)
        precondition(display.halfSteps >= 0 && display.halfSteps <= 2 * max, "value outside 0...max")
        precondition(display.fillHundredths.allSatisfy { (0...100).contains($0) }, "fill outside 0...1")
        precondition(display.symbols.count == max, "one symbol per star")
    }
    _ = IdentifierRule.problem(with: text)
    return 0
}
