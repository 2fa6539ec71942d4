import Foundation
import Postgres
import PostgresServer

/// Runs `pgtap/*.sql`, each file in a fresh database cloned from the migrated
/// test template, through `psql` — the same way `pg_prove` runs them.
public struct PgTapRunner: Sendable {
    public struct FileResult: Sendable, Codable {
        public var file: String
        public var tap: TAPResult
        /// psql's exit status: non-zero when the SQL itself failed.
        public var exitStatus: Int32
        public var output: String
        public var errors: String
        public var seconds: Double

        public var ok: Bool { exitStatus == 0 && tap.ok }
    }

    public let databases: TestDatabases
    public let psql: String
    public let jobs: Int

    public init(databases: TestDatabases, psql: String, jobs: Int = 2) {
        self.databases = databases
        self.psql = psql
        self.jobs = max(1, jobs)
    }

    /// The test files: every `*.sql` directly in `pgtap/`, in name order.
    public static func testFiles(in workspace: Workspace) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: workspace.pgtapDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.sorted().map { "pgtap/\($0)" }
    }

    /// Runs `files` (paths relative to the workspace), `jobs` at a time; `report` sees each
    /// file as it finishes, in completion order.
    public func run(files: [String], report: @Sendable (FileResult) -> Void) async throws -> [FileResult] {
        let template = try await databases.template(requirePgTap: true)
        try await databases.dropAbandoned()
        return try await withThrowingTaskGroup(of: (Int, FileResult).self) { group in
            var results = [FileResult?](repeating: nil, count: files.count)
            var next = 0
            func startNext() {
                guard next < files.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await runFile(files[index], template: template)) }
            }
            for _ in 0..<min(jobs, files.count) { startNext() }
            while let (index, result) = try await group.next() {
                results[index] = result
                report(result)
                startNext()
            }
            return results.compactMap { $0 }
        }
    }

    private func runFile(_ file: String, template: String) async throws -> FileResult {
        let started = ContinuousClock.now
        let database = try await databases.create(from: template)
        let path = databases.workspace.root.appendingPathComponent(file).path
        let output: Subprocess.Output
        do {
            output = try await Subprocess(
                executable: psql,
                arguments: ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", path, "-d", database.conninfo]
            ).run()
        } catch {
            try? await databases.drop(database)
            throw error
        }
        try await databases.drop(database)
        let elapsed = ContinuousClock.now - started
        return FileResult(file: file, tap: TAPResult.parse(output.stdout), exitStatus: output.status,
                          output: output.stdout, errors: output.stderr,
                          seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
