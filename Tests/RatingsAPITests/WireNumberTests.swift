import JSON
@testable import RatingsAPI
import RatingsCore
import Testing

@Suite("Numbers in answers")
struct WireNumberTests {
    @Test("a number of hundredths is written as DecimalText writes it, from the copied texts and past them")
    func hundredths() {
        for value in 0...1_100 { // the texts end at 1,000: an average of 10 on the largest scale
            var json = JSONWriter()
            json.beginArray()
            WireFormat.hundredths(value, into: &json)
            WireFormat.hundredths(value, into: &json)
            json.endArray()
            let text = DecimalText.hundredths(value)
            #expect(json.bytes == Array("[\(text),\(text)]".utf8), "\(value)")
        }
    }
}
