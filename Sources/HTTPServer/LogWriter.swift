import ASCIIKit
import Dispatch
import Glibc
public import Locking

/// Writes a log (the access log, the error log) to one file descriptor on a thread of its own, so
/// that a destination that stalls (a pipe nobody reads fast enough, a file whose pages are being
/// written back) never holds up an event loop. Callers hand over whole lines without waiting; the
/// writer wakes once `wakeBytes` have gathered, or every `flushMilliseconds`. A destination that
/// falls so far behind that `maxPendingBytes` are waiting loses the lines that would not fit,
/// counted through `report`, rather than the server its memory or its requests their answers.
public final class LogWriter: Sendable {
    static let flushMilliseconds = 50
    static let maxPendingBytes = 4 * 1024 * 1024
    /// How long a stop waits for the queued lines to be taken.
    static let closeTimeoutSeconds = 5

    private struct Pending {
        var bytes: [UInt8] = []
        var droppedLines = 0
        var closed = false
    }

    private let fd: Int32
    /// What the log is called in the writer's own reports ("access log").
    private let name: String
    private let wakeBytes: Int
    /// Whether each write must hold whole lines of at most `PIPE_BUF` bytes: on a pipe or socket
    /// (a container's standard output, a log collector), a longer write goes out in pieces as the
    /// reader makes room, and a line the program prints meanwhile ("received SIGTERM") would land
    /// inside an access-log line. A regular file takes each write whole, in one piece.
    private let writesWholeLines: Bool
    /// Where the writer tells of its own trouble (lines dropped, a failed write); called on the
    /// writer's thread, or in `close`.
    private let report: @Sendable (String) -> Void
    private let pending = Locked(Pending())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let thread = Locked<JoinableThread?>(nil)

    /// Starts the thread `threadName` writing to `fd`. `wakeBytes` is how much must gather before
    /// a write goes out ahead of the next flush: 1 writes every line as soon as it is handed over.
    public init(fd: Int32, name: String, threadName: String, wakeBytes: Int = 64 * 1024,
                report: @escaping @Sendable (String) -> Void) throws(ThreadStartError) {
        self.fd = fd
        self.name = name
        self.wakeBytes = max(1, wakeBytes)
        var status = stat()
        writesWholeLines = fstat(fd, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG
        self.report = report
        let started = try JoinableThread.start(name: threadName) { [self] in run() }
        thread.withLock { $0 = started }
    }

    /// Queues one line, adding its newline; never waits for the destination.
    public func append(line: String) {
        var line = line + "\n"
        line.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Queues whole lines, each ending in a newline; never waits for the destination.
    public func append(_ lines: UnsafeRawBufferPointer) {
        guard !lines.isEmpty else { return }
        let shouldWake = pending.withLock { state -> Bool in
            guard state.bytes.count + lines.count <= Self.maxPendingBytes else {
                state.droppedLines += ASCII.occurrences(of: UInt8(ascii: "\n"), in: lines)
                return false
            }
            let before = state.bytes.count
            state.bytes.append(contentsOf: lines.assumingMemoryBound(to: UInt8.self))
            return before < wakeBytes && state.bytes.count >= wakeBytes
        }
        if shouldWake { wake.signal() }
    }

    /// Writes what is queued, then ends the thread. Call once, after the last `append`: later
    /// lines are queued but never written.
    public func close() {
        pending.withLock { $0.closed = true }
        wake.signal()
        guard let started = thread.withLock({ current -> JoinableThread? in
            defer { current = nil }
            return current
        }) else { return }
        // A destination that takes nothing would keep the writer in `write` for ever, and the
        // process from stopping with it.
        guard finished.wait(timeout: .now() + .seconds(Self.closeTimeoutSeconds)) == .success else {
            report("\(name): its destination took nothing for \(Self.closeTimeoutSeconds) s; stopping without the lines still queued")
            return
        }
        let result = started.join()
        if result != 0 { report("\(name): pthread_join failed (errno \(result))") }
    }

    private func run() {
        defer { finished.signal() }
        var batch: [UInt8] = []
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(Self.flushMilliseconds))
            let (dropped, closed) = pending.withLock { state in
                swap(&state.bytes, &batch)
                defer { state.droppedLines = 0 }
                return (state.droppedLines, state.closed)
            }
            if !batch.isEmpty { write(batch) }
            batch.removeAll(keepingCapacity: batch.capacity <= Self.maxPendingBytes / 4)
            if dropped > 0 {
                report("\(name): \(dropped) line(s) dropped: the log's destination was not taking them as fast as they came")
            }
            if closed { return }
        }
    }

    private func write(_ bytes: [UInt8]) {
        // The error comes back as a value: a typed-throwing closure here crashed the optimizer.
        let failure = bytes.withUnsafeBytes { bytes -> SystemError? in
            do throws(SystemError) {
                if writesWholeLines {
                    try ASCII.forEachRunOfWholeLines(in: bytes, atMost: Int(PIPE_BUF)) { run throws(SystemError) in
                        try writeAll(fd, run, operation: "write(\(name))")
                    }
                } else {
                    try writeAll(fd, bytes, operation: "write(\(name))")
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { report("\(name): \(failure); \(bytes.count) bytes dropped") }
    }
}
