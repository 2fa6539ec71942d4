import Digest
import Foundation

/// One versioned schema change: `migrations/NNNN_name.sql`, applied once.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let fileName: String
    public let sql: String
    public let sha256: String
}

/// One repeatable definition file under `sql/`, re-applied whenever the set changes.
public struct RepeatableScript: Sendable, Equatable {
    /// Its path under `sql/`, as `sql/order.txt` lists it: `grids/policies.sql`.
    public let fileName: String
    public let sql: String
    public let sha256: String
}

/// The migration files of a project, read and checked before anything touches a database.
public struct MigrationSource: Sendable {
    public let migrations: [Migration]
    public let repeatables: [RepeatableScript]

    public init(migrations: [Migration], repeatables: [RepeatableScript]) {
        self.migrations = migrations
        self.repeatables = repeatables
    }

    /// Reads `migrations/` and `sql/`; throws on a misnamed file, a duplicate version,
    /// or a file that manages its own transaction.
    public init(migrationsDirectory: URL, repeatablesDirectory: URL) throws {
        var migrations: [Migration] = []
        for fileName in try Self.sqlFiles(in: migrationsDirectory) {
            guard let (version, name) = Self.parseName(fileName) else {
                throw MigrationError.badFileName(fileName)
            }
            if let clash = migrations.first(where: { $0.version == version }) {
                throw MigrationError.duplicateVersion(version, clash.fileName, fileName)
            }
            let sql = try Self.read(migrationsDirectory.appendingPathComponent(fileName))
            try Self.rejectTransactionControl(sql, fileName: "migrations/\(fileName)")
            migrations.append(Migration(version: version, name: name, fileName: fileName, sql: sql,
                                        sha256: SHA256.hex(sql)))
        }
        var repeatables: [RepeatableScript] = []
        var definedAt: [SQLDefinitions.Definition: (file: String, line: Int)] = [:]
        for fileName in try Self.repeatableOrder(in: repeatablesDirectory) {
            let sql = try Self.read(repeatablesDirectory.appendingPathComponent(fileName))
            try Self.rejectTransactionControl(sql, fileName: "sql/\(fileName)")
            for (definition, line) in SQLDefinitions.definitions(in: sql) {
                if let first = definedAt[definition], first.file != fileName {
                    throw MigrationError.definedTwice(definition.description, first: "sql/\(first.file)", firstLine: first.line,
                                                      second: "sql/\(fileName)", secondLine: line)
                }
                definedAt[definition] = definedAt[definition] ?? (fileName, line)
            }
            repeatables.append(RepeatableScript(fileName: fileName, sql: sql, sha256: SHA256.hex(sql)))
        }
        self.init(migrations: migrations.sorted { $0.version < $1.version }, repeatables: repeatables)
    }

    /// The file that gives the order `sql/` is applied in: one path per line, `#` comments.
    public static let orderFileName = "order.txt"

    /// The paths `sql/order.txt` lists, checked against the folder: every `.sql`
    /// file under `sql/` is listed exactly once, and every listed file exists.
    static func repeatableOrder(in directory: URL) throws -> [String] {
        let orderFile = directory.appendingPathComponent(orderFileName)
        guard FileManager.default.fileExists(atPath: orderFile.path) else {
            guard FileManager.default.fileExists(atPath: directory.path) else {
                throw MigrationError.missingDirectory(directory.path)
            }
            throw MigrationError.missingOrder
        }
        let onDisk = Set(try sqlFiles(under: directory))
        var listed: [String: Int] = [:]
        var order: [String] = []
        for (index, raw) in try read(orderFile).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let path = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else { continue }
            if let first = listed[path] { throw MigrationError.listedTwice(path, first: first, second: index + 1) }
            guard onDisk.contains(path) else { throw MigrationError.listedButMissing(path, line: index + 1) }
            listed[path] = index + 1
            order.append(path)
        }
        if let unlisted = onDisk.subtracting(listed.keys).sorted().first {
            throw MigrationError.unlisted(unlisted)
        }
        return order
    }

    /// Every `.sql` file below `directory`, as paths relative to it.
    private static func sqlFiles(under directory: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else {
            throw MigrationError.missingDirectory(directory.path)
        }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".sql") }
    }

    /// `0007_add_shelves.sql` → (7, "add_shelves").
    static func parseName(_ fileName: String) -> (Int, String)? {
        let stem = fileName.dropLast(4)
        guard fileName.hasSuffix(".sql"), stem.count > 5 else { return nil }
        let digits = stem.prefix(4)
        let rest = stem.dropFirst(4)
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), rest.first == "_",
              let version = Int(digits)
        else { return nil }
        let name = rest.dropFirst()
        guard !name.isEmpty,
              name.allSatisfy({ ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "_" })
        else { return nil }
        return (version, String(name))
    }

    private static func sqlFiles(in directory: URL) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw MigrationError.missingDirectory(directory.path)
        }
        // Byte order, not locale order: the same on every machine.
        return names.filter { $0.hasSuffix(".sql") }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func read(_ url: URL) throws -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw MigrationError.unreadable(url.path)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw MigrationError.notUTF8(url.path) }
        return text
    }

    /// The migrator wraps each file in a transaction; a file's own COMMIT would
    /// end it early and break the all-or-nothing promise.
    private static func rejectTransactionControl(_ sql: String, fileName: String) throws {
        let controls: Set<String> = ["begin", "commit", "rollback", "end", "start", "abort"]
        for statement in SQLStatements.split(sql) {
            let firstWord = statement.text.prefix { $0.isLetter }.lowercased()
            if controls.contains(firstWord) {
                throw MigrationError.transactionControl(fileName, line: statement.line)
            }
        }
    }
}
