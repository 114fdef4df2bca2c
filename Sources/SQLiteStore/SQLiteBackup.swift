import Glibc
import Platform

/// A consistent copy of a ratings database into a new file while a server may be writing it:
/// `VACUUM INTO` reads one snapshot (a WAL reader, which never holds the writer up), so the copy
/// holds every transaction committed before it began (every write acknowledged by then) and none
/// after, compacted, and is a database `ratings serve` opens as it is.
public enum SQLiteBackup {
    /// What a backup wrote.
    public struct Summary: Sendable {
        public let bytes: Int
        public let items: Int
        public let ratings: Int
        public let reviews: Int
        public let seconds: Double
    }

    /// Copies `source` to `target`, which must not exist: it is created empty first (so two
    /// backups cannot share it), filled, then checked; on any failure it is removed again.
    public static func copy(from source: String, to target: String) throws(SQLiteBackupError) -> Summary {
        let started = SystemClock.monotonicSeconds()
        var info = stat()
        guard stat(source, &info) == 0 else { throw .sourceUnreadable(source, String(cString: strerror(errno))) }
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw code == EEXIST ? .targetExists(target) : .targetUnwritable(target, String(cString: strerror(code)))
        }
        close(fd)
        do {
            let connection = try SQLiteConnection(path: source, readOnly: true)
            try connection.execute("PRAGMA busy_timeout = 5000")
            guard try connection.holdsMigrations() else {
                unlink(target)
                throw SQLiteBackupError.notARatingsDatabase(source)
            }
            try connection.execute("VACUUM INTO '\(target.replacingSingleQuotes)'")
            let copy = try SQLiteConnection(path: target, readOnly: true)
            guard try copy.scalarText("PRAGMA integrity_check") == "ok" else {
                unlink(target)
                throw SQLiteBackupError.copyDamaged(target)
            }
            let count = { (table: String) throws(SQLiteError) -> Int in Int(try copy.scalarText("SELECT count(*) FROM \(table)") ?? "") ?? 0 }
            var written = stat()
            _ = stat(target, &written)
            return Summary(bytes: Int(written.st_size), items: try count("items"), ratings: try count("ratings"), reviews: try count("reviews"),
                           seconds: SystemClock.monotonicSeconds() - started)
        } catch let error as SQLiteBackupError {
            throw error
        } catch {
            unlink(target)
            throw .failed(source, target, "\(error)")
        }
    }
}

extension String {
    /// The text as the inside of a SQL string literal.
    fileprivate var replacingSingleQuotes: String { split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") }
}

/// Why a backup did not happen; `isUsage` tells a mistake in the command (exit 2) from a failure.
public enum SQLiteBackupError: Error, Sendable, CustomStringConvertible {
    case sourceUnreadable(String, String)
    case notARatingsDatabase(String)
    case targetExists(String)
    case targetUnwritable(String, String)
    case copyDamaged(String)
    case failed(String, String, String)

    public var isUsage: Bool {
        switch self {
        case .targetExists, .notARatingsDatabase, .sourceUnreadable: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case let .sourceUnreadable(path, reason): "cannot read \(path): \(reason)"
        case let .notARatingsDatabase(path): "\(path) is not a ratings database (it has no schema_migrations table)"
        case let .targetExists(path): "\(path) already exists; a backup never overwrites a file: remove it or name a new one"
        case let .targetUnwritable(path, reason): "cannot create \(path): \(reason); the folder must exist and be writable"
        case let .copyDamaged(path): "the copy \(path) failed its integrity check and was removed"
        case let .failed(source, target, reason): "copying \(source) to \(target) failed (\(reason)); nothing was left at \(target)"
        }
    }
}
