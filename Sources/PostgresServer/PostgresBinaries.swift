import Foundation

/// Where the server programs are: `initdb`, `pg_ctl`, `postgres`, `psql`, `pg_dump`.
public struct PostgresBinaries: Sendable {
    public let directory: URL

    public func path(_ program: String) -> String { directory.appendingPathComponent(program).path }

    /// `SUMMIT_PG_BIN`, else Debian's `/usr/lib/postgresql/<newest>/bin`, else the first `PATH`
    /// entry holding `initdb`.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PostgresBinaries {
        let fileManager = FileManager.default
        if let configured = environment["SUMMIT_PG_BIN"], !configured.isEmpty {
            guard fileManager.isExecutableFile(atPath: configured + "/initdb") else {
                throw ClusterError("SUMMIT_PG_BIN=\(configured) holds no initdb",
                                   fix: "point SUMMIT_PG_BIN at PostgreSQL's bin folder (the one with initdb and pg_ctl)")
            }
            return PostgresBinaries(directory: URL(fileURLWithPath: configured))
        }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? fileManager.contentsOfDirectory(atPath: debian)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where fileManager.isExecutableFile(atPath: "\(debian)/\(version)/bin/initdb") {
            return PostgresBinaries(directory: URL(fileURLWithPath: "\(debian)/\(version)/bin"))
        }
        for entry in (environment["PATH"] ?? "").split(separator: ":") where fileManager.isExecutableFile(atPath: "\(entry)/initdb") {
            return PostgresBinaries(directory: URL(fileURLWithPath: String(entry)))
        }
        throw ClusterError("PostgreSQL's server programs (initdb, pg_ctl) are not installed",
                           fix: "apt-get install postgresql-15, or set SUMMIT_PG_BIN to their folder, "
                               + "or set DATABASE_URL to use a server you already run")
    }

    /// A client program (`psql`, `pg_dump`): beside the server programs when they are
    /// installed, else on `PATH`, so an external server needs only the client package.
    public static func client(_ program: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let binaries = try? locate(environment: environment),
           FileManager.default.isExecutableFile(atPath: binaries.path(program)) {
            return binaries.path(program)
        }
        for entry in (environment["PATH"] ?? "").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(entry)/\(program)") {
            return "\(entry)/\(program)"
        }
        throw ClusterError("\(program) is not installed", fix: "apt-get install postgresql-client-15, or set SUMMIT_PG_BIN to its folder")
    }
}
