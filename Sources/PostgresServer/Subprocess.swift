import Foundation

/// Runs a program to completion and collects its output.
///
/// Built on `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose
/// child reaping on Linux can miss an exit and wait forever. The wait happens on
/// a thread of its own, never on Swift's cooperative pool.
public struct Subprocess: Sendable {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var succeeded: Bool { status == 0 }
    }

    public var executable: String
    public var arguments: [String]
    /// When set, the program runs as this OS user (through `runuser`; needs root).
    public var user: String?

    public init(executable: String, arguments: [String], user: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.user = user
    }

    public func run() async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try runBlocking() }) }
            thread.name = "subprocess"
            thread.start()
        }
    }

    public func runBlocking() throws -> Output {
        let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] + arguments } ?? [executable] + arguments
        // Start in / through a shell: a working directory the target user can't enter makes
        // PostgreSQL's programs complain, and posix_spawn has no portable chdir action.
        let argv = ["/bin/sh", "-c", "cd / && exec \"$@\"", "sh"] + command
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        // Close-on-exec from birth: a program spawned meanwhile by another thread (pg_ctl
        // starting a server that lives on) must not inherit these, or they never reach EOF.
        // A socket pair is the pipe that can be created that way atomically.
        let kind = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &outPipe) == 0, socketpair(AF_UNIX, kind, 0, &errPipe) == 0 else {
            throw failure("socketpair", command[0])
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }

        var pid: pid_t = 0
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw SubprocessError(message: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
        }
        let (out, err) = Self.drain(outPipe[0], errPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, spelled out: a signal death reports 128 + signal, as shells do.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Output(status: exitStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    /// Reads both pipes to their end, whichever speaks first, so a chatty child never blocks.
    private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var buffers: [[UInt8]] = [[], []]
        var descriptors = [pollfd(fd: first, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var chunk = [UInt8](repeating: 0, count: 65536)
        var open = 2
        while open > 0 {
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, &chunk, chunk.count)
                if count > 0 {
                    buffers[index].append(contentsOf: chunk[0..<count])
                } else if count == 0 || errno != EINTR {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                }
            }
        }
        return (buffers[0], buffers[1])
    }

    private func failure(_ call: String, _ program: String) -> SubprocessError {
        SubprocessError(message: "cannot run \(program): \(call) failed: \(String(cString: strerror(errno)))")
    }
}

public struct SubprocessError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
