/// A CLDR plural category: which grammatical form a number takes in a language
/// (Unicode TR35, Part 3, "Language Plural Rules").
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}
