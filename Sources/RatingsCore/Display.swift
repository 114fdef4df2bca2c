/// How one value is drawn and announced on one scale: the rounded value, a symbol and a fill
/// share per star, and the VoiceOver strings. Built only from exact values.
public struct Display: Sendable, Hashable {
    /// The scale the stars are drawn on.
    public let scale: Scale
    /// The value rounded to the nearest 0.5 (ties up), in half steps; 0 means not rated.
    public let halfSteps: Int
    /// Per star, the share covered by the unrounded value, in hundredths (ties up).
    public let fillHundredths: PerStar

    /// Displays `value`, first clamped to `0...scale.maxRating`.
    public init(_ value: ExactValue, on scale: Scale) {
        let clamped = value.clamped(to: scale.maxRating)
        self.scale = scale
        self.halfSteps = clamped.roundedHalfSteps
        self.fillHundredths = PerStar(length: scale.maxRating) { clamped.fillHundredths(ofStar: $0 + 1) }
    }

    /// Displays a single rating.
    public init(_ stars: Stars, on scale: Scale) { self.init(ExactValue(stars: stars), on: scale) }

    /// Whether anything is shown: a value of 0 means not rated.
    public var isRated: Bool { halfSteps > 0 }

    /// The rounded value as the API writes it (`3.5`, `4`, `0`).
    public var valueText: String { DecimalText.halfSteps(halfSteps) }

    /// One SF Symbol name per star: full when `value ≥ n`, half when `value = n − 0.5`, else empty.
    public var symbols: [StarSymbol] {
        (1...scale.maxRating).map { star in
            if halfSteps >= 2 * star { return .full }
            if halfSteps == 2 * star - 1 { return .half }
            return .empty
        }
    }
}
