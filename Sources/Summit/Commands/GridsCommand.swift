import Foundation
import Postgres

/// `summit grids …`: AirStrive's grids as one user — the Atlas, the shelf,
/// making, copying and sharing grids, and looking at a board.
package enum GridsCommand {
    static let command = Command(
        name: "grids",
        summary: "AirStrive grids as one user: Atlas search, add, copy, make, share, board.",
        discussion: """
            GRID is a grid id or a starter grid's key (small-joys, close-to-home, out-the-door, \
            kitchen-table, through-the-year, hundred-firsts). Every command acts as --as USER.
            """,
        subcommands: [atlas, add, copy, make, share, board])

    static let atlas = Command(
        name: "atlas",
        summary: "The Atlas of grids anyone signed in can add.",
        subcommands: [atlasSearch])

    static let atlasSearch = Command(
        name: "search",
        summary: "Search the Atlas by words in titles, descriptions and prompts.",
        arguments: [.init(name: "QUERY", help: "words to look for (default: everything)", optional: true)],
        options: [
            AppCommand.asOption,
            .value("--theme", "THEME", "only this theme (everyday, outdoors, food, …)"),
            .value("--size", "N", "only boards of N x N squares (7 to 10)"),
            .value("--limit", "N", "at most N grids (default 20, at most 50)"),
            AppCommand.jsonOption,
        ],
        run: { invocation in
            let size = try invocation.value("--size").map { try number($0, "--size", invocation) }
            let limit = try invocation.value("--limit").map { try number($0, "--limit", invocation) } ?? 20
            let answer = try await AppCommand.acting(invocation) { session, me in
                try await session.call("grids.atlas_search", [
                    ("p_query", invocation.arguments.first), ("p_theme", invocation.value("--theme")),
                    ("p_size", size.map(Int16.init)), ("p_limit", limit),
                ], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let cards = answer.json.array
            if cards.isEmpty { invocation.console.note("no grids in the Atlas match") }
            for card in cards {
                let maker = card["maker_username"].string.map { "by \($0)" } ?? card["kind"].string ?? ""
                invocation.console.out("\(card["grid_id"].string ?? "")  \(card["title"].string ?? "") "
                    + "(\(card["size"].int ?? 0) x \(card["size"].int ?? 0), \(card["theme"].string ?? ""), \(maker))")
            }
            return 0
        })

    static let add = Command(
        name: "add",
        summary: "Put GRID on USER's shelf: a new board, with its centre revealed.",
        discussion: "Works for starter grids, your own grids, grids in the Atlas, and grids you already use.",
        arguments: [.init(name: "GRID", help: "a grid id or a starter grid's key")],
        options: [
            AppCommand.asOption,
            .value("--audience", "WHO", "who may see the board: private (default), friends or public"),
            AppCommand.jsonOption,
        ],
        run: { invocation in
            let audience = try parseAudience(invocation)
            let answer = try await AppCommand.acting(invocation) { session, me in
                let grid = try await resolveGrid(invocation.arguments[0], in: session)
                return try await addToShelf(grid: grid, audience: audience, as: me, in: session)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let row = answer.json[0]["row"]
            invocation.console.out("added to the shelf: board \(row["id"].string ?? "")")
            invocation.console.note("see it with: summit grids board \(row["id"].string ?? "") --as \(invocation.value("--as") ?? "")")
            return 0
        })

    static let copy = Command(
        name: "copy",
        summary: "Copy GRID into a new grid of USER's own (\"Copy and edit\"), keeping its squares.",
        arguments: [.init(name: "GRID", help: "a grid id or a starter grid's key")],
        options: [
            AppCommand.asOption,
            .value("--title", "TITLE", "the copy's title (default \"Copy of …\")"),
            .value("--description", "TEXT", "the copy's description"),
            .value("--color", "COLOR", "coral, amber, lemon, sage, teal, sky, indigo, plum, rose, sand, slate or ink"),
            .flag("--share", "put the copy in the Atlas"),
            .flag("--add", "also put the copy on the shelf"),
            AppCommand.jsonOption,
        ],
        run: { invocation in
            let answer = try await AppCommand.acting(invocation) { session, me in
                let source = try await resolveGrid(invocation.arguments[0], in: session)
                let template = try await session.call("grids.get_template", [("p_grid_id", source)], as: me.caller).json
                let title = invocation.value("--title") ?? String(("Copy of " + (template["title"].string ?? "")).prefix(40))
                let saved = try await save([
                    "id": UUID().uuidString.lowercased(), "title": title,
                    "description": invocation.value("--description") ?? template["description"].string ?? "",
                    "color": invocation.value("--color") ?? template["color"].string ?? "sky",
                    "theme": template["theme"].string ?? "everyday", "size": template["size"].int ?? 7,
                    "squares": template["squares"].array.compactMap(\.string),
                    "source_grid_id": source.uuidString.lowercased(), "shared": invocation.flag("--share"),
                ], as: me, in: session)
                if invocation.flag("--add"), let id = saved.json["grid"]["id"].uuid {
                    try await addToShelf(grid: id, audience: "private", as: me, in: session)
                }
                return saved
            }
            return try report(saved: answer, invocation)
        })

    static let make = Command(
        name: "make",
        summary: "Make a new grid: your prompts first (centre outwards), the rest suggested from the prompt bank.",
        discussion: """
            Your --prompt squares take the first positions of the reveal order, so they open first; \
            grids.suggest_the_rest fills every other square from the theme's prompts. Example:
              summit grids make --as ann --title "Rainy days" --theme calm --prompt "Watch the rain for a while"
            """,
        options: [
            AppCommand.asOption,
            .value("--title", "TITLE", "1 to 40 characters (required)"),
            .value("--theme", "THEME", "everyday, outdoors, food, making, movement, culture, people, nearby, seasons, calm, learning or new-things (required)"),
            .value("--size", "N", "board side: 7 (default), 8, 9 or 10"),
            .value("--prompt", "TEXT", "a square of your own", repeatable: true),
            .value("--description", "TEXT", "up to 200 characters"),
            .value("--color", "COLOR", "coral, amber, lemon, sage, teal, sky (default), indigo, plum, rose, sand, slate or ink"),
            .flag("--share", "put the grid in the Atlas"),
            .flag("--add", "also put the grid on the shelf"),
            AppCommand.jsonOption,
        ],
        run: { invocation in
            let title = try invocation.required("--title")
            let theme = try invocation.required("--theme")
            let size = try invocation.value("--size").map { try number($0, "--size", invocation) } ?? 7
            let prompts = invocation.values("--prompt")
            guard prompts.count <= size * size else {
                throw CLIError.usage("\(prompts.count) prompts do not fit a \(size) x \(size) grid", command: invocation.commandPath)
            }
            let answer = try await AppCommand.acting(invocation) { session, me in
                let id = UUID()
                let suggest = { (squares: [String?]) in
                    try await session.call("grids.suggest_the_rest", [
                        ("p_grid_id", id), ("p_theme", theme), ("p_size", Int16(size)), ("p_squares", squares),
                    ], as: me.caller).json
                }
                // The reveal order comes from the server, the one place that defines it.
                let order = try await suggest([])["reveal_order"].array.compactMap(\.int)
                var squares = [String?](repeating: nil, count: size * size)
                for (prompt, position) in zip(prompts, order) { squares[position] = prompt }
                let filled = try await suggest(squares)["squares"].array.compactMap(\.string)
                let saved = try await save([
                    "id": id.uuidString.lowercased(), "title": title, "theme": theme, "size": size,
                    "description": invocation.value("--description") ?? "", "color": invocation.value("--color") ?? "sky",
                    "squares": filled, "shared": invocation.flag("--share"),
                ], as: me, in: session)
                if invocation.flag("--add") {
                    try await addToShelf(grid: id, audience: "private", as: me, in: session)
                }
                return saved
            }
            return try report(saved: answer, invocation)
        })

    static let share = Command(
        name: "share",
        summary: "Put USER's own GRID in the Atlas (or take it out with --stop).",
        discussion: "People who already added a grid keep it when it stops being shared.",
        arguments: [.init(name: "GRID", help: "the id of a grid USER made")],
        options: [AppCommand.asOption, .flag("--stop", "stop sharing"), AppCommand.jsonOption],
        run: { invocation in
            let stop = invocation.flag("--stop")
            let answer = try await AppCommand.acting(invocation) { session, me in
                let grid = try await resolveGrid(invocation.arguments[0], in: session)
                return try await session.call("grids.set_grid_shared", [("p_grid_id", grid), ("p_shared", !stop)], as: me.caller)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            let json = answer.json
            if !stop && json["grid"]["shared"].bool != true, json["sharing_suspended"].bool == true {
                throw CLIError("the grid stays out of the Atlas: your sharing is suspended",
                               fix: "an admin can lift it (summit admin lift USER)")
            }
            if !stop && (json["grid"]["shared"].bool != true || json["hidden"].bool == true) {
                // Shared it is, but a hidden grid stays out of the Atlas until a moderator unhides it.
                throw CLIError("the grid stays out of the Atlas: a moderator hid it", fix: "it comes back once a moderator unhides it")
            }
            invocation.console.out(stop ? "\(json["grid"]["title"].string ?? "the grid") is no longer in the Atlas"
                                        : "\(json["grid"]["title"].string ?? "the grid") is in the Atlas")
            return 0
        })

    static let board = Command(
        name: "board",
        summary: "Show a board (a grid on a shelf) as USER sees it, or list USER's shelf.",
        discussion: """
            Without BOARD: USER's own boards and groups. With BOARD: the squares (# done, o revealed, \
            . hidden) and the prompts USER can see — your own and group boards in full, someone \
            else's only as far as its audience lets you.
            """,
        arguments: [.init(name: "BOARD", help: "a board (user grid) id", optional: true)],
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            guard let boardText = invocation.arguments.first else { return try await listShelf(invocation) }
            guard let boardID = UUID(uuidString: boardText) else {
                throw CLIError.usage("BOARD is a board id (a uuid); `summit grids board --as USER` lists them",
                                     command: invocation.commandPath)
            }
            let (json, me) = try await AppCommand.acting(invocation) { session, me in
                (try await BoardView.fetch(boardID, as: me.caller, in: session), me.person)
            }
            guard let json else {
                throw CLIError("\(me.name) can see no board \(boardText)",
                               fix: "check the id; someone else's board shows only when its audience includes you")
            }
            if invocation.json {
                invocation.console.out(DatabaseCommands.prettyJSON(json.text))
            } else {
                invocation.console.out(BoardView.render(json.json))
            }
            return 0
        })

    // MARK: shared steps

    /// A grid id, or the id of the starter grid with that key.
    static func resolveGrid(_ text: String, in session: AppSession) async throws -> UUID {
        if let id = UUID(uuidString: text) { return id }
        if let id = try await session.connection.query(
            "select id from grids.grids where starter_key = \(text.lowercased())").first(as: UUID.self) {
            return id
        }
        let keys = try await session.connection.query(
            "select string_agg(starter_key, ', ' order by starter_key) from grids.grids where kind = 'starter'").scalar(String?.self)
        throw CLIError("\"\(text)\" is neither a grid id nor a starter grid", fix: "use a grid id or one of: \(keys ?? "none")")
    }

    /// The shelf insert the phone syncs: a user_grids row pushed through sync_push, so
    /// R11 (may this person use this grid?) is checked by the same RLS as for an app.
    @discardableResult
    static func addToShelf(grid: UUID, audience: String, as me: (caller: Caller, person: AppSession.Person),
                           in session: AppSession) async throws -> AppSession.Answer {
        // A starter shelf gets the id every phone computes (v5), unless that id is taken.
        let id = try await session.connection.query("""
            select case when g.kind = 'starter' and not exists (
                          select 1 from grids.user_grids u
                          where u.id = private.v5('user_grid:' || \(me.person.id) || ':' || g.starter_key))
                        then private.v5('user_grid:' || \(me.person.id) || ':' || g.starter_key)
                        else gen_random_uuid() end
            from grids.grids g where g.id = \(grid)
            """).first(as: UUID.self) ?? UUID()
        let row = try jsonText([["id": id.uuidString.lowercased(), "grid_id": grid.uuidString.lowercased(), "audience": audience]])
        let answer = try await session.call("grids.sync_push", [("p_table", "user_grids"), ("p_rows", row)], as: me.caller)
        let outcome = answer.json[0]
        if outcome["outcome"].string == "error" || outcome["row"].isNull {
            let code = outcome["code"].string ?? "not_allowed"
            throw CLIError("\(me.person.name) cannot put that grid on their shelf (\(code == "42501" ? "not_allowed" : code))",
                           fix: "add a starter grid, one of your own, one in the Atlas (summit grids atlas search), or one you already use")
        }
        return answer
    }

    static func save(_ grid: [String: Any], as me: (caller: Caller, person: AppSession.Person),
                     in session: AppSession) async throws -> AppSession.Answer {
        try await session.call("grids.save_grid", [("p_grid", try jsonText(grid))], as: me.caller)
    }

    static func report(saved answer: AppSession.Answer, _ invocation: Invocation) throws -> Int32 {
        if invocation.json { return AppCommand.print(answer, invocation) }
        let grid = answer.json["grid"]
        invocation.console.out("saved \"\(grid["title"].string ?? "")\": grid \(grid["id"].string ?? "") "
            + "(\(grid["size"].int ?? 0) x \(grid["size"].int ?? 0), \(grid["theme"].string ?? "")"
            + (grid["shared"].bool == true ? (answer.json["hidden"].bool == true ? ", shared, hidden from the Atlas by a moderator)" : ", in the Atlas)") : ")"))
        if invocation.flag("--share") && grid["shared"].bool != true {
            invocation.console.note(answer.json["sharing_suspended"].bool == true
                ? "not shared: your sharing is suspended" : "not shared")
        }
        return 0
    }

    static func listShelf(_ invocation: Invocation) async throws -> Int32 {
        let rows = try await AppCommand.acting(invocation) { session, me in
            try await BoardView.shelf(as: me.caller, in: session)
        }
        if invocation.json {
            invocation.console.out(DatabaseCommands.prettyJSON(rows.text))
            return 0
        }
        if rows.json.array.isEmpty { invocation.console.note("the shelf is empty: summit grids add GRID --as USER") }
        for row in rows.json.array {
            let size = row["size"].int ?? 0
            invocation.console.out("\(row["id"].string ?? "")  \(row["title"].string ?? "") (\(size) x \(size), "
                + (row["group"].bool == true ? "group" : row["audience"].string ?? "") + ")  "
                + "\(row["done"].int ?? 0) of \(size * size) done")
        }
        return 0
    }

    static func parseAudience(_ invocation: Invocation) throws -> String {
        let audience = invocation.value("--audience") ?? "private"
        guard ["private", "friends", "public"].contains(audience) else {
            throw CLIError.usage("--audience is private, friends or public", command: invocation.commandPath)
        }
        return audience
    }

    package static func number(_ text: String, _ option: String, _ invocation: Invocation) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw CLIError.usage("\(option) needs a positive number", command: invocation.commandPath)
        }
        return value
    }

    static func jsonText(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }
}
