internal import CLibPQ
import Foundation
import Glibc
import Locking

/// A private PostgreSQL cluster for one test run: `initdb` in a temporary folder (as the
/// `postgres` user when the tests run as root, since the server refuses to run as root), a free
/// loopback port, trust authentication. Started on first use and stopped when the test process
/// exits; `scripts/test.sh` also stops any cluster a crashed run left behind. Each test gets a
/// schema of its own, so tests run in parallel on one cluster.
public final class PostgresCluster: Sendable {
    /// Where Debian's `postgresql-15` puts the server programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"

    /// Why a cluster could not be had, with what to do about it.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public let directory: String
    public let port: Int
    // Safe: used under `lock` only.
    private nonisolated(unsafe) let admin: OpaquePointer
    private let lock = Locked(0)

    /// The cluster of this test run, started on first use.
    public static func shared() throws -> PostgresCluster {
        try sharedCluster.withLock { cluster in
            if let cluster = cluster.0 { return cluster }
            if let failure = cluster.1 { throw failure }
            do {
                let started = try PostgresCluster()
                cluster.0 = started
                atexit { PostgresCluster.stopShared() }
                return started
            } catch {
                let failure = Unavailable(description: "\(error)")
                cluster.1 = failure
                throw failure
            }
        }
    }

    /// A cluster of its own, for a test that stops and starts it; `remove()` it at the end.
    public static func startPrivate() throws -> PostgresCluster { try PostgresCluster() }

    /// Stops the server at once and deletes its folder.
    public func remove() {
        _ = try? Self.run(Self.binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asPostgres: geteuid() == 0)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else {
            throw Unavailable(description: "PostgreSQL 15 is not installed (\(Self.binaries)/initdb); run scripts/setup.sh --tests")
        }
        directory = try TemporaryDirectory("ratings-pg").path
        port = try Self.freePort()
        let asPostgres = geteuid() == 0
        if asPostgres { _ = try Self.run("/bin/chown", ["-R", "postgres:postgres", directory]) }
        let data = directory + "/data"
        try Self.check(Self.run(Self.binaries + "/initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
                                asPostgres: asPostgres), "initdb")
        let settings = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off"
        try Self.check(Self.run(Self.binaries + "/pg_ctl", ["-D", data, "-l", directory + "/server.log", "-o", settings, "-w", "-t", "30", "start"],
                                asPostgres: asPostgres), "pg_ctl start")
        guard let connection = PQconnectdb("host=127.0.0.1 port=\(port) user=postgres dbname=postgres"), PQstatus(connection) == CONNECTION_OK else {
            throw Unavailable(description: "cannot connect to the test cluster on port \(port)")
        }
        admin = connection
    }

    /// A URI for a fresh, empty schema of its own (`search_path` set to it).
    public func freshDatabaseURI() throws -> String {
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try execute("CREATE SCHEMA \(schema)")
        return uri(schema: schema)
    }

    /// The URI of `schema` in the cluster's `postgres` database.
    public func uri(schema: String) -> String {
        "postgresql://postgres@127.0.0.1:\(port)/postgres?options=-csearch_path%3D\(schema)"
    }

    /// The first column of the first row of a query, as text (nil when there is no row).
    public func scalar(_ sql: String) throws -> String? {
        try lock.withLock { _ in
            guard let result = PQexec(admin, sql) else { throw Unavailable(description: "out of memory") }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else {
                throw Unavailable(description: "\(sql): \(String(cString: PQresultErrorMessage(result)))")
            }
            return PQntuples(result) > 0 ? String(cString: PQgetvalue(result, 0, 0)) : nil
        }
    }

    /// Runs administrative SQL on the cluster.
    public func execute(_ sql: String) throws {
        try lock.withLock { _ in
            guard let result = PQexec(admin, sql) else { throw Unavailable(description: "out of memory") }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                throw Unavailable(description: "\(sql): \(String(cString: PQresultErrorMessage(result)))")
            }
        }
    }

    /// Stops the server (fast shutdown), as for an outage; `start` brings it back on the same port.
    public func stop() throws {
        try Self.check(Self.run(Self.binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"], asPostgres: geteuid() == 0), "pg_ctl stop")
    }

    /// Starts the server again after `stop`.
    public func start() throws {
        let settings = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off"
        try Self.check(Self.run(Self.binaries + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-o", settings, "-w", "-t", "30", "start"],
                                asPostgres: geteuid() == 0), "pg_ctl start")
        lock.withLock { _ in PQreset(admin) }
    }

    private static let sharedCluster = Locked<(PostgresCluster?, Unavailable?)>((nil, nil))

    private static func stopShared() {
        sharedCluster.withLock { $0.0 }?.remove()
    }

    private static func freePort() throws -> Int {
        guard let port = freeLoopbackPort() else { throw Unavailable(description: "no free port") }
        return port
    }

    private static func check(_ result: (status: Int32, output: String), _ what: String) throws {
        guard result.status == 0 else { throw Unavailable(description: "\(what) failed: \(result.output)") }
    }

    /// Runs a program to completion (as `postgres` through runuser when asked); status and output.
    /// Output goes to files, not pipes: `pg_ctl start` leaves a server running that would hold a
    /// pipe open.
    private static func run(_ tool: String, _ arguments: [String], asPostgres: Bool = false) throws -> (status: Int32, output: String) {
        let argv = asPostgres ? ["/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        let child = try Subprocess(argv, environment: ["PATH": "/usr/bin:/bin", "LANG": "C"])
        let status = child.waitForExit(timeout: 120) ?? -1
        return (status, child.stdout + child.stderr)
    }
}
