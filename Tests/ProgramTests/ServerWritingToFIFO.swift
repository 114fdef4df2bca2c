import Glibc
import TestSupport

/// `ratings serve` with its standard output or its standard error a FIFO that the test reads only
/// when it chooses: a log destination that takes nothing until told to.
struct ServerWritingToFIFO {
    /// Which of the server's streams goes into the FIFO.
    enum Stream { case output, errors }

    let fifo: String
    let process: Subprocess
    /// The FIFO's read end.
    let readEnd: Int32
    let port: Int

    /// Starts the server on `database` (default: a new file in `directory`), `environment` added.
    /// With standard output in the FIFO, its "listening on" line is read from it and nothing after.
    init(in directory: TemporaryDirectory, writing stream: Stream = .output, database: String? = nil,
         environment: [String: String] = [:]) throws {
        fifo = directory.file(stream == .output ? "stdout" : "stderr")
        guard mkfifo(fifo, 0o600) == 0 else { throw RawHTTPClient.ClientError.malformed("mkfifo failed (errno \(errno))") }
        // The shell opens the pipe for the server's stream and becomes the server.
        let redirect = stream == .output ? ">" : "2>"
        process = try Subprocess(["/bin/sh", "-c", "exec \"$0\" serve --port 0 --database \"$1\" \(redirect) \"$2\"",
                                  RatingsProcess.binaryPath, database ?? directory.file("db.sqlite"), fifo],
                                 environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
        readEnd = open(fifo, O_RDONLY)
        let listening: String
        switch stream {
        case .output:
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while readEnd >= 0, !head.contains(UInt8(ascii: "\n")), read(readEnd, &byte, 1) == 1 { head.append(byte) }
            listening = String(decoding: head, as: UTF8.self)
        case .errors:
            let process = process
            _ = eventually(timeout: 20) { process.stdout.contains("listening on") || !process.isRunning }
            listening = process.stdout
        }
        guard readEnd >= 0, let port = RatingsProcess.port(inListeningLine: listening) else {
            process.stop()
            if readEnd >= 0 { close(readEnd) }
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
