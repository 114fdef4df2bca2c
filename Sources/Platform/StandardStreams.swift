import Glibc

/// Lines to standard output and standard error, written unbuffered: the one place the service
/// writes to either stream directly (the logs' own threads included).
public enum StandardStreams {
    public static func out(_ text: String) { write(1, text) }
    public static func error(_ text: String) { write(2, text) }
    /// Standard error exactly as given, no newline added: a terminal's line redrawn in place.
    public static func errorText(_ text: String) { write(2, text, endingLine: false) }
    /// Whether standard error is a terminal a person watches (rather than a file or a pipe).
    public static var errorIsTerminal: Bool { isatty(2) == 1 }

    /// How long a line waits for its destination to take it before it is dropped.
    public static let patienceMilliseconds: Int32 = 2_000

    private static func write(_ fd: Int32, _ text: String, endingLine: Bool = true) {
        var line = text.hasSuffix("\n") || !endingLine ? text : text + "\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                // A pipe nobody reads (a stalled log collector) must not keep the program from
                // stopping: past the patience, the line is dropped.
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&ready, 1, patienceMilliseconds) == 1 else { return }
                // Safe: offset < bytes.count inside this loop, so the buffer is not empty.
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
