public import Glibc

/// A value behind a pthread mutex. Used instead of `Synchronization.Mutex` because its futex
/// implementation is invisible to ThreadSanitizer, which then reports every lock-protected
/// access as a race; a pthread mutex is intercepted, so races TSan reports here are real.
public final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is read and written only between lock and unlock of `mutex`.
    @usableFromInline var value: Value
    // Safe: allocated once in init, destroyed and freed once in deinit; pthread needs a stable address.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Inlinable, so each caller gets it
    /// specialized to its own value and result.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
