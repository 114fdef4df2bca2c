import Dispatch

/// Copies WAL frames back into the database file from a connection of its own, on a timer, so
/// the checkpoint the writer still runs at its threshold finds most of the WAL copied already
/// (under a steady write load it is left the frames of the last tick, about a quarter, and the
/// sync of the database file). PASSIVE never blocks the writer or readers
/// (sqlite.org/c3ref/wal_checkpoint_v2.html); only the writer can restart the WAL, which is why
/// its own automatic checkpoint stays on.
final class Checkpointer: Sendable {
    // Safe: configured once in init, afterwards only cancelled (by `stop` or deinit).
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    private let queue = DispatchQueue(label: "ratings.sqlite.checkpoint", qos: .utility)
    private let connection: CheckpointConnection

    init(path: String, busyTimeoutMilliseconds: Int32, intervalMilliseconds: Int) throws(SQLiteError) {
        let sqlite = try SQLiteConnection(path: path)
        try sqlite.configure(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let connection = CheckpointConnection(sqlite)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(intervalMilliseconds), repeating: .milliseconds(intervalMilliseconds),
                       leeway: .milliseconds(intervalMilliseconds / 4))
        timer.setEventHandler {
            // A failed checkpoint is retried on the next tick; the writer's own one is the backstop.
            _ = try? connection.sqlite?.scalarText("PRAGMA wal_checkpoint(PASSIVE)")
        }
        self.connection = connection
        timer.resume()
    }

    /// Ends the ticks, waits for one in progress, so that no checkpoint of this connection runs
    /// afterwards (SQLite refuses a second checkpoint while one runs, without waiting), and closes
    /// the connection, so that it does not keep the WAL open past the writer's.
    func stop() {
        timer.cancel()
        queue.sync { connection.sqlite = nil }
    }

    deinit { timer.cancel() }
}

/// The checkpointer's connection, until `stop` closes it.
// Safe: used only on the checkpointer's serial queue (the timer's handler, and `stop`'s `sync`).
private final class CheckpointConnection: @unchecked Sendable {
    var sqlite: SQLiteConnection?
    init(_ sqlite: SQLiteConnection) { self.sqlite = sqlite }
}
