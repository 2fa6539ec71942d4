import Foundation
import Postgres
import Summit
import SummitDatabase
import SummitTestSupport
import Testing

/// Runs the real `summit` executable against a fresh database cloned from the
/// migrated template, and reads that database directly to check what happened.
struct CLIHarness: Sendable {
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String

        var json: JSONValue { (try? JSONValue(parsing: stdout)) ?? .null }

        /// stdout without the line that says how long `meet plan`'s solve took
        /// (`"solve_ms" : …` or `solved in … ms`): what two runs on the same inputs print alike.
        var stdoutWithoutSolveTime: String {
            stdout.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("  \"solve_ms\" : ") && !($0.hasPrefix("solved in ") && $0.hasSuffix(" ms")) }
                .joined(separator: "\n")
        }
    }

    let workspace: Workspace
    let database: PostgresConfiguration
    let executable: URL
    /// SUMMIT_HOME for the child, when a test keeps state there (simulated phones).
    var home: URL?

    /// A scratch database (from `SummitTestSupport`) for `body`, dropped afterwards.
    static func withFreshDatabase(_ body: (CLIHarness) async throws -> Void) async throws {
        let executable = try summitExecutable()
        try await SummitTestSupport.withFreshDatabase { database in
            try await body(CLIHarness(workspace: TestServer.workspace, database: database, executable: executable))
        }
    }

    /// A recording in `../shared/data/activities` beside the checkout (absent on a newcomer's clone).
    static func sharedActivity(_ relative: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/data/activities").appendingPathComponent(relative)
    }

    /// `summit` is built into the same folder as the test bundle.
    static func summitExecutable() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("summit"),
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("summit"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CLIError("cannot find the summit executable next to the tests", fix: "run them with `swift test`")
        }
        return found
    }

    /// `summit WORDS…` with DATABASE_URL set to the scratch database.
    func run(_ words: [String]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            // The child is waited for on a thread of its own, never on the test's executor.
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(words) })
            }
        }
    }

    /// `summit WORDS…`, which must succeed.
    @discardableResult
    func ok(_ words: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        let outcome = try await run(words)
        #expect(outcome.status == 0, "summit \(words.joined(separator: " ")) failed: \(outcome.stderr)",
                sourceLocation: sourceLocation)
        return outcome
    }

    /// `summit WORDS…`, which must fail: a message on stderr, no data on stdout.
    @discardableResult
    func fails(_ words: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        try await fails(words, sourceLocation: sourceLocation)
    }

    /// `summit WORDS…`, which must fail: a message on stderr, no data on stdout.
    @discardableResult
    func fails(_ words: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        let outcome = try await run(words)
        #expect(outcome.status != 0, "summit \(words.joined(separator: " ")) should have failed", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("summit: error:"), "no error on stderr: \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stdout.isEmpty, "a failure printed data: \(outcome.stdout)", sourceLocation: sourceLocation)
        return outcome
    }

    private func runBlocking(_ words: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = words
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = database.conninfo
        environment["SUMMIT_ROOT"] = workspace.root.path
        if let home { environment["SUMMIT_HOME"] = home.path }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr beside stdout, so neither pipe can fill up and stall the child.
        let errors = Drained(err.fileHandleForReading)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                       stderr: String(decoding: errors.wait(), as: UTF8.self))
    }

    /// A pipe read to its end on a background queue.
    private final class Drained: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            DispatchQueue.global().async {
                self.data = handle.readDataToEndOfFile()
                self.done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }

    /// One value from the scratch database, read as its owner (no RLS).
    func scalar<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T {
        try await PostgresConnection.withConnection(database) { try await $0.query(query).scalar(T.self) }
    }

    /// A statement on the scratch database as its owner, for setting up what the CLI has no command for.
    func execute(_ query: PostgresQuery) async throws {
        try await PostgresConnection.withConnection(database) { _ = try await $0.query(query) }
    }
}
