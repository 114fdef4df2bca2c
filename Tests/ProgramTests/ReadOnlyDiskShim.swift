import Foundation
import TestSupport
import Testing

/// The test fixture `readonly-disk-shim.c`, compiled for `LD_PRELOAD`: while the file `.readonly`
/// exists in the folder it is given, every write, truncate or sync of a file there fails with EROFS;
/// while `.failing-sync` does, every sync fails with EIO.
struct ReadOnlyDiskShim {
    /// Sanitizer builds put their runtime first in the process; a preloaded shim would displace it.
    static var usable: Bool { !RatingsProcess.binaryPath.contains("/sanitize-") }

    /// The compiled shim.
    let library: String
    /// The folder it can turn read-only.
    let folder: String

    /// Compiles the shim into `directory` and makes `directory`/data the folder it guards.
    init(in directory: TemporaryDirectory) throws {
        library = directory.file("readonly-disk-shim.so")
        folder = directory.file("data")
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/readonly-disk-shim.c").standardizedFileURL.path
        // A posix_spawn child rather than Foundation's Process, whose waitUntilExit was seen to
        // hang for good on a compiler that had exited while other tests started processes.
        let compiler = try Subprocess(["/usr/bin/cc", "-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"],
                                      environment: ["PATH": "/usr/bin:/bin"])
        defer { compiler.stop() }
        try #require(compiler.waitForExit(timeout: 60) == 0, "the fault shim must compile: \(compiler.stderr)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The environment that preloads the shim into a child.
    var environment: [String: String] { ["LD_PRELOAD": library, "RATINGS_FAULT_DIR": folder] }

    /// Turns the folder read-only, or writable again.
    func setReadOnly(_ readOnly: Bool) { setFlag(".readonly", readOnly) }

    /// Makes every sync in the folder fail, or work again.
    func setSyncFailing(_ failing: Bool) { setFlag(".failing-sync", failing) }

    private func setFlag(_ name: String, _ on: Bool) {
        let flag = "\(folder)/\(name)"
        if on { close(open(flag, O_CREAT | O_WRONLY, 0o600)) } else { try? FileManager.default.removeItem(atPath: flag) }
    }
}
