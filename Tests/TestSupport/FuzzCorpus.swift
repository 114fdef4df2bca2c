import Foundation

/// The saved inputs of one libFuzzer target (see scripts/fuzz.sh): every input it ever crashed
/// on, in fuzz/regressions/TARGET/, and its seeds, in fuzz/seeds/TARGET/, for the tests to replay.
public enum FuzzCorpus {
    private static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../fuzz").standardizedFileURL

    /// The paths of `target`'s saved inputs, sorted.
    public static func inputs(of target: String) -> [String] {
        ["regressions", "seeds"].flatMap { kind in
            let folder = fuzz.appendingPathComponent(kind).appendingPathComponent(target)
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0).path }
        }.sorted()
    }

    /// The bytes of the saved input at `path` (one of `inputs(of:)`).
    public static func bytes(at path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
