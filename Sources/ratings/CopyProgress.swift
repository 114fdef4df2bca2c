import Platform

/// What `ratings copy` shows while it works, on standard error: on a terminal, one line per table
/// redrawn in place (rows, share, rate, time left) and kept when the table is done; otherwise a
/// line every few seconds and one per finished table, as a log would want them.
final class CopyProgress {
    private let terminal: Bool
    private let write: (String) -> Void
    private let now: () -> Double
    private var table = ""
    private var total = 0
    private var started = 0.0
    private var shown = 0.0

    /// How often a terminal's line is redrawn, and how often a log gets a line, in seconds.
    private var interval: Double { terminal ? 0.1 : 5 }

    init(terminal: Bool, write: @escaping (String) -> Void = StandardStreams.errorText, now: @escaping () -> Double = SystemClock.monotonicSeconds) {
        self.terminal = terminal
        self.write = write
        self.now = now
    }

    /// A table begins; `total` is how many rows the source holds in it.
    func start(_ table: String, total: Int) {
        self.table = table
        self.total = total
        started = now()
        shown = started
        if terminal { write("\r\u{1B}[K" + line(rows: 0, at: started)) }
    }

    /// `rows` of the table are written.
    func update(rows: Int) {
        let time = now()
        guard time - shown >= interval else { return }
        shown = time
        write(terminal ? "\r\u{1B}[K" + line(rows: rows, at: time) : line(rows: rows, at: time) + "\n")
    }

    /// The table is done with `rows` written.
    func end(rows: Int) {
        let seconds = now() - started
        let done = "\(Self.padded(table)) \(Self.rows(rows)) in \(Self.seconds(seconds))"
            + (seconds > 0 && rows > 0 ? ", \(Self.grouped(Int(Double(rows) / seconds))) rows/s" : "")
        write((terminal ? "\r\u{1B}[K" : "") + done + "\n")
    }

    private func line(rows: Int, at time: Double) -> String {
        let seconds = time - started
        var text = "\(Self.padded(table)) \(Self.grouped(rows)) of \(Self.grouped(total)) rows"
        if total > 0 { text += " (\(rows * 100 / total) %)" }
        if seconds > 0, rows > 0 {
            let rate = Double(rows) / seconds
            text += ", \(Self.grouped(Int(rate))) rows/s, \(Self.seconds(Double(total - rows) / rate)) left"
        }
        return text
    }

    private static func padded(_ table: String) -> String {
        table + String(repeating: " ", count: max(0, 19 - table.count))
    }

    /// "1 row", "1,234 rows".
    static func rows(_ count: Int) -> String { "\(grouped(count)) row\(count == 1 ? "" : "s")" }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// Seconds to one decimal.
    static func seconds(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
