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
    /// Refused connections that may linger at once (so that their clients read the 503): a tenth
    /// of the cap, at least 64. Past that, a refusal is sent once and the socket closed, so that
    /// a flood of refused connections cannot take the places of served ones.
    private var maxLingeringRefusals: Int { max(64, shared.configuration.maxConnections / 10) }

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
            if shared.metrics.servingConnections >= shared.configuration.maxConnections {
                refuse(fd, peer: peer, Acceptor.refusal)
                continue
            }
            let holdsPeerPlace = shared.peers != nil
            if let peers = shared.peers, !peers.admit(peer) {
                refuse(fd, peer: peer, ProblemDetails(status: 503, detail: "This address has \(peers.limit) connections open to the server, "
                    + "the most one address may hold; reuse them (keep-alive) or close some, then retry."))
                continue
            }
            open(Connection(fd: fd, peer: peer, loop: loop, shared: shared, holdsPeerPlace: holdsPeerPlace), fd: fd, peer: peer)
        }
    }

    private func open(_ connection: Connection, fd: Int32, peer: String, refusing refusal: ProblemDetails? = nil) {
        do {
            try connection.open(refusing: refusal)
        } catch {
            loop.logError("connection from \(peer): \(error); closing it")
            connection.releasePeerPlace()
            close(fd)
        }
    }

    /// Answers one connection with a 503 refusal, dated like every other response. It lingers
    /// like every refusal, so that a client that already sent its request reads the answer; past
    /// `maxLingeringRefusals` lingering at once, the refusal is sent once and the socket closed.
    private func refuse(_ fd: Int32, peer: String, _ refusal: ProblemDetails) {
        if shared.metrics.lingeringRefusals < maxLingeringRefusals {
            open(Connection(fd: fd, peer: peer, loop: loop, shared: shared, holdsPeerPlace: false), fd: fd, peer: peer, refusing: refusal)
            return
        }
        let response = shared.handler.refused(refusal, RequestEnvironment(peer: peer, loop: loop))
        var bytes = ByteBuffer()
        ResponseSerializer.write(response, date: loop.date, keepAlive: false, includeBody: true, into: &bytes)
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
