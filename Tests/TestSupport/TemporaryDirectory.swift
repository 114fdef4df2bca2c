import Foundation

/// A fresh directory under the system temp folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a new, empty directory.
    public init(_ label: String = "ratings-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A directory at `path`, created if missing (removed by `remove()` like a fresh one).
    public init(at path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Deletes the directory and everything in it.
    public func remove() {
        // A store released on another thread may delete its -wal and -shm files while this walks
        // the folder; the walk then stops at the vanished file, and another pass finishes it.
        for _ in 0..<5 where FileManager.default.fileExists(atPath: path) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
