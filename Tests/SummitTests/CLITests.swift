import Foundation
import PostgresServer
import Summit
import SummitTestSupport
import Testing

/// Runs the built `summit` program with extra environment, as a person would.
func summit(_ arguments: [String], environment: [String: String] = [:]) async throws -> Subprocess.Output {
    let binary = productsDirectory.appendingPathComponent("summit").path
    let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        .map { "\($0.key)=\($0.value)" }
    return try await Subprocess(executable: "/usr/bin/env", arguments: ["-i"] + variables + [binary] + arguments).run()
}

@Suite struct CLITests {
    @Test func everyCommandHasHelp() async throws {
        let root = try await summit(["--help"])
        #expect(root.succeeded)
        for command in SummitCLI.root.subcommands {
            #expect(root.stdout.contains(command.name))
            let help = try await summit([command.name, "--help"])
            #expect(help.succeeded, "\(command.name) --help")
            #expect(help.stdout.hasPrefix("usage: summit \(command.name)"))
        }
    }

    @Test func misuseExitsWithTwoAndSaysWhatToDo() async throws {
        let unknown = try await summit(["migrate", "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option --frobnicate"))
        #expect(unknown.stderr.contains("summit migrate --help"))
        let missing = try await summit(["rpc", "auth.uid"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--as"))
        let command = try await summit(["frobnicate"])
        #expect(command.status == 2)
    }

    @Test func aBadDatabaseURLIsOneLineWithAFix() async throws {
        let output = try await summit(["status"], environment: ["DATABASE_URL": "postgresql://localhost/db?nosuchoption=1"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("DATABASE_URL is not usable"))
        #expect(output.stderr.contains("unset DATABASE_URL"))
        #expect(output.stderr.split(separator: "\n").count == 1)

        let unreachable = try await summit(["migrate"], environment: ["DATABASE_URL": "postgresql://postgres@/summit?host=/nonexistent&port=5999"])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("/nonexistent/.s.PGSQL.5999"))
        #expect(unreachable.stderr.contains("check DATABASE_URL"))
    }

    /// `up` in one process, `status` in another: the second finds and uses the first one's cluster.
    @Test func aSecondProcessReusesTheEmbeddedCluster() async throws {
        try await withTemporaryFolder { folder in
            let environment = ["SUMMIT_HOME": folder.appendingPathComponent("home").path, "DATABASE_URL": ""]
            let up = try await summit(["up", "--json"], environment: environment)
            #expect(up.succeeded, "summit up: \(up.stderr)")
            let first = try JSONSerialization.jsonObject(with: Data(up.stdout.utf8)) as? [String: Any]
            let server = first?["server"] as? [String: Any]
            #expect(server?["state"] as? String == "running")
            let migrations = first?["migrations"] as? [String: Any]
            #expect((migrations?["pending"] as? [Any])?.isEmpty == true)

            let status = try await summit(["status", "--json"], environment: environment)
            let second = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            #expect((second?["server"] as? [String: Any])?["pid"] as? Int == server?["pid"] as? Int)

            let again = try await summit(["migrate"], environment: environment)
            #expect(again.stdout.hasPrefix("up to date"))

            let uid = UUID().uuidString.lowercased()
            let rpc = try await summit(["rpc", "auth.uid", "--as", uid, "--json"], environment: environment)
            #expect(rpc.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\"\(uid)\"")
            let anon = try await summit(["rpc", "auth.uid", "--as", "anon", "--json"], environment: environment)
            #expect(anon.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "null")

            let down = try await summit(["down"], environment: environment)
            #expect(down.succeeded)
            #expect(down.stdout.contains("stopped"))
            let after = try await summit(["status", "--json"], environment: environment)
            #expect(after.stdout.contains("\"stopped\""))
        }
    }
}
