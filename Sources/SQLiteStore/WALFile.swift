internal import CSQLite
import Glibc

/// What makes the frames SQLite has written to the WAL durable. The store's is `WALFile`; a test
/// stands in one that it can hold back or make fail.
protocol WALSyncing: Sendable {
    /// Returns once every frame written to the WAL before the call is on stable storage.
    func sync() throws(SQLiteError)
}

/// The store's `-wal` file, opened a second time so that a thread other than the writer's can make
/// a commit's frames durable (`fdatasync`) while the writer goes on with the next transaction.
/// SQLite alone writes the file; this descriptor is only ever synced, and, the WAL holding no
/// POSIX locks of SQLite's (those are on the database and `-shm` files), closing it releases none.
final class WALFile: WALSyncing {
    let path: String
    private let descriptor: Int32

    /// Opens the WAL of the database at `databasePath`, which the writer's connection has created
    /// already (it exists from the first transaction on a WAL database until the last connection closes).
    init(databasePath: String) throws(SQLiteError) {
        path = databasePath + "-wal"
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SQLiteError(code: SQLITE_CANTOPEN, operation: "open \(path)", message: String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// `fdatasync`, as SQLite's own sync of the WAL on Linux: the frames and the file's length,
    /// without its times.
    func sync() throws(SQLiteError) {
        var result: Int32
        repeat { result = fdatasync(descriptor) } while result != 0 && errno == EINTR
        guard result == 0 else {
            // SQLITE_IOERR_FSYNC, which Swift does not import (a macro of an expression).
            throw SQLiteError(code: SQLITE_IOERR | (4 << 8), operation: "fdatasync \(path)", message: String(cString: strerror(errno)))
        }
    }
}
