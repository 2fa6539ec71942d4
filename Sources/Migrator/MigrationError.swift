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
        case .failed(let file, let line, let message):
            "\(file)\(line.map { " line \($0)" } ?? ""): \(message) — nothing from this file was kept"
        }
    }
}
