import Glibc

/// What the server changes about its process: the open-file limit.
public enum System {
    /// Raises the open-file limit to its hard maximum, so thousands of idle connections fit.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
