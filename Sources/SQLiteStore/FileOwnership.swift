import Glibc

/// Claims a database file for one process: an exclusive `flock` held for the store's life. Two
/// `ratings serve` processes on one file would each keep their own in-memory state and disagree,
/// so the second is refused at start. (`flock` and SQLite's own POSIX locks do not interact on
/// Linux, so this never disturbs SQLite's locking.)
final class FileOwnership: Sendable {
    private let fd: Int32

    init(path: String) throws(SQLiteOwnershipError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SQLiteOwnershipError(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))") }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(fd)
            throw SQLiteOwnershipError(path: path, reason: code == EWOULDBLOCK
                ? "another `ratings serve` is already using it; a SQLite file belongs to one server at a time (use PostgreSQL for several)"
                : "cannot lock it: \(String(cString: strerror(code)))")
        }
        self.fd = fd
    }

    deinit { close(fd) }
}

/// The database file belongs to another process, or cannot be claimed.
public struct SQLiteOwnershipError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
