import ASCIIKit
import Dispatch
import Glibc
import Locking

/// Writes the access log on a thread of its own, so that a log destination that stalls (a pipe
/// nobody reads fast enough, a file whose pages are being written back) never holds up an event
/// loop. Loops hand over each turn's lines without waiting; the writer wakes when enough has
/// gathered or every `flushMilliseconds`. A destination that falls so far behind that
/// `maxPendingBytes` are waiting loses the lines that would not fit, counted on the error log,
/// rather than the server its memory or its requests their answers.
final class AccessLogWriter: Sendable {
    static let flushMilliseconds = 50
    /// Enough to wake the writer before the next flush is due.
    static let wakeBytes = 64 * 1024
    static let maxPendingBytes = 4 * 1024 * 1024
    /// How long a stop waits for the queued lines to be taken.
    static let closeTimeoutSeconds = 5

    private struct Pending {
        var bytes: [UInt8] = []
        var droppedLines = 0
        var closed = false
    }

    private let fd: Int32
    /// Whether each write must hold whole lines of at most `PIPE_BUF` bytes: on a pipe or socket
    /// (a container's standard output, a log collector), a longer write goes out in pieces as the
    /// reader makes room, and a line the program prints meanwhile ("received SIGTERM") would land
    /// inside an access-log line. A regular file takes each write whole, in one piece.
    private let writesWholeLines: Bool
    private let errorLog: @Sendable (String) -> Void
    private let pending = Locked(Pending())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let thread = Locked<JoinableThread?>(nil)

    /// Starts the writing thread for `fd`.
    init(fd: Int32, errorLog: @escaping @Sendable (String) -> Void) throws(ThreadStartError) {
        self.fd = fd
        var status = stat()
        writesWholeLines = fstat(fd, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG
        self.errorLog = errorLog
        let started = try JoinableThread.start(name: "access-log") { [self] in run() }
        thread.withLock { $0 = started }
    }

    /// Queues whole lines for writing; never waits for the destination.
    func append(_ lines: UnsafeRawBufferPointer) {
        guard !lines.isEmpty else { return }
        let shouldWake = pending.withLock { state -> Bool in
            guard state.bytes.count + lines.count <= Self.maxPendingBytes else {
                state.droppedLines += ASCII.occurrences(of: UInt8(ascii: "\n"), in: lines)
                return false
            }
            let before = state.bytes.count
            state.bytes.append(contentsOf: lines.assumingMemoryBound(to: UInt8.self))
            return before < Self.wakeBytes && state.bytes.count >= Self.wakeBytes
        }
        if shouldWake { wake.signal() }
    }

    /// Writes what is queued, then ends the thread. Call once, after the last `append`.
    func close() {
        pending.withLock { $0.closed = true }
        wake.signal()
        guard let started = thread.withLock({ current -> JoinableThread? in
            defer { current = nil }
            return current
        }) else { return }
        // A destination that takes nothing would keep the writer in `write` for ever, and the
        // process from stopping with it.
        guard finished.wait(timeout: .now() + .seconds(Self.closeTimeoutSeconds)) == .success else {
            errorLog("access log: its destination took nothing for \(Self.closeTimeoutSeconds) s; stopping without the lines still queued")
            return
        }
        let result = started.join()
        if result != 0 { errorLog("access log: pthread_join failed (errno \(result))") }
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
                errorLog("access log: \(dropped) line(s) dropped: the log's destination was not taking them as fast as requests came")
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
                        try writeAll(fd, run, operation: "write(access log)")
                    }
                } else {
                    try writeAll(fd, bytes, operation: "write(access log)")
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { errorLog("access log: \(failure); \(bytes.count) bytes dropped") }
    }
}
