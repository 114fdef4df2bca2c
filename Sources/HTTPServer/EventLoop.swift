import ASCIIKit
import CLinux
import Glibc
import HTTP1
import Locking
import Platform

/// Something an event loop watches: it is told which epoll events arrived, and ticked so it can
/// check its own deadlines.
protocol EventSource: AnyObject {
    func handle(events: UInt32)
    func tick(now: Double)
    /// The loop is ending: release the descriptor now.
    func terminate()
}

/// One thread running an epoll loop. Each connection belongs to exactly one loop and is touched
/// only on its thread, so connection state needs no locks. Other threads reach a loop only
/// through `execute`, which queues a task and wakes the loop through an eventfd.
// Safe: all stored state except `remoteTasks` (behind a lock) and the descriptors is confined to
// the loop thread; `threadID` is written once, before the loop runs.
final class EventLoop: RequestLoop, Wakeable, @unchecked Sendable {
    /// How often deadlines are checked, in milliseconds.
    static let tickMilliseconds: Int32 = 200
    private static let maxEvents = 256

    private let epollFD: Int32
    private let wakeFD: Int32
    private let remoteTasks = Locked<[@Sendable () -> Void]>([])
    /// Tasks from other threads swapped out of `remoteTasks`, kept to reuse their storage.
    private var remoteBatch: [@Sendable () -> Void] = []
    private var sources: [Int32: any EventSource] = [:]
    private var stopped = false
    private var threadID = pthread_t()
    private var lastTick = 0.0
    private let errorLog: @Sendable (String) -> Void

    /// Connections open on this loop.
    private(set) var connectionCount = 0
    /// When draining, the moment every remaining connection is closed regardless.
    private var drainDeadline: Double?

    /// A read buffer shared by every connection of this loop: raw memory that `recv` fills in
    /// place.
    // Safe: allocated here and freed in `deinit`; only this loop's thread reads into it.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// The monotonic clock at the start of this iteration, in seconds.
    private(set) var now = SystemClock.monotonicSeconds()
    /// The `Date` header value for this second.
    private(set) var date = ""
    private var dateSecond: Int64 = -1
    /// Access-log lines gathered during the iteration, handed to `accessLog` at its end.
    private var logBuffer = ByteBuffer()
    private let accessLog: LogWriter

    init(accessLog: LogWriter, errorLog: @escaping @Sendable (String) -> Void) throws(SystemError) {
        self.accessLog = accessLog
        self.errorLog = errorLog
        epollFD = try syscallChecked("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            wakeFD = try syscallChecked("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        } catch {
            close(epollFD)
            throw error
        }
        do {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = wakeFD
            try syscallChecked("epoll_ctl(ADD eventfd)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) }
        } catch {
            close(wakeFD)
            close(epollFD)
            throw error
        }
        refreshClock()
    }

    deinit {
        scratch.deallocate()
        close(wakeFD)
        close(epollFD)
    }

    // MARK: RequestLoop

    var isCurrent: Bool { pthread_equal(pthread_self(), threadID) != 0 }

    func execute(_ task: @escaping @Sendable () -> Void) {
        // Only the first task of a batch wakes the loop: it takes every queued task at once. A
        // thread handing out many (the SQLite writer, a commit's results) defers that wake-up
        // until it has handed out the last (`DeferredWakeups`), so the loop does not take them
        // one at a time.
        let wake = remoteTasks.withLock { queued in
            queued.append(task)
            return queued.count == 1
        }
        if wake { DeferredWakeups.wake(self) }
    }

    /// Wakes the loop's thread from `epoll_wait`. Safe from any thread.
    func wake() {
        var one: UInt64 = 1
        // A full eventfd counter (EAGAIN) still wakes the loop; nothing else can fail here.
        _ = try? syscall("write(eventfd)") { write(wakeFD, &one, 8) }
    }

    func appendLogLine(_ write: (inout ByteBuffer) -> Void) {
        write(&logBuffer)
        logBuffer.append(UInt8(ascii: "\n"))
    }

    // MARK: Watching descriptors

    /// Watches `fd` for `events` (EPOLLIN, EPOLLOUT, ...), delivering them to `source`.
    func register(_ fd: Int32, events: UInt32, source: any EventSource) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        try syscallChecked("epoll_ctl(ADD)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) }
        sources[fd] = source
    }

    /// Changes which events `fd` is watched for.
    func modify(_ fd: Int32, events: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        try syscallChecked("epoll_ctl(MOD)") { epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event) }
    }

    /// Stops watching `fd`; the caller closes it. A failure is logged: the descriptor is about to
    /// be closed, which removes it from the epoll set anyway.
    func deregister(_ fd: Int32) {
        sources[fd] = nil
        do {
            try syscallChecked("epoll_ctl(DEL)") { epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil) }
        } catch {
            errorLog("event loop: \(error)")
        }
    }

    func connectionOpened() { connectionCount += 1 }
    func connectionClosed() { connectionCount -= 1 }

    /// Logs a failure the loop survives (a system call on one connection, say).
    func logError(_ message: String) { errorLog(message) }

    // MARK: Running

    /// Stops taking connections and ends the loop once its last connection has closed, or at
    /// `deadline` (monotonic seconds), whichever comes first. Only on the loop's thread.
    func beginDrain(until deadline: Double) {
        drainDeadline = deadline
        for source in Array(sources.values) {
            if let acceptor = source as? Acceptor { acceptor.stop() }
            if let connection = source as? Connection { connection.drain() }
        }
    }

    /// Ends the loop after the current iteration, closing what is left. Safe from any thread.
    func stop() { execute { [self] in stopped = true } }

    /// The loop body; runs until stopped, or until a drain has closed every connection.
    func run() {
        threadID = pthread_self()
        var events = [epoll_event](repeating: epoll_event(), count: EventLoop.maxEvents)
        while !stopped {
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollFD, $0.baseAddress, Int32(EventLoop.maxEvents), EventLoop.tickMilliseconds)
            }
            if count < 0 && errno != EINTR {
                errorLog("event loop: epoll_wait failed: \(SystemError(errno: errno, operation: "epoll_wait")); stopping the loop")
                break
            }
            refreshClock()
            for i in 0..<Int(max(count, 0)) {
                let fd = events[i].data.fd
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    continue
                }
                sources[fd]?.handle(events: events[i].events)
            }
            runTasks()
            if now - lastTick >= Double(EventLoop.tickMilliseconds) / 1000 {
                lastTick = now
                for source in Array(sources.values) { source.tick(now: now) }
                runTasks()
            }
            flushLog()
            if let drainDeadline {
                if connectionCount == 0 { break }
                if now >= drainDeadline {
                    errorLog("drain: closing \(connectionCount) connection(s) still open at the drain deadline")
                    break
                }
            }
        }
        for source in Array(sources.values) { source.terminate() }
        flushLog()
    }

    private func runTasks() {
        while true {
            remoteTasks.withLock { swap(&$0, &remoteBatch) }
            let ranRemote = !remoteBatch.isEmpty
            for task in remoteBatch { task() }
            remoteBatch.removeAll(keepingCapacity: true)
            if !ranRemote { return }
        }
    }

    /// Hands the iteration's lines to the log's own thread: writing them here would stop every
    /// connection of this loop whenever the log's destination is slow to take them.
    private func flushLog() {
        guard !logBuffer.isEmpty else { return }
        logBuffer.withUnsafeBytes { accessLog.append($0) }
        logBuffer.removeAll(keepingCapacityUpTo: 256 * 1024)
    }

    private func refreshClock() {
        now = SystemClock.monotonicSeconds()
        let second = SystemClock.wallMilliseconds() / 1000
        if second != dateSecond {
            dateSecond = second
            date = HTTPDate.format(unixSeconds: second)
        }
    }
}
