import Digest
import Foundation
import Postgres

/// A PostgreSQL cluster that Summit runs itself, in a folder of its own.
///
/// The default when no `DATABASE_URL` is set: `initdb` on first use, then a
/// server listening only on a unix socket inside that folder (no TCP port is
/// opened). A second process finds the running server and uses it. As root,
/// the server runs as the `postgres` OS user, since PostgreSQL refuses root.
public struct EmbeddedCluster: Sendable {
    /// The folder holding everything: `data/`, `run/` (socket), `server.log`, `port`.
    public let home: URL
    /// The OS user the server runs as; nil means the current user.
    public let serverUser: String?
    let environment: [String: String]

    /// The database role Summit connects as: the cluster's superuser.
    public static let superuser = "postgres"

    public init(home: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.home = home.standardizedFileURL
        self.environment = environment
        serverUser = geteuid() == 0 ? "postgres" : nil
    }

    public var dataDirectory: URL { home.appendingPathComponent("data") }
    public var logFile: URL { home.appendingPathComponent("server.log") }
    var portFile: URL { home.appendingPathComponent("port") }
    var lockFile: URL { home.appendingPathComponent(".lock") }

    /// `home/run`, unless the socket path would pass the 107-byte limit of a unix
    /// socket address; then a folder under /tmp named after the home.
    public var socketDirectory: String {
        let preferred = home.appendingPathComponent("run").path
        if (preferred + "/.s.PGSQL.65535").utf8.count <= 100 { return preferred }
        return "/tmp/summit-" + String(SHA256.hex(home.path).prefix(12))
    }

    public enum State: Sendable, Equatable {
        case uninitialized
        case stopped
        case running(RunningCluster)
    }

    /// Where the cluster stands, without changing anything.
    public func state() async throws -> State {
        guard FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) else {
            return .uninitialized
        }
        let binaries = try PostgresBinaries.locate(environment: environment)
        return try await runningCluster(binaries).map(State.running) ?? .stopped
    }

    /// Initializes (first time) and starts the cluster, or returns the one already running.
    public func start() async throws -> RunningCluster {
        let binaries = try PostgresBinaries.locate(environment: environment)
        try createFolder(home, ownedByServer: false)
        return try await FileLock.withLock(at: lockFile.path) {
            if !FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) {
                try await initialize(binaries)
            }
            try checkOwnership()
            if let running = try await runningCluster(binaries) { return running }
            return try await launch(binaries)
        }
    }

    /// Stops the server (fast shutdown: open transactions roll back). False if it wasn't running.
    @discardableResult
    public func stop() async throws -> Bool {
        guard case .running = try await state() else { return false }
        let binaries = try PostgresBinaries.locate(environment: environment)
        let output = try await Subprocess(
            executable: binaries.path("pg_ctl"),
            arguments: ["stop", "-D", dataDirectory.path, "-m", "fast", "-w", "-t", "60"],
            user: serverUser).run()
        guard output.succeeded else {
            throw ClusterError("pg_ctl stop failed: \(output.stderr.trimmed)",
                               fix: "look at \(logFile.path); `kill` the postgres process listed in \(dataDirectory.path)/postmaster.pid if it hangs",
                               logTail: logTail())
        }
        return true
    }

    // MARK: Steps

    private func initialize(_ binaries: PostgresBinaries) async throws {
        let fileManager = FileManager.default
        if let contents = try? fileManager.contentsOfDirectory(atPath: dataDirectory.path), !contents.isEmpty {
            throw ClusterError("\(dataDirectory.path) exists but holds no PostgreSQL cluster",
                               fix: "move it away, or set SUMMIT_HOME to another folder")
        }
        try createFolder(dataDirectory, ownedByServer: true, mode: 0o700)
        try await checkServerCanWrite(dataDirectory)
        let output = try await Subprocess(
            executable: binaries.path("initdb"),
            arguments: ["-D", dataDirectory.path, "-U", Self.superuser, "--auth=trust",
                        "-E", "UTF8", "--locale=C.UTF-8", "--no-instructions"],
            user: serverUser).run()
        guard output.succeeded else {
            // Leave no half-made cluster behind: the next start would refuse it.
            try? fileManager.removeItem(at: dataDirectory)
            throw ClusterError("initdb failed: \(output.stderr.trimmed)",
                               fix: "check free disk space and the permissions of \(home.path)")
        }
    }

    private func launch(_ binaries: PostgresBinaries) async throws -> RunningCluster {
        let port = try choosePort()
        let socket = socketDirectory
        guard !socket.contains("'"), !socket.contains(" ") else {
            throw ClusterError("the socket folder \(socket) contains a quote or a space",
                               fix: "set SUMMIT_HOME to a path without quotes or spaces")
        }
        try createFolder(URL(fileURLWithPath: socket), ownedByServer: true, mode: 0o700)
        if !FileManager.default.fileExists(atPath: logFile.path) {
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        }
        try chownToServer(logFile.path)
        let options = [
            "-c listen_addresses=''", "-k '\(socket)'", "-p \(port)",
            "-c max_connections=200", "-c fsync=\(environment["SUMMIT_FSYNC"] ?? "on")",
        ].joined(separator: " ")
        let output = try await Subprocess(
            executable: binaries.path("pg_ctl"),
            arguments: ["start", "-D", dataDirectory.path, "-l", logFile.path, "-w", "-t", "60", "-o", options],
            user: serverUser).run()
        guard output.succeeded, let running = try await runningCluster(binaries) else {
            throw ClusterError("the embedded PostgreSQL server did not start (\(output.stderr.trimmed))",
                               fix: "read the log below; remove \(home.path) to start from scratch",
                               logTail: logTail())
        }
        try String(port).write(to: portFile, atomically: true, encoding: .utf8)
        return running
    }

    /// The running server described by `postmaster.pid`, after `pg_ctl status` confirms it lives.
    private func runningCluster(_ binaries: PostgresBinaries) async throws -> RunningCluster? {
        let status = try await Subprocess(executable: binaries.path("pg_ctl"),
                                          arguments: ["status", "-D", dataDirectory.path], user: serverUser).run()
        guard status.succeeded,
              let pidFile = try? String(contentsOf: dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        else { return nil }
        let lines = pidFile.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 5, let pid = Int32(lines[0]), let port = Int(lines[3]) else { return nil }
        let socket = lines[4].split(separator: ",").first.map(String.init) ?? socketDirectory
        return RunningCluster(pid: pid, port: port, socketDirectory: socket)
    }

    /// `SUMMIT_PORT` if set and free; else the port used last time; else a free one.
    private func choosePort() throws -> Int {
        if let configured = environment["SUMMIT_PORT"], !configured.isEmpty {
            guard let port = Int(configured), (1024...65535).contains(port) else {
                throw ClusterError("SUMMIT_PORT=\(configured) is not a port number",
                                   fix: "use a number from 1024 to 65535, or unset SUMMIT_PORT")
            }
            guard PortProbe.isFree(port) else {
                throw ClusterError("port \(port) (SUMMIT_PORT) is already in use by another program",
                                   fix: "choose another port, or unset SUMMIT_PORT to let Summit pick a free one")
            }
            return port
        }
        if let saved = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(saved.trimmed),
           PortProbe.isFree(port) {
            return port
        }
        // Start from a point derived from the folder so that clusters of different
        // checkouts rarely race for the same number.
        let start = 54320 + Int(SHA256.hash(Array(home.path.utf8))[0]) * 8
        for port in start..<(start + 2000) where PortProbe.isFree(port) { return port }
        throw ClusterError("no free port found from \(start)", fix: "set SUMMIT_PORT to a free port")
    }

    // MARK: Files and owners

    private func createFolder(_ url: URL, ownedByServer: Bool, mode: Int = 0o755) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ClusterError("cannot create \(url.path): \(error.localizedDescription)",
                               fix: "check the permissions of its parent, or set SUMMIT_HOME to a writable folder")
        }
        if ownedByServer {
            chmod(url.path, mode_t(mode))
            try chownToServer(url.path)
        }
    }

    private func chownToServer(_ path: String) throws {
        guard let serverUser, let account = getpwnam(serverUser) else { return }
        guard chown(path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
            throw ClusterError("cannot give \(path) to the \(serverUser) OS user: \(String(cString: strerror(errno)))",
                               fix: "run Summit as root or as the owner of \(home.path)")
        }
    }

    /// As root, the server runs as `postgres`, which must reach the data folder through every parent.
    private func checkServerCanWrite(_ url: URL) async throws {
        guard let serverUser else { return }
        let output = try await Subprocess(executable: "/usr/bin/test", arguments: ["-w", url.path], user: serverUser).run()
        guard output.succeeded else {
            throw ClusterError("the \(serverUser) OS user cannot reach \(url.path) (a parent folder is closed to it)",
                               fix: "set SUMMIT_HOME to a folder it can reach, e.g. SUMMIT_HOME=/var/tmp/summit, "
                                   + "or open the parents with chmod o+x")
        }
    }

    private func checkOwnership() throws {
        let expected: uid_t = serverUser.flatMap { getpwnam($0)?.pointee.pw_uid } ?? geteuid()
        var info = stat()
        guard stat(dataDirectory.path, &info) == 0 else {
            throw ClusterError("cannot read \(dataDirectory.path): \(String(cString: strerror(errno)))",
                               fix: "check its permissions")
        }
        guard info.st_uid == expected else {
            let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
            let runner = serverUser ?? (getpwuid(expected).map { String(cString: $0.pointee.pw_name) } ?? "uid \(expected)")
            throw ClusterError("the data folder \(dataDirectory.path) belongs to \(owner), but the server would run as \(runner)",
                               fix: "run Summit as \(owner), or set SUMMIT_HOME to a folder of your own")
        }
    }

    func logTail(lines: Int = 20) -> String {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// A started server: where to connect.
public struct RunningCluster: Sendable, Equatable {
    public let pid: Int32
    public let port: Int
    public let socketDirectory: String

    public func configuration(database: String) -> PostgresConfiguration {
        PostgresConfiguration(socketDirectory: socketDirectory, port: port, database: database,
                              user: EmbeddedCluster.superuser)
    }
}

enum PortProbe {
    /// True when nothing listens on the TCP port on loopback (binding succeeds).
    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
