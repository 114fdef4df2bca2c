import CLinux
import HTTP1
import Glibc
import Locking

/// Something an event loop watches: it is told which epoll events arrived, and ticked so it can
/// check its own deadlines.
protocol EventSource: AnyObject {
    func handle(events: UInt32)
    func tick(now: Double)
    /// The loop is ending: release the descriptor now.
    func terminate()
}

/// One thread running an epoll loop. Each connection belongs to exactly one loop and is touched
/// only on its thread, so connection state needs no locks; other threads reach a loop only
/// through `execute`, which queues a task and wakes the loop through an eventfd.
// Safe: all stored state except `tasks` (a Mutex) and the fds is confined to the loop thread.
final class EventLoop: @unchecked Sendable {
    /// How often deadlines are checked, in milliseconds.
    static let tickMilliseconds: Int32 = 200
    private static let maxEvents = 256

    let index: Int
    private let epollFD: Int32
    private let wakeFD: Int32
    private let tasks = Locked<[@Sendable () -> Void]>([])
    private var sources: [Int32: any EventSource] = [:]
    private var stopped = false
    private var threadID = pthread_t()
    private var lastTick = 0.0

    /// A read buffer shared by every connection of this loop.
    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// The monotonic clock at the start of this iteration, in seconds.
    private(set) var now = SystemClock.monotonicSeconds()
    /// The `Date` header value for this second.
    private(set) var date = ""
    private var dateSecond: Int64 = -1
    /// The wall clock as RFC 3339 text, formatted at most once per millisecond.
    var timestamp: String {
        let milliseconds = SystemClock.wallMilliseconds()
        if milliseconds != timestampMilliseconds {
            timestampMilliseconds = milliseconds
            timestampText = Timestamp.rfc3339(milliseconds: milliseconds)
        }
        return timestampText
    }
    private var timestampMilliseconds: Int64 = -1
    private var timestampText = ""
    /// Access-log lines written at the end of the iteration, one write for many lines.
    private var logBuffer: [UInt8] = []
    private let logFD: Int32

    init(index: Int, logFD: Int32) throws(SystemError) {
        self.index = index
        self.logFD = logFD
        epollFD = try syscallChecked("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            wakeFD = try syscallChecked("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        } catch {
            close(epollFD)
            throw error
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        _ = epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
        refreshClock()
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    /// Whether the caller runs on this loop's thread.
    var inLoop: Bool { pthread_equal(pthread_self(), threadID) != 0 }

    /// Watches `fd` for `events` (EPOLLIN, EPOLLOUT, ...), delivering them to `source`.
    func register(_ fd: Int32, events: UInt32, source: any EventSource) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        try syscallChecked("epoll_ctl(ADD)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) }
        sources[fd] = source
    }

    /// Changes which events `fd` is watched for.
    func modify(_ fd: Int32, events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd`; the caller closes it.
    func deregister(_ fd: Int32) {
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
        sources[fd] = nil
    }

    /// Every source this loop watches (connections and the acceptor).
    var allSources: [any EventSource] { Array(sources.values) }

    /// Runs `task` on the loop thread, soon. Safe from any thread.
    func execute(_ task: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.append(task) }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Appends one access-log line, built by `write` straight into the log buffer; lines reach
    /// the log at the end of the loop iteration.
    func log(_ write: (inout LogLine) -> Void) {
        var line = LogLine(bytes: logBuffer)
        logBuffer = []
        write(&line)
        line.bytes.append(UInt8(ascii: "\n"))
        logBuffer = line.bytes
    }

    /// Ends the loop after the current iteration.
    func stop() { execute { [self] in stopped = true } }

    /// The loop body; runs until `stop`.
    func run() {
        threadID = pthread_self()
        var events = [epoll_event](repeating: epoll_event(), count: EventLoop.maxEvents)
        while !stopped {
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollFD, $0.baseAddress, Int32(EventLoop.maxEvents), EventLoop.tickMilliseconds)
            }
            refreshClock()
            if count > 0 {
                for i in 0..<Int(count) {
                    let fd = events[i].data.fd
                    if fd == wakeFD {
                        var value: UInt64 = 0
                        _ = read(wakeFD, &value, 8)
                        continue
                    }
                    sources[fd]?.handle(events: events[i].events)
                }
            }
            runTasks()
            if now - lastTick >= Double(EventLoop.tickMilliseconds) / 1000 {
                lastTick = now
                for source in sources.values { source.tick(now: now) }
            }
            flushLog()
        }
        for source in sources.values { source.terminate() }
        flushLog()
    }

    private func runTasks() {
        while true {
            let batch = tasks.withLock { queued -> [@Sendable () -> Void] in
                let batch = queued
                queued.removeAll(keepingCapacity: true)
                return batch
            }
            if batch.isEmpty { return }
            for task in batch { task() }
        }
    }

    private func flushLog() {
        guard !logBuffer.isEmpty else { return }
        var offset = 0
        logBuffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                // Safe: offset < bytes.count inside this loop; the buffer is non-empty (checked above).
                guard case .done(let written)? = try? syscall("write", { write(logFD, bytes.baseAddress! + offset, bytes.count - offset) }),
                      written > 0 else { break }
                offset += written
            }
        }
        logBuffer.removeAll(keepingCapacity: logBuffer.capacity <= 256 * 1024)
    }

    private func refreshClock() {
        now = SystemClock.monotonicSeconds()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        if Int64(wall.tv_sec) != dateSecond {
            dateSecond = Int64(wall.tv_sec)
            date = HTTPDate.format(unixSeconds: dateSecond)
        }
    }

}

/// An access-log line under construction: pieces appended as bytes, no intermediate strings.
struct LogLine {
    var bytes: [UInt8]

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ number: Int) { append(String(number)) }

    mutating func space() { bytes.append(UInt8(ascii: " ")) }
}
