import ASCIIKit

/// How a language writes the numbers of a display: its decimal separator and its ten digits.
public struct NumberStyle: Sendable, Equatable {
    /// Written between the whole and the fractional part (`,` in "3,5", `٫` in Arabic).
    public let decimalSeparator: String
    /// The digits zero to nine (ASCII, or for instance Arabic-Indic `٠١٢٣٤٥٦٧٨٩`).
    public let digits: [Character]

    /// Checks that there are exactly ten digits and a separator that is not one of them.
    public init(decimalSeparator: String, digits: String) throws(LanguageFileError.Problem) {
        let digits = Array(digits)
        guard digits.count == 10, Set(digits).count == 10 else {
            throw .init("digits must be ten different characters, zero to nine; found \(digits.count)")
        }
        guard !decimalSeparator.isEmpty, !decimalSeparator.contains(where: digits.contains) else {
            throw .init("decimalSeparator must be non-empty and contain no digit")
        }
        self.decimalSeparator = decimalSeparator
        self.digits = digits
    }

    /// Rewrites a number the API writes in ASCII (`3.5`, `10`) in this style.
    public func format(_ plain: String) -> String {
        var out = ""
        for byte in plain.utf8 {
            if byte == UInt8(ascii: ".") {
                out += decimalSeparator
            } else if ASCII.isDigit(byte) {
                out.append(digits[Int(byte - UInt8(ascii: "0"))])
            }
        }
        return out
    }
}
