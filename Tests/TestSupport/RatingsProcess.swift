import Foundation
import Glibc

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

    private let child: Subprocess

    /// Starts `ratings ARGUMENTS` with `environment` added to a minimal environment; a stream
    /// given a path (`standardOutput`, `standardError`) goes there instead of being collected.
    public init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil, binary: String? = nil,
                standardOutput: String? = nil, standardError: String? = nil) throws {
        child = try Subprocess([binary ?? RatingsProcess.binaryPath] + arguments,
                               environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }, directory: directory,
                               standardOutput: standardOutput, standardError: standardError)
    }

    public var stdout: String { child.stdout }
    public var stderr: String { child.stderr }
    public var pid: Int32 { child.pid }
    public var isRunning: Bool { child.isRunning }

    /// Waits for standard output to contain `text`; false on timeout or exit.
    public func waitForOutput(_ text: String, timeout: Double = 20) -> Bool {
        eventually(timeout: timeout) { stdout.contains(text) || !isRunning } && stdout.contains(text)
    }

    /// The port from the "listening on http://HOST:PORT" line.
    public func waitForPort(timeout: Double = 20) -> Int? {
        guard waitForOutput("listening on http://", timeout: timeout) else { return nil }
        return Self.port(inListeningLine: stdout.split(separator: "\n").first { $0.contains("listening on http://") } ?? "")
    }

    /// The port in a "listening on http://HOST:PORT ..." line.
    public static func port(inListeningLine line: some StringProtocol) -> Int? {
        let line = String(line)
        guard let range = line.range(of: #"http://[^ ]+:(\d+)"#, options: .regularExpression) else { return nil }
        return Int(line[range].split(separator: ":").last ?? "")
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { child.send(signal) }

    /// Waits for the exit; returns the status, or nil on timeout.
    public func waitForExit(timeout: Double = 20) -> Int32? { child.waitForExit(timeout: timeout) }

    /// Kills the process if it is still running (test cleanup).
    public func stop() { child.stop() }

    /// Runs `ratings ARGUMENTS` to completion and returns status and output.
    public static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                           binary: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try RatingsProcess(arguments, environment: environment, directory: directory, binary: binary)
        guard let status = process.waitForExit(timeout: 60) else {
            process.stop()
            return (-1, process.stdout, process.stderr)
        }
        return (status, process.stdout, process.stderr)
    }
}

/// `ratings serve` run as a child process on a free loopback port, asked over fresh connections:
/// the tests' one way to run the real binary as a server (its flags, its environment, several
/// replicas side by side). Stopped by `stop()`, which a test calls in a `defer`.
public final class RatingsServer: Sendable {
    public let process: RatingsProcess
    public let port: Int

    /// Starts `ratings serve --port 0 ARGUMENTS` with `environment` and waits for its port; when it
    /// does not listen, stops it and throws with what it wrote to standard error.
    /// Standard error goes to `standardError` when given (a FIFO, say) instead of being collected.
    public init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                standardError: String? = nil) throws {
        process = try RatingsProcess(["serve", "--port", "0"] + arguments, environment: environment, directory: directory,
                                     standardError: standardError)
        guard let port = process.waitForPort() else {
            process.stop()
            throw RawHTTPClient.ClientError.malformed("ratings serve did not start: \(process.stderr)")
        }
        self.port = port
    }

    /// `method path` on a fresh connection, with a JSON body when `json` is given.
    public func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        try RawHTTPClient.request(port: port, method, path, json: json, headers: headers)
    }

    /// The JSON object answering `method path`.
    public func object(_ method: String, _ path: String, headers: [String: String] = [:]) throws -> [String: Any] {
        TestSupport.object(try request(method, path, headers: headers))
    }

    /// `text` sent as it is (`\n` becomes CRLF) on a fresh connection, and its response.
    public func exchange(_ text: String) throws -> RawHTTPClient.Response {
        try RawHTTPClient.exchange(port: port, text)
    }

    public var stdout: String { process.stdout }
    public var stderr: String { process.stderr }
    public var pid: Int32 { process.pid }

    /// Sends `signal` to the server.
    public func send(_ signal: Int32) { process.send(signal) }

    /// Waits for the exit; returns the status, or nil on timeout.
    public func waitForExit(timeout: Double = 20) -> Int32? { process.waitForExit(timeout: timeout) }

    /// Kills the server if it is still running.
    public func stop() { process.stop() }
}
