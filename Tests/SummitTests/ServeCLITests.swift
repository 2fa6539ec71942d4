import Foundation
import Summit
import SummitTestSupport
import Testing

/// `summit serve` and `summit serve keys` on the command line (the running gateway
/// is exercised by GatewayTests, CompatibilitySuiteTests among them).
@Suite struct ServeCLITests {
    @Test func keysAreWrittenPrivatelyAndNeverOverwritten() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let file = folder.appendingPathComponent("gateway.env").path
                let made = try await cli.ok("serve", "keys", "--out", file)
                #expect(made.stdout.isEmpty, "the secret goes to the file only")
                let text = try String(contentsOfFile: file, encoding: .utf8)
                for key in ["SUMMIT_JWT_SECRET=", "SUMMIT_ANON_KEY=eyJ", "SUMMIT_SERVICE_ROLE_KEY=eyJ"] {
                    #expect(text.contains(key))
                }
                let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                let again = try await cli.fails("serve", "keys", "--out", file)
                #expect(again.stderr.contains("already exists"))
                #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
            }
        }
    }

    @Test func misconfigurationIsRefusedWithWhatToDo() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                let missing = try await cli.fails("serve", "--config", folder.appendingPathComponent("nope.env").path)
                #expect(missing.stderr.contains("summit serve keys"))
                let weak = folder.appendingPathComponent("weak.env").path
                try "SUMMIT_JWT_SECRET=short\nSUMMIT_ANON_KEY=x\nSUMMIT_SERVICE_ROLE_KEY=y\n".write(toFile: weak, atomically: true, encoding: .utf8)
                let short = try await cli.fails("serve", "--config", weak)
                #expect(short.stderr.contains("at least 32"))
                let good = folder.appendingPathComponent("good.env").path
                try await cli.ok("serve", "keys", "--out", good)
                // Keys signed with another secret are not usable with this one.
                let other = folder.appendingPathComponent("other.env").path
                try await cli.ok("serve", "keys", "--out", other)
                let mixed = folder.appendingPathComponent("mixed.env").path
                let goodLines = try String(contentsOfFile: good, encoding: .utf8).split(separator: "\n")
                let otherLines = try String(contentsOfFile: other, encoding: .utf8).split(separator: "\n")
                try (goodLines.filter { $0.hasPrefix("SUMMIT_JWT_SECRET") } + otherLines.filter { $0.hasPrefix("SUMMIT_") && !$0.hasPrefix("SUMMIT_JWT_SECRET") })
                    .joined(separator: "\n").write(toFile: mixed, atomically: true, encoding: .utf8)
                let wrongKeys = try await cli.fails("serve", "--config", mixed)
                #expect(wrongKeys.stderr.contains("not usable with this secret"))
                let port = try await cli.fails("serve", "--config", good, "--port", "seventy")
                #expect(port.stderr.contains("--port takes a number"))
                #expect(port.status == 2)
            }
        }
    }

    @Test func helpListsWhatItTakes() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            let help = try await cli.ok("serve", "--help")
            for word in ["--config", "--host", "--port", "--connections", "keys", "SUMMIT_JWT_SECRET"] {
                #expect(help.stdout.contains(word), "\(word) missing from --help")
            }
            let bench = try await cli.ok("bench", "gateway", "--help")
            #expect(bench.stdout.contains("--clients"))
        }
    }
}
