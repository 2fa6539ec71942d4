import Foundation
import GridSync

/// What `summit phone` prints: text for people, and the same as JSON.
enum PhoneOutput {
    struct BoardSummary: Encodable {
        var id: String
        var title: String
        var size: Int
        var audience: String
        var group: Bool
        var done: Int

        init(_ board: Board) {
            id = board.id.lowercased
            title = board.title
            size = board.size
            audience = board.audience.rawValue
            group = board.groupID != nil
            done = board.doneCount
        }
    }

    static func line(_ board: Board) -> String {
        "\(board.id.lowercased)  \(board.title) (\(board.size) x \(board.size), "
            + (board.groupID != nil ? "group" : board.audience.rawValue) + ")  \(board.doneCount) of \(board.size * board.size) done"
    }

    struct BoardView: Encodable {
        struct SquareView: Encodable {
            var position: Int
            var state: String
            var freebie: Bool
            var prompt: String?
            var moment: String?
            var title: String?
        }

        var board: BoardSummary
        var complete: Bool
        var squares: [SquareView]

        init(_ board: Board) {
            self.board = BoardSummary(board)
            complete = board.isComplete
            squares = board.squares.map {
                SquareView(position: $0.position, state: $0.state.rawValue, freebie: $0.freebie, prompt: $0.prompt,
                           moment: $0.momentID?.lowercased, title: $0.momentTitle)
            }
        }
    }

    /// The board as marks (# done, o revealed, . hidden), then what can be seen of each square.
    static func render(_ board: Board) -> String {
        let mark = { (square: Square) in square.state == .done ? "#" : square.state == .revealed ? "o" : "." }
        var lines = [line(board), ""]
        for row in 0..<board.size {
            lines.append("  " + (0..<board.size).map { column in
                board.squares.indices.contains(row * board.size + column) ? mark(board.squares[row * board.size + column]) : "?"
            }.joined(separator: " "))
        }
        lines += ["", "# done   o revealed   . hidden" + (board.isComplete ? "      complete: the chapter cover is in Memory Lane" : "")]
        let visible = board.squares.filter { $0.state != .hidden }
        if !visible.isEmpty { lines.append("") }
        for square in visible {
            var text = String(format: "%4d %@  %@", square.position, mark(square), square.prompt ?? "(prompt not on this phone)")
            if let title = square.momentTitle, let id = square.momentID { text += " — \"\(title)\" [\(id.lowercased.prefix(8))]" }
            if square.freebie { text += " (freebie)" }
            lines.append(text)
        }
        return lines.joined(separator: "\n")
    }

    struct SyncSummary: Encodable {
        var pushed: [String: Int]
        var failures: [String]
        var pulled: Int
        var groupsJoined: [String]
        var groupsLeft: [String]
        var unshared: Int
        var photosUploaded: Int
        var photosDownloaded: Int

        init(_ report: SyncReport) {
            pushed = Dictionary(uniqueKeysWithValues: report.pushed.map { ($0.key.rawValue, $0.value) })
            failures = report.failures
            pulled = report.pulled
            groupsJoined = report.groupsJoined.map(\.lowercased)
            groupsLeft = report.groupsLeft.map(\.lowercased)
            unshared = report.unshared
            photosUploaded = report.photosUploaded
            photosDownloaded = report.photosDownloaded
        }
    }

    static func render(_ report: SyncReport) -> String {
        let kinds: [PushOutcome.Kind] = [.applied, .corrected, .ignored, .error]
        var lines = ["pushed \(report.pushedCount) rows ("
                     + kinds.map { "\(report.pushed[$0, default: 0]) \($0.rawValue)" }.joined(separator: ", ") + "), pulled \(report.pulled)"]
        if !report.groupsJoined.isEmpty { lines.append("joined \(report.groupsJoined.count) group(s), fetched whole") }
        if !report.groupsLeft.isEmpty { lines.append("left \(report.groupsLeft.count) group(s), removed from the phone") }
        if report.unshared > 0 { lines.append("\(report.unshared) entries or photos made private by others removed") }
        if report.photosUploaded + report.photosDownloaded > 0 {
            lines.append("photos: \(report.photosUploaded) uploaded, \(report.photosDownloaded) downloaded")
        }
        if !report.failures.isEmpty {
            lines.append("\(report.failures.count) change(s) failed (\(Set(report.failures).sorted().joined(separator: ", "))): "
                         + "they are retried on their schedule; see `summit phone status`")
        }
        return lines.joined(separator: "\n")
    }

    struct Status: Encodable {
        struct Waiting: Encodable {
            var table: String
            var row: String
            var state: String
            var attempts: Int
            var nextAttempt: String?
            var lastError: String?
        }

        var device: String
        var deviceID: String
        var account: String
        var online: Bool
        var clockSkewSeconds: Double
        var queue: [Waiting]

        init(_ phone: SimulatedPhone, device: String) throws {
            self.device = device
            deviceID = phone.store.deviceID.lowercased
            account = phone.store.account.description
            online = phone.isOnline
            clockSkewSeconds = phone.clockSkew
            queue = try phone.store.queue().map { entry in
                let (state, next): (String, Timestamp?) = switch entry.state {
                case .waiting: ("waiting", nil)
                case .retrying(_, let next): ("retrying", next)
                case .couldntSync: ("couldn't sync", nil)
                }
                return Waiting(table: entry.table.rawValue, row: entry.rowID.lowercased, state: state, attempts: entry.attempts,
                               nextAttempt: next?.iso, lastError: entry.lastError)
            }
        }

        var text: String {
            var lines = ["phone:    \(device) (device \(deviceID))", "account:  \(account)",
                         "network:  \(online ? "online" : "offline")"]
            if clockSkewSeconds != 0 { lines.append("clock:    \(clockSkewSeconds) s off") }
            lines.append("queue:    \(queue.isEmpty ? "empty: everything is synced" : "\(queue.count) change(s) waiting")")
            for entry in queue {
                var line = "  \(entry.table) \(entry.row.prefix(8))  \(entry.state)"
                if entry.attempts > 0 { line += ", \(entry.attempts) failed attempt(s)" }
                if let error = entry.lastError { line += ", last error \(error)" }
                if let next = entry.nextAttempt { line += ", next try \(next)" }
                lines.append(line)
            }
            if queue.contains(where: { $0.state == "couldn't sync" }) {
                lines.append("changes that couldn't sync are tried again after `summit phone retry`")
            }
            return lines.joined(separator: "\n")
        }
    }
}
