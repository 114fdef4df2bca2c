/// What each bundled language must say for a fixed set of seed examples, written out by hand so
/// the core tests and the API tests check the same words.
public struct LanguageSeedExample: Sendable, CustomStringConvertible {
    public let tag: String
    public let label: String
    /// 3.5 of 5.
    public let threeAndAHalfOfFive: String
    /// 4 of 5, and its caption.
    public let fourOfFive: String
    public let fourOfFiveCaption: String
    /// 1 of 1.
    public let oneOfOne: String
    public let notRated: String
    public let layoutDirection: String
    public let halfStarFillsFrom: String

    public var description: String { tag }

    public static let all: [LanguageSeedExample] = [
        .init(tag: "en", label: "Rating", threeAndAHalfOfFive: "3.5 out of 5 stars", fourOfFive: "4 out of 5 stars",
              fourOfFiveCaption: "Really good", oneOfOne: "1 out of 1 star", notRated: "Not rated",
              layoutDirection: "leftToRight", halfStarFillsFrom: "left"),
        .init(tag: "es", label: "Valoración", threeAndAHalfOfFive: "3,5 de 5 estrellas", fourOfFive: "4 de 5 estrellas",
              fourOfFiveCaption: "Muy bueno", oneOfOne: "1 de 1 estrella", notRated: "Sin valorar",
              layoutDirection: "leftToRight", halfStarFillsFrom: "left"),
        .init(tag: "fr", label: "Note", threeAndAHalfOfFive: "3,5 sur 5 étoiles", fourOfFive: "4 sur 5 étoiles",
              fourOfFiveCaption: "Très bien", oneOfOne: "1 sur 1 étoile", notRated: "Non noté",
              layoutDirection: "leftToRight", halfStarFillsFrom: "left"),
        .init(tag: "de", label: "Bewertung", threeAndAHalfOfFive: "3,5 von 5 Sternen", fourOfFive: "4 von 5 Sternen",
              fourOfFiveCaption: "Richtig gut", oneOfOne: "1 von 1 Stern", notRated: "Nicht bewertet",
              layoutDirection: "leftToRight", halfStarFillsFrom: "left"),
        .init(tag: "pt", label: "Avaliação", threeAndAHalfOfFive: "3,5 de 5 estrelas", fourOfFive: "4 de 5 estrelas",
              fourOfFiveCaption: "Muito bom", oneOfOne: "1 de 1 estrela", notRated: "Sem avaliação",
              layoutDirection: "leftToRight", halfStarFillsFrom: "left"),
        .init(tag: "ja", label: "評価", threeAndAHalfOfFive: "5つ星のうち3.5", fourOfFive: "5つ星のうち4",
              fourOfFiveCaption: "とても良い", oneOfOne: "1つ星のうち1", notRated: "評価なし",
              layoutDirection: "leftToRight", halfStarFillsFrom: "left"),
        .init(tag: "ar", label: "التقييم", threeAndAHalfOfFive: "٣٫٥ من ٥ نجوم", fourOfFive: "٤ من ٥ نجوم",
              fourOfFiveCaption: "جيد جدًا", oneOfOne: "١ من نجمة واحدة", notRated: "بدون تقييم",
              layoutDirection: "rightToLeft", halfStarFillsFrom: "right"),
        .init(tag: "he", label: "דירוג", threeAndAHalfOfFive: "3.5 מתוך 5 כוכבים", fourOfFive: "4 מתוך 5 כוכבים",
              fourOfFiveCaption: "ממש טוב", oneOfOne: "1 מתוך כוכב אחד", notRated: "לא דורג",
              layoutDirection: "rightToLeft", halfStarFillsFrom: "right"),
    ]
}
