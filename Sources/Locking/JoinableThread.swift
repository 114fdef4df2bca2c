internal import CLinux
import Glibc

/// A joinable POSIX thread, for the server's loops and the stores' workers. Used instead of
/// Foundation's `Thread`, which would link Foundation (and its ICU data) into the binary for
/// nothing else; whoever starts one joins it, so nothing is left running after a stop. Each has a
/// name, which `top -H`, `ps -T` and `perf` show, so an operator can tell the loops from the rest.
public final class JoinableThread: Sendable {
    private let thread: pthread_t
    /// Whether `join` was called: a pthread may be joined once only (a second join is undefined).
    private let joined = Locked(false)

    private init(thread: pthread_t) { self.thread = thread }

    /// The longest name Linux keeps for a thread, in bytes (16 with the terminating zero).
    private static let maxNameBytes = 15

    /// Runs `body` on a new thread called `name` (cut to the 15 bytes Linux keeps); throws the
    /// errno of a failed `pthread_create`.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) -> JoinableThread {
        // Cut here: Linux refuses a longer name (ERANGE), and the thread would keep the process's.
        let name = name.utf8.prefix(maxNameBytes).map { CChar(bitPattern: $0) } + [0]
        // Named twice, both by the thread itself, so its body runs under its name from its first
        // instruction, and by the starter below, so the name is in place once `start` returns
        // (a server that says it is listening shows every thread under its name).
        let box = Unmanaged.passRetained(ThreadBody {
            _ = pthread_setname_np(pthread_self(), name)
            body()
        }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            // Safe: `argument` is the box retained above; it is released exactly once, here.
            let body = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw ThreadStartError(errno: result)
        }
        _ = pthread_setname_np(thread, name)
        return JoinableThread(thread: thread)
    }

    /// Waits for the thread to return; 0, or the errno of a failed `pthread_join`. Only the first
    /// call joins: later ones return 0 at once, without waiting, so an owner may join both in an
    /// explicit stop and in its deinit.
    @discardableResult
    public func join() -> Int32 {
        let first = joined.withLock { joined in
            defer { joined = true }
            return !joined
        }
        return first ? pthread_join(thread, nil) : 0
    }
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// `pthread_create` failed with this errno (EAGAIN: the system's thread limit).
public struct ThreadStartError: Error, Sendable, CustomStringConvertible {
    public let errno: Int32
    public var description: String { "pthread_create failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}
