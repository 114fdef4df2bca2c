import Foundation
import Glibc

/// A tmpfs of a few hundred KiB mounted on a fresh directory, to run out of space for real.
/// Needs root (CI runs as root); `isAvailable` says whether this process may mount.
public final class SmallDisk {
    public let path: String

    public static var isAvailable: Bool { geteuid() == 0 }

    public init(kilobytes: Int) throws {
        path = try TemporaryDirectory("ratings-small-disk").path
        let status = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
        guard status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Unmounts and removes the directory.
    public func remove() {
        _ = try? Self.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The tool's exit status, -1 if it did not end within a minute. Through `Subprocess`
    /// (posix_spawn): Foundation's `Process.waitUntilExit` was seen to hang for good on a child
    /// that had exited while other tests started processes.
    private static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = try Subprocess([tool] + arguments, environment: ["PATH": "/usr/bin:/bin"])
        defer { process.stop() }
        return process.waitForExit(timeout: 60) ?? -1
    }
}
