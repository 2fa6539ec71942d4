import Digest
import Foundation
import Migrator
import PostgresServer

/// The checkout Summit runs from: its SQL folders, and where its embedded cluster lives.
public struct Workspace: Sendable {
    /// The folder holding `migrations/`, `sql/` and `pgtap/`.
    public let root: URL
    public let environment: [String: String]

    /// Where the embedded cluster lives: `SUMMIT_HOME`, else `.summit/` in the checkout.
    public let home: URL

    public init(root: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.root = root.standardizedFileURL
        self.environment = environment
        home = Self.home(root: self.root, environment: environment)
    }

    /// `SUMMIT_ROOT`, else the nearest folder above the executable, then above the
    /// working directory, that holds both `migrations/` and `sql/`.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Workspace {
        if let configured = environment["SUMMIT_ROOT"], !configured.isEmpty {
            let root = URL(fileURLWithPath: configured)
            guard isRoot(root) else {
                throw SetupError("SUMMIT_ROOT=\(configured) holds no migrations/ and sql/ folders",
                               fix: "point SUMMIT_ROOT at a Summit checkout")
            }
            return Workspace(root: root, environment: environment)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let starts = [executable.deletingLastPathComponent(),
                      URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        for start in starts {
            var folder = start.standardizedFileURL
            while true {
                if isRoot(folder) { return Workspace(root: folder, environment: environment) }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        throw SetupError("cannot find Summit's migrations/ and sql/ folders above \(FileManager.default.currentDirectoryPath)",
                       fix: "run summit from inside its checkout, or set SUMMIT_ROOT to the checkout")
    }

    /// A workspace for code that knows its own source path (tests): walks up from `file`.
    public static func containing(file: String) -> Workspace? {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if isRoot(folder) { return Workspace(root: folder) }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    private static func isRoot(_ folder: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("migrations").path, isDirectory: &isDirectory)
            && isDirectory.boolValue
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent("sql").path)
    }

    public var migrationsDirectory: URL { root.appendingPathComponent("migrations") }
    public var repeatablesDirectory: URL { root.appendingPathComponent("sql") }
    public var pgtapDirectory: URL { root.appendingPathComponent("pgtap") }
    public var testHelpersFile: URL { pgtapDirectory.appendingPathComponent("support/tests_schema.sql") }

    public func migrationSource() throws -> MigrationSource {
        try MigrationSource(migrationsDirectory: migrationsDirectory, repeatablesDirectory: repeatablesDirectory)
    }

    /// `DATABASE_URL`, when set: an external server replaces the embedded one.
    public var databaseURL: String? {
        environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `SUMMIT_HOME`, else `.summit/` in the checkout.
    ///
    /// As root the server runs as the `postgres` OS user; when it can't reach the
    /// checkout (a clone under a private home folder), the default moves to a
    /// folder under /var/tmp named after the checkout, so the commands still work.
    private static func home(root: URL, environment: [String: String]) -> URL {
        if let configured = environment["SUMMIT_HOME"], !configured.isEmpty {
            return URL(fileURLWithPath: configured, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .standardizedFileURL
        }
        let local = root.appendingPathComponent(".summit")
        if geteuid() == 0, !postgresUserCanReach(root) {
            return URL(fileURLWithPath: "/var/tmp/summit-" + String(SHA256.hex(root.path).prefix(12)))
        }
        return local
    }

    private static func postgresUserCanReach(_ folder: URL) -> Bool {
        guard getpwnam("postgres") != nil,
              let output = try? Subprocess(executable: "/usr/bin/test", arguments: ["-x", folder.path], user: "postgres").runBlocking()
        else { return true }
        return output.succeeded
    }
}
