import HTTP1

/// How the connection fuzzer (fuzz/ConnectionFuzz.swift) reads an input, in one place for it and
/// for the test that replays its corpus (HTTP1Tests): a script of the events a connection's IO
/// shell feeds `ConnectionStateMachine` (bytes arriving, a response ready, the output flushed,
/// the clock, the peer's end of input, a drain, a failed write), carried out as
/// `HTTPServer.Connection` carries out each action. `violations` says what broke the rules the
/// shell relies on.
///
/// Each step is an opcode byte, `op % 8`, and its arguments:
/// 0 `n` then `n + 1` bytes arrive; 1 `s` the handler answers, when a request is in flight
/// (status `s % 6` of 200, 204, 304, 400, 413, 500; `Connection: close` when `s >= 128`); 2 the
/// output is flushed; 3 `t` the clock moves `t / 4` s and ticks; 4 the peer closes its side (the
/// first time); 5 the server drains (the first time); 6 a read or write fails; 7 the clock moves
/// `t` s and buffered bytes are read. As from the shell, nothing follows the close, and an event
/// the machine calls impossible is a violation.
public struct ConnectionFuzzScript {
    private var machine: ConnectionStateMachine
    private var buffer: [UInt8] = []
    private var now = 1_000.0
    private var inFlight = 0
    private var closed = false
    private(set) var violations: [String] = []

    private init() {
        machine = ConnectionStateMachine(limits: HTTPLimits(), lingerSeconds: 2, now: now)
    }

    /// The broken rules, if any: a request dispatched while another is in flight, more consumed
    /// than was buffered, a read that never settles, an event answered after the close, or a
    /// connection still open once every answer is written and every deadline has passed (one
    /// that only its client could close).
    public static func violations(_ script: [UInt8]) -> [String] {
        var run = ConnectionFuzzScript()
        var steps = script[...]
        func next() -> UInt8 { steps.popFirst() ?? 0 }
        // As the shell does: nothing is sent to a machine that has closed.
        while let op = steps.popFirst(), run.violations.isEmpty, !run.closed {
            switch op % 8 {
            case 0:
                let count = Int(next()) + 1
                run.buffer += steps.prefix(count)
                steps = steps.dropFirst(count)
                run.advance()
            case 1:
                // A response comes only for a request in flight, as from the shell.
                let choice = next()
                if case .handling = run.machine.state { run.respond(choice) }
            case 2:
                run.flush()
            case 3:
                run.now += Double(next()) / 4
                run.perform(run.machine.tick(now: run.now))
            case 4:
                run.advance()
                // The shell reports the peer's end once.
                if !run.closed && run.machine.input == .open { run.perform(run.machine.peerClosedInput(now: run.now)) }
            case 5:
                // A drain reaches each connection once.
                if run.machine.admission == .accepting { run.perform(run.machine.drain(hasBufferedInput: !run.buffer.isEmpty, now: run.now)) }
                run.advance()
            case 6:
                run.perform(run.machine.ioFailed(now: run.now))
            default:
                run.now += Double(next())
                run.advance()
            }
        }
        if run.violations.isEmpty { run.finish() }
        return run.violations + run.machine.impossibleEvents.map { "the shell sent an impossible event: \($0)" }
    }

    /// Every request answered and written, then time passing, with the peer still connected and
    /// silent: the deadlines alone must close the connection, whatever state the script left.
    private mutating func finish() {
        for _ in 0...(buffer.count + 8) where !closed {
            if case .handling = machine.state {
                respond(0)
            } else {
                now += 1_000_000
                perform(machine.tick(now: now))
            }
            flush()
            advance()
        }
        if !closed { violations.append("still open in \(machine.state) long after every deadline") }
    }

    private mutating func respond(_ choice: UInt8) {
        let status = [200, 204, 304, 400, 413, 500][Int(choice % 6)]
        let headers = choice >= 128 ? HTTPHeaders([("connection", "close")]) : HTTPHeaders()
        let wasInFlight = inFlight == 1
        perform(machine.responseReady(HTTPResponse(status: status, headers: headers), hasBufferedInput: !buffer.isEmpty, now: now))
        if wasInFlight && closed == false, case .handling = machine.state {
            violations.append("still handling after the response")
        }
        advance()
    }

    private mutating func flush() {
        guard machine.outputPending else { return }
        perform(machine.outputFlushed(hasBufferedInput: !buffer.isEmpty, now: now))
    }

    /// Reads buffered bytes until the machine waits, as the shell does.
    private mutating func advance() {
        for _ in 0...(buffer.count + 2) {
            guard !closed else { return }
            let (consumed, action) = buffer.withUnsafeBytes { machine.read($0, now: now) }
            guard (0...buffer.count).contains(consumed) else {
                violations.append("consumed \(consumed) of \(buffer.count) bytes")
                return
            }
            buffer.removeFirst(consumed)
            if case .none = action { return }
            perform(action)
        }
        violations.append("reading never settled in \(machine.state)")
    }

    private mutating func perform(_ action: ConnectionStateMachine.Action) {
        if closed && action != .none { violations.append("\(action) after the close") }
        switch action {
        case .dispatch:
            inFlight += 1
            if inFlight > 1 { violations.append("a second request dispatched while one is in flight") }
        case .send:
            inFlight -= 1
            if inFlight != 0 { violations.append("a response sent with \(inFlight + 1) requests in flight") }
        case .lingerThenClose:
            buffer = []
        case .close:
            closed = true
            if machine.state != .closed { violations.append("told to close in \(machine.state)") }
        case .none, .sendContinue, .refuse:
            break
        }
    }
}
