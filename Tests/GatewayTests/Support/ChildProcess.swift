#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A program started in the background with its own environment, its output going
/// to files (read while it runs), stopped with a signal. Waiting happens on a
/// thread of its own, never on Swift's cooperative pool.
final class ChildProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let pid: pid_t
    let name: String
    let stdoutPath: String
    let stderrPath: String
    private let lock = NSLock()
    private var exitStatus: Int32?

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], in folder: URL) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        let stem = folder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(6))").path
        stdoutPath = stem + ".out"
        stderrPath = stem + ".err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        self.pid = pid
    }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until standard output holds a line matching `prefix`, and returns the rest of it.
    func line(startingWith prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                return String(line.dropFirst(prefix.count))
            }
            if let status = reapNow() {
                throw Failure(description: "\(name) exited (\(status)) before printing \"\(prefix)\": \(stderr.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "\(name) did not print \"\(prefix)\" within \(timeout): \(stderr.suffix(2000))")
    }

    /// Sends `signal` and waits for the exit; returns its status (128 + n for a signal death).
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) async -> Int32 {
        if let status = reapNow() { return status }
        kill(pid, signal)
        return await wait(timeout: timeout)
    }

    /// Waits for the program to end by itself; kills it after `timeout`.
    func wait(timeout: Duration) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = reapNow() { return status }
            try? await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGKILL)
        while reapNow() == nil { try? await Task.sleep(for: .milliseconds(20)) }
        return reapNow() ?? -1
    }

    /// The exit status if the program has ended (without blocking).
    private func reapNow() -> Int32? {
        lock.withLock {
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            guard result == pid else { return nil }
            let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            exitStatus = code
            return code
        }
    }
}
