import Foundation
import Locking

/// The real `ratings` binary run as a child process, its output collected for assertions.
public final class RatingsProcess: Sendable {
    /// The binary SwiftPM built beside the test bundle.
    public static var binaryPath: String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // The XCTest bundle on Linux is a plain executable in the build directory.
        if directory.lastPathComponent.hasSuffix(".xctest") { directory = directory.deletingLastPathComponent() }
        return directory.appendingPathComponent("ratings").path
    }

    private let process: Process
    private let output = CapturedOutput()

    /// Starts `ratings ARGUMENTS` with `environment` added to a minimal environment.
    public init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil, binary: String? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary ?? RatingsProcess.binaryPath)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stdout += text }
        }
        err.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stderr += text }
        }
        try process.run()
    }

    public var stdout: String { output.text.withLock { $0.stdout } }
    public var stderr: String { output.text.withLock { $0.stderr } }
    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Waits for standard output to contain `text`; false on timeout or exit.
    public func waitForOutput(_ text: String, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stdout.contains(text) { return true }
            if !process.isRunning { return stdout.contains(text) }
            usleep(10_000)
        }
        return false
    }

    /// The port from the "listening on http://HOST:PORT" line.
    public func waitForPort(timeout: Double = 20) -> Int? {
        guard waitForOutput("listening on http://", timeout: timeout) else { return nil }
        let line = stdout.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
        guard let range = line.range(of: #"http://[^ ]+:(\d+)"#, options: .regularExpression) else { return nil }
        return Int(line[range].split(separator: ":").last ?? "")
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the exit; returns the status, or nil on timeout.
    public func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { return nil }
        usleep(50_000) // let the readability handlers take the last output
        return process.terminationStatus
    }

    /// Kills the process if it is still running (test cleanup).
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs `ratings ARGUMENTS` to completion and returns status and output.
    public static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                           binary: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try RatingsProcess(arguments, environment: environment, directory: directory, binary: binary)
        guard let status = child.waitForExit(timeout: 60) else {
            child.stop()
            return (-1, child.stdout, child.stderr)
        }
        return (status, child.stdout, child.stderr)
    }
}

/// What a child process wrote, filled by the pipes' handlers on their own threads.
private final class CapturedOutput: Sendable {
    let text = Locked<(stdout: String, stderr: String)>(("", ""))
}
