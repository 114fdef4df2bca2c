internal import CLibPQ
import Glibc
import Locking
import Platform

/// Owns one libpq connection, used by one thread at a time. Every call takes a deadline on the
/// monotonic clock and honours it: libpq runs non-blocking and we wait on its socket with
/// `poll`, so a database that stops answering costs a timeout, never a hang.
final class PostgresConnection {
    // Safe: created by PQconnectStartParams in init, finished only in deinit.
    let handle: OpaquePointer
    /// Statements prepared on this connection: SQL → statement name.
    private var prepared: [String: String] = [:]
    /// Set once a call fails in a way that leaves the connection unusable.
    private(set) var isBroken = false
    /// How many commands or pipelines this connection, and every other sharing its counter, has
    /// sent: each a wait for the server.
    private let roundTripCount: Locked<Int>
    var roundTrips: Int { roundTripCount.withLock { $0 } }

    /// Counts a pipeline sent as one round trip (`collect` counts each command).
    func countRoundTrip() { roundTripCount.withLock { $0 += 1 } }

    /// Connects to `uri` before `deadline`, then sets the session's server-side timeouts; counts
    /// its round trips in `roundTrips` (a pool's connections share one counter).
    init(uri: String, applicationName: String, deadline: Double, roundTrips: Locked<Int> = Locked(0)) throws(PostgresError) {
        roundTripCount = roundTrips
        let keywords = ["application_name", "dbname"]
        let values = [applicationName, uri]
        // Later keywords override earlier ones, and the expanded URI counts as `dbname`'s place,
        // so the URI's own settings win over our defaults.
        let connection: OpaquePointer? = keywords.withCStrings { keys in values.withCStrings { vals in PQconnectStartParams(keys, vals, 1) } }
        guard let connection else {
            throw PostgresError(kind: .connection, sqlstate: "", operation: "PQconnectStartParams", message: "out of memory")
        }
        handle = connection
        guard PQstatus(connection) != CONNECTION_BAD else { throw failure(.connection, "PQconnectStartParams") }
        var status = PGRES_POLLING_WRITING
        while status != PGRES_POLLING_OK {
            switch status {
            case PGRES_POLLING_FAILED: throw failure(.connection, "connect")
            case PGRES_POLLING_READING: try wait(for: Int16(POLLIN), until: deadline, "connect")
            default: try wait(for: Int16(POLLOUT), until: deadline, "connect")
            }
            status = PQconnectPoll(connection)
        }
        guard PQsetnonblocking(connection, 1) == 0 else { throw failure(.connection, "PQsetnonblocking") }
    }

    deinit { PQfinish(handle) }

    /// Whether the idle connection is still open. A server that shut down or restarted has sent
    /// its goodbye (or the kernel an end of file) by now, which makes the idle socket readable;
    /// finding that before a request is sent saves the request from failing on a dead connection.
    var isUsable: Bool {
        guard !isBroken else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 0) > 0 {
            if PQconsumeInput(handle) != 1 || PQstatus(handle) == CONNECTION_BAD { isBroken = true }
        }
        return !isBroken
    }

    /// Runs `sql` (one statement, `$1`… parameters as text, NULL for nil), prepared once per
    /// connection, and returns its result.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = [], deadline: Double) throws(PostgresError) -> PostgresResult {
        let name = try prepare(sql, parameterCount: parameters.count, deadline: deadline)
        let sent = parameters.withOptionalCStrings { values in
            name.withCString { PQsendQueryPrepared(handle, $0, Int32(parameters.count), values, nil, nil, 0) }
        }
        return try collect(sent, deadline: deadline, operation: sql)
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time.
    @discardableResult
    func prepare(_ sql: String, parameterCount: Int, deadline: Double) throws(PostgresError) -> String {
        if let known = prepared[sql] { return known }
        let name = "s\(prepared.count)"
        let sent = name.withCString { n in sql.withCString { s in PQsendPrepare(handle, n, s, Int32(parameterCount), nil) } }
        _ = try collect(sent, deadline: deadline, operation: sql)
        prepared[sql] = name
        return name
    }

    /// The name `sql` was prepared under, if it was.
    func preparedName(_ sql: String) -> String? { prepared[sql] }

    /// Marks the connection unusable: the pool closes it rather than lend it again.
    func markBroken() { isBroken = true }

    /// Runs one or more statements without parameters (migrations, BEGIN, session settings).
    @discardableResult
    func execute(_ sql: String, deadline: Double) throws(PostgresError) -> PostgresResult {
        let sent = sql.withCString { PQsendQuery(handle, $0) }
        return try collect(sent, deadline: deadline, operation: sql.count > 80 ? String(sql.prefix(80)) + "…" : sql)
    }

    /// Sends what libpq has queued and collects every result of the command, keeping the last
    /// one (or the first error).
    func collect(_ sent: Int32, deadline: Double, operation: String) throws(PostgresError) -> PostgresResult {
        guard sent == 1 else { throw failure(.connection, operation) }
        countRoundTrip()
        try flush(operation: operation, until: deadline)
        let (last, firstError) = try results(of: operation, deadline: deadline)
        if PQstatus(handle) == CONNECTION_BAD {
            isBroken = true
            throw firstError.map { PostgresError(kind: .connection, sqlstate: $0.sqlstate, operation: operation, message: $0.message) }
                ?? failure(.connection, operation)
        }
        if let firstError { throw firstError }
        guard let last else { throw PostgresError(kind: .connection, sqlstate: "", operation: operation, message: "no result") }
        return last
    }

    /// Sends everything libpq has queued, reading what the server answers meanwhile so that
    /// neither side's buffer fills. `deadline` is evaluated at each wait, so a caller may give
    /// each wait its own (a COPY's idle time) or all of them one.
    func flush(operation: String, until deadline: @autoclosure () -> Double) throws(PostgresError) {
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { return }
            if flushed < 0 { throw failure(.connection, operation) }
            try wait(for: Int16(POLLOUT) | Int16(POLLIN), until: deadline(), operation)
            guard PQconsumeInput(handle) == 1 else { throw failure(.connection, operation) }
        }
    }

    /// Reads every result of the command being answered, waiting for the server as needed:
    /// the last that succeeded and the first error. A pipeline's statement skipped after an
    /// earlier one failed counts as an error, after that earlier one.
    func results(of operation: String, deadline: Double) throws(PostgresError) -> (last: PostgresResult?, error: PostgresError?) {
        var last: PostgresResult?
        var firstError: PostgresError?
        while let raw = try nextResult(deadline: deadline, operation: operation) {
            let result = PostgresResult(raw)
            switch PQresultStatus(raw) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                last = result
            default:
                if firstError == nil { firstError = result.error(operation: operation) }
            }
        }
        return (last, firstError)
    }

    /// The next result libpq has, waiting for the server as needed; nil at the end of one
    /// command's results.
    func nextResult(deadline: Double, operation: String) throws(PostgresError) -> OpaquePointer? {
        while PQisBusy(handle) == 1 {
            try wait(for: Int16(POLLIN), until: deadline, operation)
            guard PQconsumeInput(handle) == 1 else { throw failure(.connection, operation) }
        }
        return PQgetResult(handle)
    }

    /// Waits until the socket is ready for `events`, or throws a timeout at `deadline`.
    func wait(for events: Int16, until deadline: Double, _ operation: String) throws(PostgresError) {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw failure(.connection, operation) }
        while true {
            let remaining = deadline - SystemClock.monotonicSeconds()
            guard remaining > 0 else {
                isBroken = true // a statement may still run on the server; this connection is done
                throw PostgresError(kind: .timeout, sqlstate: "", operation: operation, message: "no answer within the request's time")
            }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 60_000)) + 1)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw failure(.connection, operation) }
        }
    }

    /// The failure libpq reports now, marking the connection broken when it is.
    func failure(_ kind: PostgresError.Kind, _ operation: String) -> PostgresError {
        if kind == .connection { isBroken = true }
        let message = PQerrorMessage(handle).map { String(cString: $0) } ?? "unknown"
        return PostgresError(kind: kind, sqlstate: "", operation: operation, message: message)
    }
}

extension Array where Element == String {
    /// Calls `body` with a C array of C strings (NULL-terminated) valid for the call.
    fileprivate func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        // Safe: every pointer is a strdup copy freed only after `body` returns.
        let pointers = copies.map { UnsafePointer<CChar>($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

extension Array where Element == String? {
    /// Calls `body` with a C array of parameter values (NULL for nil) valid for the call.
    func withOptionalCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies = map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        // Safe: every pointer is a strdup copy (or NULL) freed only after `body` returns.
        let pointers = copies.map { $0.map { UnsafePointer<CChar>($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
