import JSON
import RatingsCore
import TestSupport
import Testing

/// Every input the request-body fuzzer ever crashed on (fuzz/regressions/request-body/), and its
/// seeds, goes again through what that fuzzer drives: the JSON parser, the stars rule, and the
/// display's decimal reader on every scale. Each must be read or refused, never trap, and a
/// display must stay inside its scale.
@Suite("Fuzz regressions: request bodies and display values")
struct RequestBodyFuzzRegressionTests {
    static var inputs: [String] { FuzzCorpus.inputs(of: "request-body") }

    @Test("the seed corpus is there to replay")
    func corpusExists() {
        #expect(Self.inputs.count >= 5)
    }

    @Test("each saved input is read or refused, and its display stays inside the scale", arguments: inputs)
    func replays(path: String) throws {
        let bytes = try FuzzCorpus.bytes(at: path)
        if let body = try? JSONParser.parse(bytes), case .object = body, let stars = body["stars"],
           case .value(let count)? = stars.integer {
            _ = try? Stars(count, on: try Scale(maxRating: 5))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        for maxRating in [1, 5, 10] {
            let scale = try Scale(maxRating: maxRating)
            guard let value = try? DecimalInput.parse(text, on: scale) else { continue }
            let display = Display(value, on: scale)
            #expect((0...2 * maxRating).contains(display.halfSteps))
            #expect(display.fillHundredths.allSatisfy { (0...100).contains($0) })
            #expect(display.symbols.count == maxRating)
        }
    }
}
