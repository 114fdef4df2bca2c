import Glibc

/// Facts about the machine the server runs on.
public enum System {
    /// Online processor cores.
    public static var coreCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Raises the open-file limit to its hard maximum, so thousands of idle connections fit.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
