import Foundation

extension GridStore {
    /// Puts templates on the phone as the app bundle does (the six starter grids),
    /// so a shelf can be started before the first sync. They merge like pulled rows.
    public func installTemplates(_ templates: [JSON]) throws {
        for template in templates { try mergePulled(try SyncRow(table: .grids, json: template)) }
    }

    /// Starts the starter shelf: a board for each starter template not started here
    /// before. While signed in, the boards' ids derive from the person and the grid,
    /// so two phones that start the shelf offline make the same rows (spec §6.6).
    @discardableResult
    public func startShelf() throws -> [UUID] {
        try requireWritable()
        return try transaction {
            let started = Set(try database.rows("select starter_key from shelf_start").compactMap { $0[0].text })
            var boards: [UUID] = []
            for template in try rows(.grids, where: "kind = 'starter' and deleted = 0 order by size, title") {
                guard let key = template.text("starter_key"), !started.contains(key) else { continue }
                let id = account.user.map { DeterministicID.starterShelfBoard(user: $0, key: key) } ?? newID()
                if try row(.userGrids, id) == nil {
                    try createBoard(id: id, grid: template, audience: .private)
                }
                try database.run("insert into shelf_start (starter_key, board_id) values (?, ?)", [key, id.lowercased])
                boards.append(id)
            }
            if boards.isEmpty && started.isEmpty {
                throw GridStoreError("there are no starter grids on this phone", fix: "install the starter templates (or sync) first")
            }
            return boards
        }
    }

    /// Adds a template to the shelf as a new board (a new id each time, spec §6.6).
    @discardableResult
    public func addBoard(grid: UUID, audience: Audience = .private) throws -> UUID {
        try requireWritable()
        return try transaction {
            guard let template = try row(.grids, grid), !template.deleted else {
                throw GridStoreError("grid \(grid.lowercased) is not on this phone", fix: "sync to fetch it, or add a grid from the Atlas")
            }
            let id = newID()
            try createBoard(id: id, grid: template, audience: audience)
            return id
        }
    }

    /// A board and its squares, the centre revealed (R1): the squares are the very rows
    /// the server makes for the board (same ids, same stamps), so they are not queued.
    private func createBoard(id: UUID, grid template: SyncRow, audience: Audience) throws {
        guard let size = template.int("size") else {
            throw GridStoreError("grid \(template.id.lowercased) has no size", fix: "sync to fetch the whole template")
        }
        var board = newRow(.userGrids, id: id)
        board.set("user_id", uuid: account.user)
        board.set("grid_id", uuid: template.id)
        board.set("audience", audience.rawValue)
        try save(board)
        let geometry = BoardGeometry(side: size)
        let created = board.timestamp("created_at")
        for position in 0..<geometry.squareCount {
            var square = SyncRow(table: .userSquares, id: DeterministicID.square(board: id, position: position))
            for column in SyncedTable.userSquares.columns { square.values[column.name] = .null }
            square.set("user_grid_id", uuid: id)
            square.set("user_id", uuid: account.user)
            square.set("position", position)
            square.set("revealed_at", timestamp: geometry.centre.contains(position) ? created : nil)
            square.set("created_at", timestamp: created)
            square.set("updated_at", timestamp: created)
            square.set("device_id", uuid: DeterministicID.serverDevice)
            square.set("deleted", false)
            try write(square)
        }
    }

    /// "Make your own": a new template of this person's, saved through `save_grid` on the next sync.
    @discardableResult
    public func makeGrid(_ draft: GridDraft) throws -> UUID {
        try requireWritable()
        let title = draft.title.trimmingCharacters(in: .whitespaces)
        guard (1...40).contains(title.count) else {
            throw GridStoreError("a grid's title is 1 to 40 characters, not \(title.count)", fix: "shorten or fill in the title")
        }
        let geometry = BoardGeometry(side: draft.size)
        guard geometry.freebies > 0 else {
            throw GridStoreError("a board is 7, 8, 9 or 10 squares a side, not \(draft.size)", fix: "pick one of those sizes")
        }
        let prompts = draft.prompts.map { $0.trimmingCharacters(in: .whitespaces) }
        guard prompts.count == geometry.squareCount else {
            throw GridStoreError("a \(draft.size) x \(draft.size) grid needs \(geometry.squareCount) squares, not \(prompts.count)",
                                 fix: "write or suggest the rest")
        }
        if let bad = prompts.firstIndex(where: { !(1...80).contains($0.count) }) {
            throw GridStoreError("square \(bad) has \(prompts[bad].count) characters", fix: "write 1 to 80 characters in every square")
        }
        guard Set(prompts.map { $0.lowercased() }).count == prompts.count else {
            throw GridStoreError("two squares say the same thing", fix: "make every square different")
        }
        return try transaction {
            var grid = newRow(.grids)
            grid.set("kind", "made")
            grid.set("owner_id", uuid: account.user)
            grid.set("title", title)
            grid.set("description", draft.description)
            grid.set("color", draft.color)
            grid.set("theme", draft.theme)
            grid.set("size", draft.size)
            grid.set("shared", draft.shared)
            grid.set("source_grid_id", draft.sourceGridID)
            grid["squares"] = .text(JSON.array(prompts.map(JSON.string)).text)
            try save(grid)
            return grid.id
        }
    }

    /// Changes who may see a solo board. Narrowing narrows its moments too (the server
    /// does the same, V-A3); widening brings along the moments that matched the old
    /// audience only when asked.
    public func setAudience(board id: UUID, _ audience: Audience, bringMoments: Bool = false) throws {
        try requireWritable()
        try transaction {
            var board = try liveBoard(id)
            guard board.groupID == nil else {
                throw GridStoreError("a group grid is seen by its group only", fix: "change who sees each of your entries or photos instead")
            }
            let old = Audience(rawValue: board.text("audience") ?? "") ?? .private
            board.set("audience", audience.rawValue)
            touch(&board)
            try save(board)
            for var moment in try rows(.moments, where: "user_grid_id = ? and deleted = 0", [id.lowercased]) {
                let current = Audience(rawValue: moment.text("audience") ?? "") ?? .private
                if current > audience {
                    moment.set("audience", audience.rawValue)
                    try write(moment)
                } else if bringMoments && audience > old && current == old {
                    moment.set("audience", audience.rawValue)
                    touch(&moment)
                    try save(moment)
                }
            }
        }
    }

    /// Takes a board off the shelf (R12): only a solo board with no moments.
    public func removeBoard(_ id: UUID) throws {
        try requireWritable()
        try transaction {
            var board = try liveBoard(id)
            guard board.groupID == nil else {
                throw GridStoreError("a group grid leaves the shelf when you leave the group", fix: "leave the group instead")
            }
            let moments = try database.scalar("select count(*) from moments where user_grid_id = ? and deleted = 0", [id.lowercased]).int ?? 0
            guard moments == 0 else {
                throw GridStoreError("this board has \(moments) moment\(moments == 1 ? "" : "s")", fix: "only a board with no moments can be removed; delete them first")
            }
            board.set("deleted", true)
            touch(&board)
            try save(board)
        }
    }

    /// Onboarding's interests, kept on the phone and sent with the next sync.
    public func pickInterests(_ slugs: [String]) throws {
        try requireWritable()
        try transaction {
            for slug in slugs {
                let id = account.user.map { DeterministicID.interest(user: $0, slug: slug) } ?? newID()
                if let existing = try row(.profileInterests, id), !existing.deleted { continue }
                var interest = newRow(.profileInterests, id: id)
                interest.set("user_id", uuid: account.user)
                interest.set("interest", slug)
                try save(interest)
            }
        }
    }

    func liveBoard(_ id: UUID) throws -> SyncRow {
        guard let board = try row(.userGrids, id), !board.deleted else {
            throw GridStoreError("there is no board \(id.lowercased) on this shelf", fix: "list the shelf to find the board's id")
        }
        return board
    }

    /// Changes are made signed in, or before any account (they are adopted later).
    func requireWritable() throws {
        if case .signedOut = account {
            throw GridStoreError("this phone is signed out", fix: "sign in first")
        }
    }
}
