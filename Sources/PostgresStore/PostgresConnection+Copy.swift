internal import CLibPQ
import Glibc
import Platform

/// `COPY` in both directions (postgresql.org/docs/15/libpq-copy.html), for `ratings copy`: rows
/// stream as libpq's text format with no statement per row. Each wait for the server may last
/// `idle` seconds; a copy of any size takes as long as it needs while the server keeps answering.
extension PostgresConnection {
    /// Sends `COPY … FROM STDIN` or `COPY … TO STDOUT` and waits until the server is ready to
    /// take or give rows (`expecting`: `PGRES_COPY_IN` or `PGRES_COPY_OUT`).
    func startCopy(_ sql: String, expecting: ExecStatusType, idle: Double) throws(PostgresError) {
        guard sql.withCString({ PQsendQuery(handle, $0) }) == 1 else { throw failure(.connection, sql) }
        try flush(operation: sql, until: SystemClock.monotonicSeconds() + idle)
        while PQisBusy(handle) == 1 {
            try wait(for: Int16(POLLIN), until: SystemClock.monotonicSeconds() + idle, sql)
            guard PQconsumeInput(handle) == 1 else { throw failure(.connection, sql) }
        }
        guard let raw = PQgetResult(handle) else { throw PostgresError(kind: .connection, sqlstate: "", operation: sql, message: "no result") }
        let result = PostgresResult(raw)
        guard PQresultStatus(raw) == expecting else {
            let error = result.error(operation: sql)
            while let more = PQgetResult(handle) { PQclear(more) }
            throw error
        }
    }

    /// Sends rows of a `COPY … FROM STDIN` (whole lines of the text format), waiting while the
    /// socket is full, so at most one batch is buffered.
    func putCopyData(_ bytes: [UInt8], idle: Double) throws(PostgresError) {
        while true {
            let sent = bytes.withUnsafeBufferPointer { buffer in
                // Safe: the bytes are read during the call only; CChar and UInt8 share a layout.
                buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            if sent == 1 { break }
            guard sent == 0 else { throw failure(.connection, "COPY FROM STDIN") }
            try wait(for: Int16(POLLOUT), until: SystemClock.monotonicSeconds() + idle, "COPY FROM STDIN")
        }
        try flush(operation: "COPY FROM STDIN", until: SystemClock.monotonicSeconds() + idle)
    }

    /// Ends a `COPY … FROM STDIN`; returns once the server has taken every row, or throws what it
    /// refused.
    func endCopyIn(idle: Double) throws(PostgresError) {
        while true {
            let sent = PQputCopyEnd(handle, nil)
            if sent == 1 { break }
            guard sent == 0 else { throw failure(.connection, "COPY FROM STDIN") }
            try wait(for: Int16(POLLOUT), until: SystemClock.monotonicSeconds() + idle, "COPY FROM STDIN")
        }
        _ = try collect(1, deadline: SystemClock.monotonicSeconds() + idle, operation: "COPY FROM STDIN")
    }

    /// Hands each row of a `COPY … TO STDOUT` to `line` (its bytes, the final newline included,
    /// valid during the call) until the server has sent them all.
    func readCopyData(idle: Double, _ line: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &buffer, 1)
            if length > 0, let buffer {
                defer { PQfreemem(buffer) }
                // Safe: libpq's buffer holds `length` bytes until PQfreemem, after `line` returns.
                try buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { try line(UnsafeBufferPointer(start: $0, count: Int(length))) }
            } else if length == 0 {
                try wait(for: Int16(POLLIN), until: SystemClock.monotonicSeconds() + idle, "COPY TO STDOUT")
                guard PQconsumeInput(handle) == 1 else { throw failure(.connection, "COPY TO STDOUT") }
            } else if length == -1 {
                break
            } else {
                throw failure(.connection, "COPY TO STDOUT")
            }
        }
        _ = try collect(1, deadline: SystemClock.monotonicSeconds() + idle, operation: "COPY TO STDOUT")
    }
}
