extension Language {
    /// What VoiceOver says after the label: "3.5 out of 5 stars", "3,5 de 5 estrellas", or
    /// "Not rated". The plural form follows the scale, as the noun agrees with it.
    public func accessibilityValue(of display: Display) -> String {
        guard display.isRated else { return notRated }
        let max = String(display.scale.maxRating)
        // The category of the number as written (the scale's, which the noun agrees with), read
        // from its text, so visible decimals would count as CLDR counts them. Loading checked that
        // every category of the rules has a sentence, so `other` is never needed.
        let category = PluralOperands(max).map(pluralRules.category(of:)) ?? .other
        let sentence = outOf[category] ?? outOf[.other]
        return sentence?.render(value: numbers.format(display.valueText), max: numbers.format(max)) ?? notRated
    }

    /// A word for a whole-star value on the five-star scale ("Loved it"); empty otherwise,
    /// because the five captions describe five steps and mean nothing on other scales.
    public func caption(of display: Display) -> String {
        guard display.isRated, display.scale.maxRating == Self.captionCount, display.halfSteps % 2 == 0 else { return "" }
        return captions[display.halfSteps / 2 - 1]
    }
}
