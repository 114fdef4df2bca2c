import ASCIIKit
import CLinux
import Glibc
import HTTP1

/// The IO shell around one connection's `ConnectionStateMachine`: it reads bytes into a buffer,
/// feeds the machine events, and carries out the actions it returns (dispatch, write, linger,
/// close). Every decision about the connection's life is the machine's; this type only moves
/// bytes and keeps the socket's epoll interest in step.
///
/// The socket is watched edge-triggered: epoll reports input once, when it arrives, rather than
/// at every wait while it is there. Level-triggered, every event a wait returned was polled again
/// at the next wait, which about doubled `epoll_wait`'s time per summary `GET` under `perf`. So a
/// read goes on until the socket is empty (a short read, `EAGAIN`, or its end when the peer's end
/// was reported), and input left unread because the machine stopped wanting it is reported again
/// by setting the interest anew once it wants input.
// Safe: touched only on its loop's thread; other threads reach it only through `loop.execute`.
final class Connection: EventSource, @unchecked Sendable {
    /// What the server shares with every connection.
    struct Shared: Sendable {
        let handler: HTTPHandler
        let configuration: ServerConfiguration
        let metrics: ServerMetrics
        /// Connections per peer address, when their number is limited.
        let peers: PeerConnections?
    }

    /// Input kept unparsed (behind a request in flight, or read ahead of the parser) before
    /// reading pauses.
    private static let maxBufferedInput = 128 * 1024

    let fd: Int32
    // Unowned: the loop holds its connections and terminates every one before it ends, so a
    // connection never outlives its loop, and a strong reference would make a cycle.
    private unowned let loop: EventLoop
    private let shared: Shared
    private let environment: RequestEnvironment
    // This state is touched only on the loop's thread, and never from inside the handler (a
    // later answer arrives after it returns).
    private var machine: ConnectionStateMachine
    private var input: [UInt8] = []
    private var inputStart = 0
    private var output = ByteBuffer()
    private var outputStart = 0
    private var watchedEvents: UInt32 = 0
    /// Whether the last read stopped before the socket was empty (see the type's comment).
    private var inputLeftUnread = false
    private var isOpen = true
    /// Whether the handler is running now: an answer it gives through `respond` meanwhile waits.
    private var insideHandler = false
    /// Where the handler delivers a later answer, from any thread; set once, at the end of `init`.
    private var respond: HTTPHandler.Respond = { _ in }
    /// This connection from when it opens until it closes, for `respond`.
    private let mailbox = Mailbox()
    /// Whether the connection holds one of its peer's `PeerConnections` places, given back at close.
    private let holdsPeerPlace: Bool
    /// Whether the connection was refused when it opened (counted in `ServerMetrics.lingeringRefusals`).
    private var isRefusal = false

    init(fd: Int32, peer: String, loop: EventLoop, shared: Shared, holdsPeerPlace: Bool) {
        self.fd = fd
        self.holdsPeerPlace = holdsPeerPlace
        self.loop = loop
        self.shared = shared
        environment = RequestEnvironment(peer: peer, loop: loop)
        machine = ConnectionStateMachine(limits: shared.configuration.limits, lingerSeconds: shared.configuration.lingerSeconds,
                                         now: loop.now)
        // Made once per connection rather than per request. It reaches the connection through
        // `mailbox`, which `close` empties, so an answer that arrives after the connection is gone
        // is dropped; the loop it holds strongly, so a late answer can still reach it.
        respond = { [mailbox, loop = loop as EventLoop] response in
            // A later answer given on the loop goes straight to the connection; from another thread
            // (or, against `HTTPHandler`'s rule, from inside the handler) it takes one hop to the loop.
            if loop.isCurrent, let connection = mailbox.connection, !connection.insideHandler {
                connection.responseArrived(response)
            } else {
                loop.execute { mailbox.connection?.responseArrived(response) }
            }
        }
    }

    /// Starts watching the socket; with `refusal`, answers it at once and closes after a linger.
    func open(refusing refusal: ProblemDetails? = nil) throws(SystemError) {
        watchedEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        try loop.register(fd, events: watchedEvents, source: self)
        mailbox.connection = self // only now: a connection that never opened is never closed, and would leak
        loop.connectionOpened()
        shared.metrics.connectionOpened()
        if let refusal {
            isRefusal = true
            shared.metrics.refusalStarted()
            perform(machine.refuse(refusal, now: loop.now))
            updateInterest()
        }
    }

    /// Gives back the peer's place of a connection whose `open` failed (and which so never closes).
    func releasePeerPlace() {
        if holdsPeerPlace { shared.peers?.release(environment.peer) }
    }

    private var buffered: Int { input.count - inputStart }

    // MARK: Events from the loop

    func handle(events: UInt32) {
        guard isOpen else { return }
        if events & EPOLLOUT.rawValue != 0 {
            flush()
            // Requests held back while the client left its answers unread may go on now.
            if isOpen && inputStart < input.count { advance() }
        }
        // The peer's end or a reset is reported once, like input: read on to it, past a short read.
        let ended = events & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        if isOpen && events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 {
            receive(atLeastOnce: false, toTheEnd: ended)
        } else if isOpen && events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
            // Reported whatever the interest: one recv tells a reset (an error) from an end of file.
            receive(atLeastOnce: true, toTheEnd: true)
        }
        updateInterest()
    }

    func tick(now: Double) {
        guard isOpen else { return }
        perform(machine.tick(now: now))
        updateInterest()
    }

    /// The server is draining.
    func drain() {
        guard isOpen else { return }
        perform(machine.drain(hasBufferedInput: buffered > 0, now: loop.now))
        if isOpen { advance() }
        updateInterest()
    }

    func terminate() { close() }

    // MARK: Reading

    /// Reads what the socket holds while the machine wants input (or once, when the socket
    /// reported a hang-up), then lets the machine act on it. `toTheEnd` when the peer's end or
    /// a reset was reported: reading stops only at it (or when the machine wants no more input).
    private func receive(atLeastOnce: Bool, toTheEnd: Bool) {
        var ended = false
        var emptied = false
        var first = atLeastOnce
        while isOpen && (first || machine.wantsInput(buffered: buffered, maxBufferedInput: Connection.maxBufferedInput)) {
            first = false
            let result: IOResult<Int>
            do {
                result = try syscall("recv") { recv(fd, loop.scratch.baseAddress, loop.scratch.count, 0) }
            } catch {
                // ECONNRESET and friends: the client vanished; nothing to log.
                perform(machine.ioFailed(now: loop.now))
                return
            }
            guard case .done(let count) = result else { emptied = true; break }
            if count == 0 { ended = true; emptied = true; break }
            input.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.scratch[..<count]))
            // A short read took everything the socket held; whatever comes next is a new edge.
            if count < loop.scratch.count && !toTheEnd { emptied = true; break }
        }
        inputLeftUnread = !emptied
        advance()
        if ended && isOpen && machine.input == .open { perform(machine.peerClosedInput(now: loop.now)) }
    }

    /// Feeds buffered input to the machine until it waits.
    private func advance() {
        while isOpen {
            let (consumed, action) = input.withUnsafeBytes { bytes in
                machine.read(UnsafeRawBufferPointer(rebasing: bytes[inputStart...]), now: loop.now)
            }
            inputStart += consumed
            if case .none = action { break } // a pattern, not ==, which would compare payloads
            perform(action)
        }
        compactInput()
    }

    // MARK: Actions

    /// Carries out `action`, taking it over: the request or response it holds moves on, never
    /// copied.
    private func perform(_ action: consuming ConnectionStateMachine.Action) {
        switch consume action {
        case .none:
            break
        case .dispatch(let request):
            insideHandler = true
            let answer = shared.handler.handle(request, environment, respond)
            insideHandler = false
            // An answer now goes straight on: the reading loop that dispatched goes on after it.
            if case .now(let response) = consume answer {
                perform(machine.responseReady(response, hasBufferedInput: buffered > 0, now: loop.now))
            }
        case .sendContinue:
            output.append(ResponseSerializer.continueBytes)
            flush()
        case .send(let response, let keepAlive, let includeBody):
            ResponseSerializer.write(response, date: loop.date, keepAlive: keepAlive, includeBody: includeBody, into: &output)
            flush()
        case .refuse(let problem):
            ResponseSerializer.write(shared.handler.refused(problem, environment), date: loop.date, keepAlive: false,
                                     includeBody: true, into: &output)
            flush()
        case .lingerThenClose:
            // Input still arriving is read and dropped as it arrives (the machine wants it).
            shutdown(fd, Int32(SHUT_WR))
            input = []
            inputStart = 0
        case .close:
            close()
        }
    }

    private func responseArrived(_ response: consuming HTTPResponse) {
        guard isOpen else { return } // the connection closed while the handler worked
        perform(machine.responseReady(response, hasBufferedInput: buffered > 0, now: loop.now))
        if isOpen { advance() }
        updateInterest()
    }

    // MARK: Writing

    /// Writes as much queued output as the socket takes; tells the machine when all of it is out,
    /// or how much still waits when the socket is full.
    private func flush() {
        guard outputStart < output.count else { return } // a readiness report older than the last write
        let startedAt = outputStart
        while isOpen && outputStart < output.count {
            let sent: IOResult<Int>
            do {
                sent = try syscall("send") {
                    // Safe: outputStart < output.count inside this loop, so the pointer stays in the buffer.
                    output.withUnsafeBytes { send(fd, $0.baseAddress! + outputStart, $0.count - outputStart, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                perform(machine.ioFailed(now: loop.now)) // EPIPE, ECONNRESET: the client went away mid-response
                return
            }
            guard case .done(let count) = sent else {
                // The socket is full; EPOLLOUT resumes. What went out is dropped once it is most
                // of the buffer, so a slow reader's buffer holds its backlog, not its history.
                machine.outputBlocked(remaining: output.count - outputStart, sent: outputStart - startedAt, now: loop.now)
                if outputStart >= 64 * 1024 && outputStart * 2 >= output.count {
                    output.removeFirst(outputStart)
                    outputStart = 0
                }
                return
            }
            outputStart += count
        }
        guard isOpen else { return }
        output.removeAll(keepingCapacityUpTo: 64 * 1024)
        outputStart = 0
        perform(machine.outputFlushed(hasBufferedInput: buffered > 0, now: loop.now))
    }

    private func compactInput() {
        if inputStart >= input.count {
            input.removeAll(keepingCapacity: input.capacity <= 16 * 1024)
            inputStart = 0
        } else if inputStart > 32 * 1024 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// Watches for input while the machine wants it, and for room to write while output waits.
    private func updateInterest() {
        assert(machine.impossibleEvents.isEmpty, "the connection machine was sent \(machine.impossibleEvents)")
        guard isOpen else { return }
        var events = EPOLLET.rawValue
        if machine.wantsInput(buffered: buffered, maxBufferedInput: Connection.maxBufferedInput) {
            events |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        }
        if outputStart < output.count { events |= EPOLLOUT.rawValue }
        // Setting the interest makes epoll look at the socket again and report input still there.
        let rearm = inputLeftUnread && events & EPOLLIN.rawValue != 0
        guard events != watchedEvents || rearm else { return }
        if events & EPOLLIN.rawValue != 0 { inputLeftUnread = false }
        watchedEvents = events
        do {
            try loop.modify(fd, events: events)
        } catch {
            loop.logError("connection from \(environment.peer): \(error); closing it")
            close()
        }
    }

    private func close() {
        guard isOpen else { return }
        isOpen = false
        mailbox.connection = nil // ends the cycle through `respond`
        loop.deregister(fd)
        Glibc.close(fd)
        loop.connectionClosed()
        shared.metrics.connectionClosed()
        if isRefusal { shared.metrics.refusalEnded() }
        releasePeerPlace()
        input = []
        output.removeAll(keepingCapacityUpTo: 0)
    }
}

/// Where a connection's answers find it: the connection while it is open, nothing once it has
/// closed. A box the connection empties, rather than a weak reference, which would give every
/// connection a side table for its whole life.
// Safe: `connection` is read and written only on its loop's thread (`respond` reads it there).
private final class Mailbox: @unchecked Sendable {
    var connection: Connection?
}
