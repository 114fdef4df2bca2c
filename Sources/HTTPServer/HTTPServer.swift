import Dispatch
import Glibc
public import HTTP1
import Locking
import Platform

/// Our HTTP/1.1 server: one epoll loop per core sharing a listening socket, an explicit
/// lifecycle `idle → running → draining → stopped`, and graceful drain on SIGTERM/SIGINT.
/// Threads end by returning and being joined; nothing waits by sleeping.
public final class HTTPServer: Sendable {
    /// Where the server is in its life.
    public enum State: Sendable, Equatable {
        case idle, running, draining, stopped
    }

    /// What a running server owns.
    private struct Running: @unchecked Sendable {
        // Safe: loops are used from other threads only through `EventLoop.execute`; the socket is
        // closed and the access log ended once, by the `waitUntilStopped` that joined the threads.
        let loops: [EventLoop]
        let socket: ListeningSocket
        let accessLog: LogWriter
    }

    private let configuration: ServerConfiguration
    private let shared: Connection.Shared
    private let state = Locked(State.idle)
    private let running = Locked<Running?>(nil)
    /// The loop threads, until the first `waitUntilStopped` takes them to join.
    private let unjoined = Locked<[JoinableThread]?>(nil)
    private let stoppedSignal = DispatchSemaphore(value: 0)
    private let signalSources = Locked<[SignalSources]>([])
    /// Counters about connections, for `/metrics`.
    public let metrics: ServerMetrics

    public init(configuration: ServerConfiguration, handler: HTTPHandler, metrics: ServerMetrics = ServerMetrics()) {
        self.configuration = configuration
        self.metrics = metrics
        let perAddress = configuration.maxConnectionsPerAddress
        shared = Connection.Shared(handler: handler, configuration: configuration, metrics: metrics,
                                   peers: perAddress > 0 ? PeerConnections(limit: perAddress) : nil)
    }

    /// The current state.
    public var currentState: State { state.withLock { $0 } }

    /// Binds, then starts one loop thread per configured loop; returns the bound port (the real
    /// one when configured as 0). The server is `running` only once everything has started: a
    /// failure on the way stops and joins what had started, closes the socket, leaves the server
    /// `idle` and throws.
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { current in
            guard current == .idle else { throw SystemError(errno: EALREADY, operation: "HTTPServer.start") }
            // A client that disconnects mid-response must cost an EPIPE, not the process.
            signal(SIGPIPE, SIG_IGN)
            System.raiseOpenFileLimit()
            let socket = try ListeningSocket(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            let accessLog: LogWriter
            do {
                accessLog = try LogWriter(fd: configuration.accessLogFD, name: "access log", threadName: "access-log",
                                          report: configuration.errorLog)
            } catch {
                socket.close()
                throw error
            }
            var loops: [EventLoop] = []
            var threads: [JoinableThread] = []
            do {
                for _ in 0..<max(1, configuration.eventLoops) {
                    let loop = try EventLoop(accessLog: accessLog, errorLog: configuration.errorLog)
                    try Acceptor(socket: socket, loop: loop, shared: shared).start()
                    loops.append(loop)
                }
                for (index, loop) in loops.enumerated() {
                    threads.append(try JoinableThread.start(name: "loop-\(index + 1)") { loop.run() })
                }
            } catch {
                for loop in loops.prefix(threads.count) { loop.stop() }
                for thread in threads { _ = thread.join() }
                accessLog.close()
                socket.close()
                throw error
            }
            running.withLock { $0 = Running(loops: loops, socket: socket, accessLog: accessLog) }
            unjoined.withLock { $0 = threads }
            current = .running
            return socket.port
        }
    }

    /// Stops accepting, answers what is under way, closes idle connections; each loop ends when
    /// its last connection has closed, or at the drain timeout. Safe to call more than once and
    /// from any thread; `waitUntilStopped` waits for the end.
    public func beginDrain() {
        let shouldDrain = state.withLock { current -> Bool in
            guard current == .running else { return false }
            current = .draining
            return true
        }
        guard shouldDrain, let running = running.withLock({ $0 }) else { return }
        let deadline = SystemClock.monotonicSeconds() + configuration.drainTimeoutSeconds
        for loop in running.loops {
            loop.execute { loop.beginDrain(until: deadline) }
        }
    }

    /// Blocks until the server has stopped: joins every loop thread, writes the rest of the
    /// access log, then closes the socket.
    public func waitUntilStopped() {
        // The first caller joins; any other waits for it.
        guard let threads = unjoined.withLock({ current -> [JoinableThread]? in
            defer { current = nil }
            return current
        }) else {
            stoppedSignal.wait()
            stoppedSignal.signal()
            return
        }
        for thread in threads {
            let result = thread.join()
            if result != 0 { configuration.errorLog("server: pthread_join failed (errno \(result))") }
        }
        running.withLock { $0 }?.accessLog.close()
        running.withLock { $0?.socket.close() }
        state.withLock { $0 = .stopped }
        stoppedSignal.signal()
    }

    /// Drains on SIGTERM and SIGINT, delivered as Dispatch signal sources on a private queue
    /// (the default actions are ignored first, as swift-service-lifecycle does).
    public func drainOnTerminationSignals(_ onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let queue = DispatchQueue(label: "ratings.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [self] in
                // Drain first: `onSignal` may write to a destination that is slow to take it.
                beginDrain()
                onSignal(signalNumber)
            }
            source.resume()
            sources.append(source)
        }
        signalSources.withLock { $0.append(SignalSources(sources: sources)) }
    }
}

/// Keeps signal sources alive for the server's lifetime.
// Safe: the sources are created, resumed and then only retained; nothing calls into them again.
private struct SignalSources: @unchecked Sendable {
    let sources: [any DispatchSourceSignal]
}
