/// Writes fixed-point numbers the way the API prints them: no trailing zeros, no trailing
/// dot (`4`, `3.5`, `0.67`), which is valid both as a JSON number and as spoken text.
public enum DecimalText {
    /// Writes a count of half steps (7 → "3.5").
    public static func halfSteps(_ halves: Int) -> String {
        halves % 2 == 0 ? String(halves / 2) : "\(halves / 2).5"
    }

    /// Writes a count of hundredths (367 → "3.67", 50 → "0.5", 100 → "1").
    public static func hundredths(_ value: Int) -> String {
        let whole = value / 100, rest = value % 100
        if rest == 0 { return String(whole) }
        if rest % 10 == 0 { return "\(whole).\(rest / 10)" }
        return rest < 10 ? "\(whole).0\(rest)" : "\(whole).\(rest)"
    }
}
