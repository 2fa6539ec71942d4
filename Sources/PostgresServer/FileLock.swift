import Foundation

/// An exclusive `flock` on a file, held while a closure runs.
///
/// Two processes starting the same cluster at once would both run initdb or
/// pg_ctl; the lock makes the second wait and then find the cluster running.
enum FileLock {
    static func withLock<T>(at path: String, _ body: () async throws -> T) async throws -> T {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ClusterError("cannot open the lock file \(path): \(String(cString: strerror(errno)))",
                               fix: "check that the folder exists and is writable")
        }
        defer { close(fd) }
        // flock blocks: wait on a thread of its own.
        let locked: Bool = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: flock(fd, LOCK_EX) == 0) }.start()
        }
        guard locked else {
            throw ClusterError("cannot lock \(path): \(String(cString: strerror(errno)))",
                               fix: "check the file system supports locks")
        }
        defer { flock(fd, LOCK_UN) }
        return try await body()
    }
}
