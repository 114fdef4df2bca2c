public import Glibc

/// A first-in, first-out queue that threads wait on: `take` blocks until an item arrives or the
/// queue is closed. Built on a pthread mutex and condition variable, so ThreadSanitizer sees it.
public final class WorkQueue<Item>: @unchecked Sendable {
    // Safe: `items` and `closed` are read and written only between lock and unlock of `mutex`.
    @usableFromInline var items: [Item] = []
    @usableFromInline var head = 0
    @usableFromInline var closed = false
    // Safe: allocated once in init, destroyed and freed once in deinit; pthread needs stable addresses.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Safe: as `mutex`.
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Adds an item and wakes one waiting thread; false (and the item dropped) once closed.
    @discardableResult @inlinable
    public func put(_ item: Item) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !closed else { return false }
        items.append(item)
        pthread_cond_signal(condition)
        return true
    }

    /// The oldest item, waiting for one; nil once the queue is closed and empty.
    public func take() -> Item? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard waitForItems() else { return nil }
        let item = items[head]
        removeItems(before: head + 1)
        return item
    }

    /// Up to `limit` of the oldest items, waiting for one; empty once the queue is closed and
    /// empty. `beforeTaking` runs without the lock once items are waiting, so a taker can let the
    /// threads putting items add more to the same batch first.
    @inlinable
    public func take(upTo limit: Int, beforeTaking: () -> Void) -> [Item] {
        pthread_mutex_lock(mutex)
        let waiting = waitForItems()
        pthread_mutex_unlock(mutex)
        guard waiting else { return [] }
        beforeTaking()
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let end = min(items.count, head + limit)
        let batch = Array(items[head..<end])
        removeItems(before: end)
        return batch
    }

    /// With `mutex` held: waits until an item is there or the queue is closed; whether one is.
    @usableFromInline
    func waitForItems() -> Bool {
        while head == items.count && !closed { pthread_cond_wait(condition, mutex) }
        return head < items.count
    }

    /// With `mutex` held: drops the items before `end`, reusing the storage once all are taken.
    @usableFromInline
    func removeItems(before end: Int) {
        head = end
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    /// Items waiting now.
    public var count: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return items.count - head
    }

    /// Takes no more items; waiting threads finish what is queued, then get nil.
    public func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
