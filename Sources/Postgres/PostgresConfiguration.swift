import CLibPQ
import Foundation

/// Where and how to connect: a `postgresql://` URL or a libpq conninfo string,
/// parsed once so errors show up before any connection attempt.
public struct PostgresConfiguration: Sendable, CustomStringConvertible {
    /// libpq connection keywords (host, port, dbname, user, password, sslmode, …).
    public private(set) var parameters: [String: String]

    /// Parses `postgresql://user:pass@host:5432/db?sslmode=require` or `host=/tmp dbname=x`.
    public init(_ urlOrConninfo: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(urlOrConninfo, &message) else {
            let reason = message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
                ?? "out of memory"
            if let message { PQfreemem(message) }
            throw PostgresError.client(
                "not a PostgreSQL URL or connection string: \(reason). "
                    + "Expected postgresql://user:password@host:5432/database or \"host=… dbname=…\"",
                code: .unableToConnect)
        }
        defer { PQconninfoFree(options) }
        var parameters: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { parameters[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        if let port = parameters["port"], !port.isEmpty,
           !port.split(separator: ",").allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            throw PostgresError.client("the port \"\(port)\" is not a number: give one such as 5432", code: .unableToConnect)
        }
        self.parameters = parameters
    }

    /// A cluster reached through a unix socket in `socketDirectory`.
    public init(socketDirectory: String, port: Int, database: String, user: String) {
        parameters = ["host": socketDirectory, "port": String(port), "dbname": database, "user": user]
    }

    public var database: String? { parameters["dbname"] }
    public var user: String? { parameters["user"] }

    /// The same server and credentials, another database.
    public func with(database: String) -> PostgresConfiguration {
        var copy = self
        copy.parameters["dbname"] = database
        return copy
    }

    public func with(_ keyword: String, _ value: String?) -> PostgresConfiguration {
        var copy = self
        copy.parameters[keyword] = value
        return copy
    }

    /// Where the server is, for people: `socket /x/.s.PGSQL.5432` or `host db:5432`.
    public var target: String {
        let port = parameters["port"].flatMap { $0.isEmpty ? nil : $0 } ?? "5432"
        let host = parameters["host"].flatMap { $0.isEmpty ? nil : $0 }
            ?? parameters["hostaddr"].flatMap { $0.isEmpty ? nil : $0 }
        var text: String
        if let host, !host.hasPrefix("/") {
            text = "host \(host):\(port)"
        } else {
            text = "socket \(host ?? "/var/run/postgresql")/.s.PGSQL.\(port)"
        }
        if let database = parameters["dbname"], !database.isEmpty { text += ", database \(database)" }
        if let user = parameters["user"], !user.isEmpty { text += ", user \(user)" }
        return text
    }

    /// The parameters as a libpq conninfo string (`host='…' dbname='…'`), for programs such as psql.
    public var conninfo: String {
        parameters.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { key, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            return "\(key)='\(escaped)'"
        }.joined(separator: " ")
    }

    /// A URL-free rendering without the password, for logs and status output.
    public var description: String { target }

    /// Session settings every connection starts with, so text results have one
    /// known shape (UTC, ISO dates, hex bytea) whatever the server's defaults, and
    /// survive `RESET ALL`.
    static let sessionOptions = [
        "-c TimeZone=UTC", "-c DateStyle=ISO,MDY", "-c IntervalStyle=postgres",
        "-c extra_float_digits=3", "-c bytea_output=hex", "-c client_min_messages=warning",
    ].joined(separator: " ")

    /// Keywords for `PQconnectdbParams`, with Summit's session settings merged into `options`.
    func connectionKeywords(applicationName: String) -> [(String, String)] {
        var keywords = parameters
        keywords["options"] = [keywords["options"], Self.sessionOptions].compactMap { $0 }.joined(separator: " ")
        keywords["client_encoding"] = "UTF8"
        keywords["fallback_application_name"] = applicationName
        keywords["connect_timeout"] = keywords["connect_timeout"] ?? "10"
        return keywords.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
    }
}
