import HTTP1
import HTTPServer
import Platform
import RatingsAPI

/// Standard error while `ratings serve` runs. Every line the service writes there (start-up
/// notes, failures met by the event loops, the API, key rotation and the store) goes through here,
/// in the configured format, and is written by a thread of its own (`error-log`): an event loop
/// that meets a failure hands its line over and goes on, however slowly standard error is read.
final class ErrorOutput: Sendable {
    private let format: LogFormat
    private let writer: LogWriter
    /// Holds back repeated failures, this object's and the API's (`APIConfiguration.errorLogThrottle`);
    /// what it still holds is reported at `close`.
    let throttle = LogThrottle()

    /// Formats and holds back lines as the API's error log does, on the machine's clocks.
    private let log: ErrorLog

    init(format: LogFormat) throws {
        self.format = format
        // Every line is written as soon as it is handed over: failures are rare, and an operator
        // watching the terminal should see one when it happens, not 50 ms later. The writer's own
        // reports (lines dropped while standard error took nothing) are written from its thread.
        writer = try LogWriter(fd: 2, name: "error log", threadName: "error-log", wakeBytes: 1) { report in
            StandardStreams.error(LogLine.now(report, format: format))
        }
        let writer = writer
        log = ErrorLog(format: format, clock: MachineClock(), throttle: throttle) { writer.append(line: $0) }
    }

    /// A failure, or a note at `level`; the same failure at most once a second, with a count of
    /// those held back (`LogThrottle`).
    func write(_ message: String, level: LogLine.Level = .error) {
        log.write(message, level: level)
    }

    /// A line the API already formatted (with its request id).
    func writeFormatted(_ line: String) {
        writer.append(line: line)
    }

    /// Writes what is queued, waiting at most 5 s for standard error to take it. Call once, last.
    func close() {
        for line in throttle.remainingCounts() { writer.append(line: LogLine.now(line, format: format)) }
        writer.close()
    }
}
