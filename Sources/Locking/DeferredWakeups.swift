import Glibc

/// Something another thread wakes after handing it work: an event loop, through its eventfd.
public protocol Wakeable: AnyObject, Sendable {
    func wake()
}

/// Holds back the wake-ups a thread asks for while it hands out a batch of tasks, and makes each
/// once the batch is handed out. The SQLite writer delivers a commit's results to the event loops
/// one at a time: waking a loop at the first let the loop preempt the writer, take that one result
/// and sleep again, and so again for the next, a context switch per result on a shared core.
public enum DeferredWakeups {
    // Created once, on first use; the key itself is only read afterwards.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body`; each target `wake(_:)` is given on this thread meanwhile is woken once, after
    /// `body` returns. Inside another `deferring` on the same thread, the outer one wakes them.
    public static func deferring(_ body: () -> Void) {
        guard pthread_getspecific(key) == nil else { return body() }
        let pending = Pending()
        // Safe: the pointer is only read on this thread, and only until it is cleared below,
        // while `pending` is still held by this frame.
        pthread_setspecific(key, Unmanaged.passUnretained(pending).toOpaque())
        body()
        pthread_setspecific(key, nil)
        for target in pending.targets { target.wake() }
    }

    /// Wakes `target` now, or, inside `deferring` on this thread, once when its body returns.
    public static func wake(_ target: any Wakeable) {
        guard let pointer = pthread_getspecific(key) else { return target.wake() }
        // Safe: set by `deferring` on this thread, which still holds the object (see there).
        let pending = Unmanaged<Pending>.fromOpaque(pointer).takeUnretainedValue()
        // A handful of loops at most, so a scan beats hashing.
        if !pending.targets.contains(where: { $0 === target }) { pending.targets.append(target) }
    }

    private final class Pending {
        var targets: [any Wakeable] = []
    }
}
