import Dispatch
import Glibc
import JWT

/// Reads a file again without a restart: on SIGHUP, and when its modification time, size or
/// inode changes (checked every second, so a file a sidecar or a Kubernetes secret refreshes takes
/// effect on its own). `reload` gets the reason; it reads the file itself, and must keep what is
/// in force when the file cannot be used, saying why. Token keys and the webhooks file use it.
final class FileReloader: Sendable {
    private let path: String
    private let reload: @Sendable (_ reason: String) -> Void
    private let queue: DispatchQueue
    // Safe: created in init, touched afterwards only by their handlers on `queue` and by `stop`.
    private nonisolated(unsafe) let signalSource: any DispatchSourceSignal
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    // Safe: read and written only on `queue`.
    private nonisolated(unsafe) var lastSeen: FileStamp?

    init(path: String, label: String, reload: @escaping @Sendable (_ reason: String) -> Void) {
        self.path = path
        self.reload = reload
        queue = DispatchQueue(label: label)
        signal(SIGHUP, SIG_IGN)
        signalSource = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        timer = DispatchSource.makeTimerSource(queue: queue)
        lastSeen = FileStamp(path: path)
        signalSource.setEventHandler { [self] in read(because: "SIGHUP") }
        timer.setEventHandler { [self] in
            if FileStamp(path: path) != lastSeen { read(because: "it changed") }
        }
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        signalSource.resume()
        timer.resume()
    }

    func stop() {
        signalSource.cancel()
        timer.cancel()
    }

    private func read(because reason: String) {
        lastSeen = FileStamp(path: path)
        reload(reason)
    }
}

/// Token keys read again by a `FileReloader`: a file that cannot be read, does not parse or holds
/// no usable key leaves the keys in force, and says why on standard error.
enum KeyRotation {
    static func start(file: KeyFile, verifier: JWTVerifier, errors: ErrorOutput) -> FileReloader {
        FileReloader(path: file.path, label: "ratings.keys") { reason in
            do {
                let keys = try file.read()
                verifier.replaceKeys(keys)
                let names = keys.names.filter { !$0.isEmpty }
                errors.write("keys: read \(file.path) again (\(reason)); \(names.isEmpty ? "1 key" : "kids " + names.joined(separator: ", ")) in force", level: .info)
            } catch {
                errors.write("keys: \(file.path) cannot be used (\(error)); the keys in force are kept")
            }
        }
    }
}

/// What tells one version of a file from another without reading it.
private struct FileStamp: Equatable {
    let inode: UInt
    let size: Int
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt(info.st_ino)
        size = Int(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
