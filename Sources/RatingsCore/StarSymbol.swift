/// The SF Symbol that draws one star of a display.
public enum StarSymbol: String, Sendable, CaseIterable {
    /// A star the value covers completely.
    case full = "star.fill"
    /// The star just after the value's whole part, when the value ends in .5.
    case half = "star.leadinghalf.filled"
    /// A star the value does not reach.
    case empty = "star"
}
