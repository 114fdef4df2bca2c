import ASCIIKit
import CLinux
import Glibc
import HTTP1

/// Accepts connections for one loop. Every loop watches the same listening socket with
/// EPOLLEXCLUSIVE, so the kernel wakes one loop per arrival and the loops share the load.
// Safe: touched only on its loop's thread; the server reaches it through `loop.execute`.
final class Acceptor: EventSource, @unchecked Sendable {
    private let socket: ListeningSocket
    private unowned let loop: EventLoop
    private let shared: Connection.Shared
    private var pausedUntil: Double?
    private var active = false
    private var stopped = false
    /// Sent to connections over the cap, then the socket is closed.
    private static let refusal = ProblemDetails(status: 503, detail: "The server has too many open connections; retry shortly.")

    init(socket: ListeningSocket, loop: EventLoop, shared: Connection.Shared) {
        self.socket = socket
        self.loop = loop
        self.shared = shared
    }

    func start() throws(SystemError) {
        try loop.register(socket.fd, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, source: self)
        active = true
    }

    /// Stops accepting for good (the server is draining).
    func stop() {
        stopped = true
        pausedUntil = nil
        guard active else { return }
        active = false
        loop.deregister(socket.fd)
    }

    func terminate() { stop() }

    func handle(events: UInt32) {
        // A bounded batch keeps one loop from starving its own connections during a connect storm.
        for _ in 0..<64 where active {
            let result: IOResult<(Int32, String)>
            do {
                result = try socket.accept()
            } catch {
                switch error.errno {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: pause briefly rather than spin on a full queue.
                    loop.logError("accept: \(error); pausing for 100 ms")
                    pause()
                    return
                case ECONNABORTED, EPROTO, EPERM:
                    continue // that one connection failed before we took it; take the next
                default:
                    loop.logError("accept: \(error)")
                    continue
                }
            }
            guard case .done(let (fd, peer)) = result else { return }
            if shared.metrics.openConnections >= shared.configuration.maxConnections {
                refuse(fd, peer: peer)
                continue
            }
            let connection = Connection(fd: fd, peer: peer, loop: loop, shared: shared)
            do {
                try connection.open()
            } catch {
                loop.logError("connection from \(peer): \(error); closing it")
                close(fd)
            }
        }
    }

    /// Answers one connection over the cap with 503, dated like every other response, and closes it.
    private func refuse(_ fd: Int32, peer: String) {
        shared.handler.refused(Acceptor.refusal, RequestEnvironment(peer: peer, loop: loop))
        var bytes = ByteBuffer()
        ResponseSerializer.write(Acceptor.refusal.response, date: loop.date, keepAlive: false, includeBody: true, into: &bytes)
        // Best effort on a fresh socket whose buffer is empty; the peer may already be gone.
        _ = try? syscall("send") { bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        close(fd)
    }

    private func pause() {
        guard active else { return }
        loop.deregister(socket.fd)
        active = false
        pausedUntil = loop.now + 0.1
    }

    func tick(now: Double) {
        guard !stopped, let until = pausedUntil, now >= until else { return }
        pausedUntil = nil
        do {
            try start()
        } catch {
            loop.logError("accept: cannot watch the listening socket again: \(error); retrying in 100 ms")
            pausedUntil = now + 0.1
        }
    }
}
