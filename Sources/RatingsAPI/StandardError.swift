import Glibc

/// Unbuffered lines to standard error: the default error log.
enum StandardError {
    static func write(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}
