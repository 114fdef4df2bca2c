import Dispatch
import Glibc
public import HTTP1
import Locking

/// Our HTTP/1.1 server: one epoll loop per core sharing a listening socket, an explicit
/// lifecycle `idle → running → draining → stopped`, and graceful drain on SIGTERM/SIGINT.
public final class HTTPServer: Sendable {
    /// Where the server is in its life.
    public enum State: Sendable, Equatable {
        case idle, running, draining, stopped
    }

    private struct Running: @unchecked Sendable {
        // Safe: loops and acceptors are only used through `EventLoop.execute`, on their own threads;
        // the socket is closed once, by `finish`, after every acceptor stopped.
        let loops: [EventLoop]
        let acceptors: [Acceptor]
        let socket: ListeningSocket
    }

    private let configuration: ServerConfiguration
    private let shared: Connection.Shared
    private let state = Locked(State.idle)
    private let running = Locked<Running?>(nil)
    private let stoppedSignal = DispatchSemaphore(value: 0)
    private let signalSources = Locked<[SignalSources]>([])
    /// Counters about connections, for `/metrics`.
    public let metrics: ServerMetrics

    public init(configuration: ServerConfiguration, handler: HTTPHandler, metrics: ServerMetrics = ServerMetrics()) {
        self.configuration = configuration
        self.metrics = metrics
        shared = Connection.Shared(handler: handler, configuration: configuration, metrics: metrics, requestIDs: RequestIDs())
    }

    /// The current state.
    public var currentState: State { state.withLock { $0 } }

    /// Binds and starts the loops; returns the bound port (the real one when configured as 0).
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { current in
            guard current == .idle else { throw SystemError(errno: EALREADY, operation: "HTTPServer.start") }
            current = .running
        }
        // A client that disconnects mid-response must cost an EPIPE, not the process.
        signal(SIGPIPE, SIG_IGN)
        System.raiseOpenFileLimit()
        let socket = try ListeningSocket(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        var loops: [EventLoop] = []
        var acceptors: [Acceptor] = []
        for index in 0..<max(1, configuration.eventLoops) {
            let loop = try EventLoop(index: index, logFD: configuration.accessLogFD)
            let acceptor = Acceptor(socket: socket, loop: loop, shared: shared)
            try acceptor.start()
            loops.append(loop)
            acceptors.append(acceptor)
        }
        running.withLock { $0 = Running(loops: loops, acceptors: acceptors, socket: socket) }
        for loop in loops { try LoopThread.start { loop.run() } }
        return socket.port
    }

    /// The bound port, once started.
    public var port: Int? { running.withLock { $0?.socket.port } }

    /// Stops accepting, answers what is under way, closes idle connections, then stops. Safe to
    /// call more than once and from any thread.
    public func beginDrain() {
        let shouldDrain = state.withLock { current -> Bool in
            guard current == .running else { return false }
            current = .draining
            return true
        }
        guard shouldDrain, let running = running.withLock({ $0 }) else { return }
        for (loop, acceptor) in zip(running.loops, running.acceptors) {
            loop.execute {
                acceptor.stop()
                for case let connection as Connection in loop.allSources { connection.drain() }
            }
        }
        let deadline = SystemClock.monotonicSeconds() + configuration.drainTimeoutSeconds
        DispatchQueue.global().async { [self] in
            while metrics.openConnections > 0 && SystemClock.monotonicSeconds() < deadline {
                usleep(10_000)
            }
            finish(running)
        }
    }

    private func finish(_ running: Running) {
        for loop in running.loops { loop.stop() }
        // Give the loops a moment to close what is left and flush their logs.
        let until = SystemClock.monotonicSeconds() + 1
        while metrics.openConnections > 0 && SystemClock.monotonicSeconds() < until { usleep(5_000) }
        usleep(UInt32(EventLoop.tickMilliseconds) * 1000)
        running.socket.close()
        self.running.withLock { $0 = nil }
        state.withLock { $0 = .stopped }
        stoppedSignal.signal()
    }

    /// Blocks until the server has stopped.
    public func waitUntilStopped() {
        stoppedSignal.wait()
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
                onSignal(signalNumber)
                beginDrain()
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
