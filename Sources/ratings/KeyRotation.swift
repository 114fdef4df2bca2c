import Dispatch
import Glibc
import JWT

/// Rotates token keys without a restart: the key file is read again on SIGHUP, and when its
/// modification time, size or inode changes (checked every second, so a provider's JWKS synced
/// into the file takes effect on its own). A file that cannot be read, does not parse or holds no
/// usable key leaves the keys in force, and says why on standard error.
final class KeyRotation: Sendable {
    private let file: KeyFile
    private let verifier: JWTVerifier
    private let errors: ErrorOutput
    private let queue = DispatchQueue(label: "ratings.keys")
    // Safe: created in init, touched afterwards only by their handlers on `queue` and by `stop`.
    private nonisolated(unsafe) let signalSource: any DispatchSourceSignal
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    // Safe: read and written only on `queue`.
    private nonisolated(unsafe) var lastSeen: FileStamp?

    init(file: KeyFile, verifier: JWTVerifier, errors: ErrorOutput) {
        self.file = file
        self.verifier = verifier
        self.errors = errors
        signal(SIGHUP, SIG_IGN)
        signalSource = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        timer = DispatchSource.makeTimerSource(queue: queue)
        lastSeen = FileStamp(path: file.path)
        signalSource.setEventHandler { [self] in reload(because: "SIGHUP") }
        timer.setEventHandler { [self] in
            let now = FileStamp(path: file.path)
            if now != lastSeen { reload(because: "it changed") }
        }
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        signalSource.resume()
        timer.resume()
    }

    func stop() {
        signalSource.cancel()
        timer.cancel()
    }

    private func reload(because reason: String) {
        lastSeen = FileStamp(path: file.path)
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
