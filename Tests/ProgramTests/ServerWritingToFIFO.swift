import Glibc
import TestSupport

/// `ratings serve` with its standard output or its standard error a FIFO that the test reads only
/// when it chooses: a log destination that takes nothing until told to.
struct ServerWritingToFIFO {
    /// Which of the server's streams goes into the FIFO.
    enum Stream { case output, errors }

    let fifo: String
    let process: RatingsProcess
    /// The FIFO's read end.
    let readEnd: Int32
    let port: Int

    /// Starts the server on `database` (default: a new file in `directory`), `environment` added.
    /// With standard output in the FIFO, its "listening on" line is read from it and nothing after.
    init(in directory: TemporaryDirectory, writing stream: Stream = .output, database: String? = nil,
         environment: [String: String] = [:]) throws {
        fifo = directory.file(stream == .output ? "stdout" : "stderr")
        guard mkfifo(fifo, 0o600) == 0 else { throw RawHTTPClient.ClientError.malformed("mkfifo failed (errno \(errno))") }
        // The read end first, without waiting for a writer, so the server's open of the write end
        // (in the spawn) finds a reader; then reads wait for data again.
        readEnd = open(fifo, O_RDONLY | O_NONBLOCK)
        guard readEnd >= 0 else { throw RawHTTPClient.ClientError.malformed("cannot open \(fifo) (errno \(errno))") }
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) & ~O_NONBLOCK)
        let arguments = ["serve", "--port", "0", "--database", database ?? directory.file("db.sqlite")]
        do {
            process = try RatingsProcess(arguments, environment: environment,
                                         standardOutput: stream == .output ? fifo : nil, standardError: stream == .errors ? fifo : nil)
        } catch {
            close(readEnd)
            throw error
        }
        let port: Int?
        switch stream {
        case .output:
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.contains(UInt8(ascii: "\n")), read(readEnd, &byte, 1) == 1 { head.append(byte) }
            port = RatingsProcess.port(inListeningLine: String(decoding: head, as: UTF8.self))
        case .errors:
            port = process.waitForPort()
        }
        guard let port else {
            process.stop()
            close(readEnd)
            throw RawHTTPClient.ClientError.malformed("ratings serve did not start: \(process.stderr)")
        }
        self.port = port
    }

    /// Fills what room the pipe has left, so that everything the server writes to it from now on
    /// waits; whether it ended full.
    func fill() -> Bool {
        let filler = open(fifo, O_WRONLY | O_NONBLOCK)
        guard filler >= 0 else { return false }
        defer { close(filler) }
        let newlines = [UInt8](repeating: UInt8(ascii: "\n"), count: 512)
        for size in [512, 1] {  // then byte by byte into the last page's remainder
            while write(filler, newlines, size) > 0 {}
            guard errno == EAGAIN else { return false }
        }
        return true
    }

    /// Reads the pipe `chunkSize` bytes at a time until the server's exit closes its last writer.
    func readToEnd(chunkSize: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = read(readEnd, &buffer, chunkSize)
            if count <= 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Kills the server if it still runs and closes the read end.
    func stop() {
        process.stop()
        close(readEnd)
    }
}
