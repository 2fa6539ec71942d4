/// Why migrating stopped. Each message names the file and says what to do.
public enum MigrationError: Error, Sendable, CustomStringConvertible, Equatable {
    case missingDirectory(String)
    case unreadable(String)
    case notUTF8(String)
    case badFileName(String)
    case duplicateVersion(Int, String, String)
    case transactionControl(String, line: Int)
    case changedAfterApply(fileName: String, appliedAt: String, recorded: String, current: String)
    case missingApplied(fileName: String, appliedAt: String)
    case renamedAfterApply(version: Int, applied: String, current: String)
    case outOfOrder(fileName: String, newestApplied: String)
    case failed(fileName: String, line: Int?, message: String)
    case missingOrder
    case listedTwice(String, first: Int, second: Int)
    case listedButMissing(String, line: Int)
    case unlisted(String)
    case definedTwice(String, first: String, firstLine: Int, second: String, secondLine: Int)

    public var description: String {
        switch self {
        case .missingDirectory(let path):
            "the folder \(path) does not exist: run Summit from its checkout, or set SUMMIT_ROOT to it"
        case .unreadable(let path):
            "cannot read \(path): check its permissions"
        case .notUTF8(let path):
            "\(path) is not UTF-8 text: save it as UTF-8"
        case .badFileName(let name):
            "migrations/\(name) is not named NNNN_name.sql (four digits, underscore, lowercase letters, digits and underscores): rename it"
        case .duplicateVersion(let version, let first, let second):
            "migrations/\(first) and migrations/\(second) share version \(version): give the newer one the next free number"
        case .transactionControl(let file, let line):
            "\(file) line \(line) controls the transaction itself (BEGIN/COMMIT/ROLLBACK/END): remove it; the migrator runs each file in a transaction of its own"
        case .changedAfterApply(let file, let appliedAt, let recorded, let current):
            "migrations/\(file) changed after it was applied on \(appliedAt) (recorded sha256 \(recorded.prefix(12))…, file now \(current.prefix(12))…): applied migrations are permanent — revert the edit and put the change in a new migration"
        case .missingApplied(let file, let appliedAt):
            "migrations/\(file) was applied on \(appliedAt) but the file is gone: restore it; to undo its change, write a new migration"
        case .renamedAfterApply(let version, let applied, let current):
            "migration \(version) was applied as \(applied) but the file is now \(current): restore the original name"
        case .outOfOrder(let file, let newest):
            "migrations/\(file) is older than \(newest), which is already applied: renumber it after \(newest)"
        case .missingOrder:
            "sql/order.txt is missing: list every file under sql/ in it, one path per line, in the order they apply"
        case .listedTwice(let path, let first, let second):
            "sql/order.txt lists \(path) twice (lines \(first) and \(second)): keep the one where it belongs in the order"
        case .listedButMissing(let path, let line):
            "sql/order.txt line \(line) lists \(path), which is not in sql/: restore the file or remove the line"
        case .unlisted(let path):
            "sql/\(path) is not in sql/order.txt: add it where it belongs in the order"
        case .definedTwice(let object, let first, let firstLine, let second, let secondLine):
            "\(object) is defined in \(first) line \(firstLine) and again in \(second) line \(secondLine), which silently replaces it: keep one definition"
        case .failed(let file, let line, let message):
            "\(file)\(line.map { " line \($0)" } ?? ""): \(message) — nothing from this file was kept"
        }
    }
}
