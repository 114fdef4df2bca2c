extension Display {
    /// What VoiceOver says first: the element is a rating.
    public var accessibilityLabel: String { "Rating" }

    /// What VoiceOver says next: "3.5 out of 5 stars", "1 out of 1 star", or "Not rated".
    public var accessibilityValue: String {
        guard isRated else { return "Not rated" }
        let noun = scale.maxRating == 1 ? "star" : "stars"
        return "\(valueText) out of \(scale.maxRating) \(noun)"
    }
}
