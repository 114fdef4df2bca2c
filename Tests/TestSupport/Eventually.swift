import Glibc

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout` seconds; returns
/// whether it held. For conditions another thread makes true, so no test sleeps a fixed time.
public func eventually(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    while true {
        if try condition() { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        if Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9 > timeout { return false }
        usleep(10_000)
    }
}
