import ASCIIKit
import Glibc

/// Facts about the machine the service runs on.
public enum Machine {
    /// Cores this process may run on: its CPU affinity (so `taskset -c 1` means one loop), or
    /// the online cores when the affinity cannot be read.
    public static var coreCount: Int {
        if let allowed = allowedCPUs(), allowed > 0 { return allowed }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Counts the CPUs in `Cpus_allowed_list` of /proc/self/status (e.g. `0-3,6`).
    private static func allowedCPUs() -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Cpus_allowed_list:") else { continue }
            var count = 0
            for range in text.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
                let bounds = range.split(separator: "-").compactMap { ASCII.integer($0.filter { !$0.isWhitespace }, in: 0...Int.max) }
                if bounds.count == 2 { count += bounds[1] - bounds[0] + 1 } else if bounds.count == 1 { count += 1 }
            }
            return count
        }
        return nil
    }
}
