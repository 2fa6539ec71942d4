import Foundation
import GridSync

/// `summit phone --as USER --device NAME <command>`: a phone simulated on this
/// machine — its own SQLite database and photo folder, kept between commands —
/// that works offline and syncs with Summit through the AirStrive protocol.
enum PhoneCommand {
    static let asOption = Command.Option.value("--as", "USER", "who uses the phone: a username, email or user id")
    static let deviceOption = Command.Option.value("--device", "NAME", "which phone: any name; its data lives in SUMMIT_HOME/phones/NAME (required)")
    static let jsonOption = Command.Option.flag("--json", "print the result as JSON")

    static let command = Command(
        name: "phone",
        summary: "Simulate an AirStrive phone: a local SQLite store that works offline and syncs.",
        discussion: """
            Every command takes --device NAME (the phone) and --as USER (who uses it); they may come before \
            the command or after it. A phone signs in on first use and keeps its data between commands; a \
            phone signed in as one person must sign out (which empties it) before another signs in. Offline, \
            a phone still logs, edits and deletes; its changes wait in the sync queue. Example:
              summit phone --as ann --device ann-1 start-shelf
              summit phone --as ann --device ann-1 log small-joys 24 --title "Tea on the step"
              summit phone --as ann --device ann-1 sync
            """,
        arguments: [.init(name: "COMMAND", help: "what to do (see the commands below)", optional: true)],
        options: [asOption, deviceOption],
        subcommands: [shelf, startShelf, addGrid, board, log, edit, delete, freebie, photo, offline, online, sync, status,
                      retry, signOut],
        passesThrough: true,
        run: { try await dispatch($0) })

    /// `summit phone --as A --device D log …`: the options came first; the rest is parsed as `phone log …`.
    static func dispatch(_ invocation: Invocation) async throws -> Int32 {
        guard let name = invocation.arguments.first else {
            invocation.console.out(ArgumentParser.help(for: command, path: invocation.commandPath))
            return 0
        }
        var words = ["phone", name] + invocation.passthrough
        for option in ["--as", "--device"] { if let value = invocation.value(option) { words += [option, value] } }
        let root = Command(name: "summit", summary: "", subcommands: [command])
        switch try ArgumentParser.parse(words, root: root, workspace: invocation.workspace, console: invocation.console) {
        case .help(let text):
            invocation.console.out(text)
            return 0
        case .run(let sub, let inner):
            guard sub.name != command.name else {
                throw CLIError.usage("unknown phone command \"\(name)\"", command: invocation.commandPath)
            }
            return try await sub.run!(inner)
        }
    }

    static let shelf = Command(
        name: "shelf", summary: "The boards on the phone's shelf.",
        options: [asOption, deviceOption, jsonOption],
        run: { invocation in
            try await PhoneSession.with(invocation) { phone, _ in
                let boards = try phone.store.boards()
                if invocation.json {
                    try invocation.console.json(boards.map(PhoneOutput.BoardSummary.init))
                } else if boards.isEmpty {
                    invocation.console.note("the shelf is empty: add a grid with `summit phone add-grid` or `start-shelf`")
                } else {
                    for board in boards { invocation.console.out(PhoneOutput.line(board)) }
                }
                return 0
            }
        })

    static let startShelf = Command(
        name: "start-shelf", summary: "Put the six starter grids on the shelf (ids derived from the person: every phone makes the same rows).",
        options: [asOption, deviceOption],
        run: { invocation in
            try await PhoneSession.with(invocation) { phone, _ in
                let boards = try phone.store.startShelf()
                invocation.console.out(boards.isEmpty ? "the starter shelf was started on this phone before" : "started \(boards.count) boards")
                return 0
            }
        })

    static let addGrid = Command(
        name: "add-grid", summary: "Add a grid to the shelf as a new board: a starter grid's key, or the id of a grid on the phone.",
        arguments: [.init(name: "GRID", help: "small-joys, close-to-home, out-the-door, kitchen-table, through-the-year, hundred-firsts, or a grid id")],
        options: [asOption, deviceOption, .value("--audience", "WHO", "private (default), friends or public"), jsonOption],
        run: { invocation in
            let audience = try audienceOption(invocation) ?? .private
            return try await PhoneSession.with(invocation) { phone, _ in
                let text = invocation.arguments[0]
                let grid = UUID(uuidString: text) ?? DeterministicID.starterGrid(text.lowercased())
                let board = try phone.store.addBoard(grid: grid, audience: audience)
                if invocation.json { try invocation.console.json(["board": board.lowercased]) } else { invocation.console.out(board.lowercased) }
                return 0
            }
        })

    static let board = Command(
        name: "board", summary: "Draw a board: done, revealed and hidden squares, prompts and moments.",
        arguments: [.init(name: "BOARD", help: "a board's id, the start of it, its title, or its starter grid's key")],
        options: [asOption, deviceOption, jsonOption],
        run: { invocation in
            try await PhoneSession.with(invocation) { phone, _ in
                let board = try PhoneSession.board(invocation.arguments[0], on: phone)
                if invocation.json { try invocation.console.json(PhoneOutput.BoardView(board)) } else { invocation.console.out(PhoneOutput.render(board)) }
                return 0
            }
        })

    static let momentOptions: [Command.Option] = [
        .value("--title", "TEXT", "what happened, up to 80 characters"),
        .value("--body", "TEXT", "your words (in a group grid: your own entry)"),
        .value("--place", "TEXT", "where"), .value("--weather", "TEXT", "the weather"), .value("--with", "TEXT", "who with"),
        .value("--date", "YYYY-MM-DD", "when (default: today on the phone's clock)"),
        .value("--audience", "WHO", "private, friends or public (never wider than the board's)"),
    ]

    static let log = Command(
        name: "log", summary: "Log a moment on a revealed square: the square becomes done and reveals its neighbours.",
        arguments: [.init(name: "BOARD", help: "a board's id, the start of it, its title, or its starter grid's key"),
                    .init(name: "POSITION", help: "the square: row × size + column, from 0")],
        options: [asOption, deviceOption] + momentOptions + [jsonOption],
        run: { invocation in
            guard let position = Int(invocation.arguments[1]) else {
                throw CLIError.usage("POSITION is a square's number, like 24", command: invocation.commandPath)
            }
            let audience = try audienceOption(invocation) ?? .private
            return try await PhoneSession.with(invocation) { phone, _ in
                let board = try PhoneSession.board(invocation.arguments[0], on: phone)
                let moment = try phone.store.logMoment(board: board.id, position: position, MomentDraft(
                    title: try invocation.required("--title"), body: invocation.value("--body") ?? "",
                    happenedOn: invocation.value("--date"), place: invocation.value("--place") ?? "",
                    weather: invocation.value("--weather") ?? "", withWhom: invocation.value("--with") ?? "", audience: audience))
                if invocation.json { try invocation.console.json(["moment": moment.lowercased]) } else { invocation.console.out(moment.lowercased) }
                return 0
            }
        })

    static let edit = Command(
        name: "edit", summary: "Change a moment: only the fields given change.",
        arguments: [.init(name: "MOMENT", help: "a moment's id or the start of it (see `board`)")],
        options: [asOption, deviceOption] + momentOptions,
        run: { invocation in
            let audience = try audienceOption(invocation)
            return try await PhoneSession.with(invocation) { phone, _ in
                let moment = try PhoneSession.moment(invocation.arguments[0], on: phone)
                try phone.store.editMoment(moment, MomentChange(
                    title: invocation.value("--title"), body: invocation.value("--body"), happenedOn: invocation.value("--date"),
                    place: invocation.value("--place"), weather: invocation.value("--weather"),
                    withWhom: invocation.value("--with"), audience: audience))
                invocation.console.out("edited \(moment.lowercased)")
                return 0
            }
        })

    static let delete = Command(
        name: "delete", summary: "Delete a moment for good: its square goes back to revealed.",
        arguments: [.init(name: "MOMENT", help: "a moment's id or the start of it")],
        options: [asOption, deviceOption],
        run: { invocation in
            try await PhoneSession.with(invocation) { phone, _ in
                let moment = try PhoneSession.moment(invocation.arguments[0], on: phone)
                try phone.store.deleteMoment(moment)
                invocation.console.out("deleted \(moment.lowercased)")
                return 0
            }
        })

    static let freebie = Command(
        name: "freebie", summary: "Use one of the board's freebies on a revealed square (1, 2, 4 or 6 by size; they never refill).",
        arguments: [.init(name: "BOARD", help: "a board's id, the start of it, its title, or its starter grid's key"), .init(name: "POSITION", help: "the square")],
        options: [asOption, deviceOption],
        run: { invocation in
            guard let position = Int(invocation.arguments[1]) else {
                throw CLIError.usage("POSITION is a square's number, like 24", command: invocation.commandPath)
            }
            return try await PhoneSession.with(invocation) { phone, _ in
                let board = try PhoneSession.board(invocation.arguments[0], on: phone)
                try phone.store.useFreebie(board: board.id, position: position)
                invocation.console.out("square \(position) is done with a freebie")
                return 0
            }
        })

    static let photo = Command(
        name: "photo", summary: "Add a photo file to a moment; it uploads after the moment's row syncs.",
        arguments: [.init(name: "MOMENT", help: "a moment's id or the start of it"), .init(name: "FILE", help: "the photo (WebP, up to 10 MiB)")],
        options: [asOption, deviceOption, .value("--audience", "WHO", "in a group grid: private (default) or group")],
        run: { invocation in
            let audience = try invocation.value("--audience").map { text in
                guard let audience = PartAudience(rawValue: text) else {
                    throw CLIError.usage("--audience for a photo is private or group", command: invocation.commandPath)
                }
                return audience
            }
            return try await PhoneSession.with(invocation) { phone, _ in
                let moment = try PhoneSession.moment(invocation.arguments[0], on: phone)
                guard let bytes = FileManager.default.contents(atPath: invocation.arguments[1]) else {
                    throw CLIError("cannot read \(invocation.arguments[1])", fix: "give the path of a photo file")
                }
                let photo = try phone.store.addPhoto(moment: moment, bytes: [UInt8](bytes), audience: audience)
                invocation.console.out(photo.lowercased)
                return 0
            }
        })

    static let offline = Command(
        name: "offline", summary: "Take the phone off the network: it keeps working, and queues its changes.",
        options: [asOption, deviceOption],
        run: { invocation in
            try await PhoneSession.with(invocation, requiresUser: false) { phone, _ in
                phone.isOnline = false
                invocation.console.out("phone \(try PhoneSession.deviceName(invocation)) is offline")
                return 0
            }
        })

    static let online = Command(
        name: "online", summary: "Put the phone back on the network (then `sync`).",
        options: [asOption, deviceOption],
        run: { invocation in
            try await PhoneSession.with(invocation, requiresUser: false) { phone, _ in
                phone.isOnline = true
                invocation.console.out("phone \(try PhoneSession.deviceName(invocation)) is online")
                return 0
            }
        })

    static let sync = Command(
        name: "sync", summary: "Push what is queued, pull what changed, move photo files.",
        options: [asOption, deviceOption, jsonOption],
        run: { invocation in
            try await PhoneSession.with(invocation, needsServer: true) { phone, server in
                guard let server else { throw CLIError("the phone is not signed in", fix: "give --as USER") }
                let report = try await phone.sync(with: server)
                if invocation.json { try invocation.console.json(PhoneOutput.SyncSummary(report)) } else { invocation.console.out(PhoneOutput.render(report)) }
                return report.failures.isEmpty ? 0 : 1
            }
        })

    static let status = Command(
        name: "status", summary: "Who is signed in, the network, and every change waiting in the sync queue.",
        options: [asOption, deviceOption, jsonOption],
        run: { invocation in
            try await PhoneSession.with(invocation, requiresUser: false) { phone, _ in
                let status = try PhoneOutput.Status(phone, device: try PhoneSession.deviceName(invocation))
                if invocation.json { try invocation.console.json(status) } else { invocation.console.out(status.text) }
                return 0
            }
        })

    static let retry = Command(
        name: "retry", summary: "Try again: changes marked \"couldn't sync\" start their retry schedule afresh.",
        options: [asOption, deviceOption],
        run: { invocation in
            try await PhoneSession.with(invocation) { phone, _ in
                let count = try phone.store.retryCouldntSync()
                invocation.console.out("\(count) change\(count == 1 ? "" : "s") will be tried at the next sync")
                return 0
            }
        })

    static let signOut = Command(
        name: "sign-out", summary: "Sign out: one last push when online, then the phone is emptied (the server keeps everything).",
        options: [asOption, deviceOption],
        run: { invocation in
            try await PhoneSession.with(invocation, needsServer: true, requiresUser: false, signsIn: false) { phone, server in
                let left = try await phone.signOut(with: server)
                if !left.isEmpty {
                    invocation.console.note("warning: \(left.count) change\(left.count == 1 ? "" : "s") could not be pushed and are gone from this phone")
                }
                invocation.console.out("signed out; the phone is empty")
                return 0
            }
        })

    static func audienceOption(_ invocation: Invocation) throws -> Audience? {
        try invocation.value("--audience").map { text in
            guard let audience = Audience(rawValue: text) else {
                throw CLIError.usage("--audience is private, friends or public, not \"\(text)\"", command: invocation.commandPath)
            }
            return audience
        }
    }
}
