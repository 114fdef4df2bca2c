/// Why a language file could not be loaded: the file and what to fix in it.
public struct LanguageFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, such as `es.json`.
    public let file: String
    /// What is wrong, phrased as what to change.
    public let problem: String

    public var description: String { "locales/\(file): \(problem)" }

    /// A problem not yet tied to its file.
    public struct Problem: Error, Sendable, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
