import Foundation
import Glibc
import Locking

/// A child process started with `posix_spawn`, its standard output and error written to files.
/// Files rather than pipes: a child that leaves a daemon behind (`pg_ctl start`) would hold a pipe
/// open forever, and Foundation's `Process.waitUntilExit` was seen to hang on such a child.
public final class Subprocess: Sendable {
    public let pid: Int32
    private let outputPath: String
    private let errorPath: String
    /// The wait status once the child has been reaped.
    private let reaped = Locked<Int32?>(nil)

    /// Starts `argv[0]` with `argv`, `environment` as its whole environment, in `directory`.
    /// `standardOutput` or `standardError`, when given, is a path the stream is opened on instead
    /// of its capture file (a FIFO whose read end the caller holds already, say: opening a FIFO
    /// for writing waits for a reader, and the spawn with it).
    public init(_ argv: [String], environment: [String: String], directory: String? = nil,
                standardOutput: String? = nil, standardError: String? = nil) throws {
        let folder = NSTemporaryDirectory() + "/ratings-child-\(UUID().uuidString)"
        outputPath = folder + ".out"
        errorPath = folder + ".err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput ?? outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError ?? errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // posix_spawn_file_actions_addchdir_np is not visible to Swift; env -C changes directory instead.
        let argv = directory.map { ["/usr/bin/env", "-C", $0] + argv } ?? argv
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, argv[0], &actions, nil, cArguments, cEnvironment)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        pid = child
    }

    deinit {
        unlink(outputPath)
        unlink(errorPath)
    }

    /// What the child has written to standard output so far.
    public var stdout: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What the child has written to standard error so far.
    public var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The exit status (128 + signal for a killed child), or nil while it runs.
    public var exitStatus: Int32? {
        reaped.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            }
            return status.map { $0 & 0x7f == 0 ? ($0 >> 8) & 0xff : 128 + ($0 & 0x7f) }
        }
    }

    public var isRunning: Bool { exitStatus == nil }

    /// Sends `signal`.
    public func send(_ signal: Int32) { if isRunning { kill(pid, signal) } }

    /// Waits up to `timeout` seconds for the exit; the status, or nil if it still runs.
    public func waitForExit(timeout: Double) -> Int32? {
        _ = eventually(timeout: timeout) { !isRunning }
        return exitStatus
    }

    /// Kills the child if it still runs and reaps it.
    public func stop() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        _ = waitForExit(timeout: 10)
    }
}
