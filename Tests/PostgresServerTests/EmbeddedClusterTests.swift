import Foundation
import Postgres
import PostgresServer
import SummitTestSupport
import Testing

@Suite struct EmbeddedClusterTests {
    @Test func startsReusesAndStops() async throws {
        try await withTemporaryFolder { folder in
            let cluster = EmbeddedCluster(home: folder.appendingPathComponent("home"))
            #expect(try await cluster.state() == .uninitialized)
            let running = try await cluster.start()
            #expect(try await cluster.state() == .running(running))
            // A second start (another process would do the same) finds the running server.
            let again = try await cluster.start()
            #expect(again == running)
            let answer = try await PostgresConnection.withConnection(running.configuration(database: "postgres")) {
                try await $0.query("select current_setting('listen_addresses')").scalar(String.self)
            }
            #expect(answer == "", "the embedded server opens no TCP listener")
            #expect(FileManager.default.fileExists(atPath: "\(running.socketDirectory)/.s.PGSQL.\(running.port)"))
            #expect(try await cluster.stop())
            #expect(try await cluster.state() == .stopped)
            #expect(try await cluster.stop() == false)
            // And it starts again on the same data.
            let restarted = try await cluster.start()
            #expect(restarted.port == running.port)
            _ = try await cluster.stop()
        }
    }

    @Test func aDataFolderOwnedBySomeoneElseIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let home = folder.appendingPathComponent("home")
            let data = home.appendingPathComponent("data")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            try "15\n".write(to: data.appendingPathComponent("PG_VERSION"), atomically: true, encoding: .utf8)
            // "nobody" owns it: neither the current user nor the postgres OS user.
            let nobody = getpwnam("nobody")!.pointee
            chown(data.path, nobody.pw_uid, nobody.pw_gid)
            let error = await #expect(throws: ClusterError.self) { _ = try await EmbeddedCluster(home: home).start() }
            #expect(error?.problem.contains("belongs to nobody") == true)
            #expect(error?.fix.contains("SUMMIT_HOME") == true)
        }
    }

    @Test func aBusyConfiguredPortIsRefused() async throws {
        try await withTemporaryFolder { folder in
            // Hold a TCP port open, then ask for it.
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            listen(fd, 1)
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            let port = Int(UInt16(bigEndian: bound.sin_port))

            var environment = ProcessInfo.processInfo.environment
            environment["SUMMIT_PORT"] = String(port)
            let cluster = EmbeddedCluster(home: folder.appendingPathComponent("home"), environment: environment)
            let error = await #expect(throws: ClusterError.self) { _ = try await cluster.start() }
            #expect(error?.problem.contains("port \(port)") == true)
            #expect(error?.fix.contains("unset SUMMIT_PORT") == true)
        }
    }

    @Test func missingServerProgramsAreNamed() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SUMMIT_PG_BIN"] = "/nonexistent/bin"
        let error = #expect(throws: ClusterError.self) { _ = try PostgresBinaries.locate(environment: environment) }
        #expect(error?.problem.contains("/nonexistent/bin") == true)
    }
}
