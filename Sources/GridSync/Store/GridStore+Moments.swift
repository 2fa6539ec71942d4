import Foundation

extension GridStore {
    /// Logs a moment on a revealed square. The square becomes done, which reveals its
    /// neighbours (R3, derived here and written by the server). In a group grid the
    /// words go to this person's entry; the moment's own body stays empty (R13).
    @discardableResult
    public func logMoment(board boardID: UUID, position: Int, _ draft: MomentDraft) throws -> UUID {
        try requireWritable()
        return try transaction {
            let board = try liveBoard(boardID)
            let square = try square(of: board, at: position)
            if try revealedAt(square, of: board) == nil {
                throw GridStoreError("square \(position) is still hidden", fix: "log a moment on a revealed square; doing one reveals its neighbours")
            }
            if let existing = try liveMoment(onSquare: square.id) {
                throw GridStoreError("square \(position) already holds a moment (\(existing.id.lowercased))", fix: "edit that moment instead")
            }
            let title = draft.title.trimmingCharacters(in: .whitespaces)
            guard title.count <= 80 else {
                throw GridStoreError("a moment's title is at most 80 characters, not \(title.count)", fix: "shorten it")
            }
            let group = board.groupID
            var moment = newRow(.moments)
            moment.set("user_square_id", uuid: square.id)
            moment.set("user_grid_id", uuid: boardID)
            moment.set("user_id", uuid: group == nil ? board.uuid("user_id") : account.user)
            moment.set("group_id", uuid: group)
            moment.set("title", title)
            moment.set("body", group == nil ? draft.body : "")
            moment.set("happened_on", draft.happenedOn ?? now().day)
            moment.set("place", draft.place)
            moment.set("weather", draft.weather)
            moment.set("with_whom", draft.withWhom)
            let boardAudience = Audience(rawValue: board.text("audience") ?? "") ?? .private
            moment.set("audience", (group == nil ? min(draft.audience, boardAudience) : .private).rawValue)
            try save(moment)
            if group != nil && !draft.body.isEmpty {
                try writeOwnEntry(on: moment, body: draft.body, audience: nil)
            }
            return moment.id
        }
    }

    /// Edits a moment. In a group grid anyone in it may change the shared details;
    /// `body` changes this person's own entry.
    public func editMoment(_ id: UUID, _ change: MomentChange) throws {
        try requireWritable()
        try transaction {
            var moment = try liveMoment(id)
            let board = try liveBoard(moment.uuid("user_grid_id")!)
            if let title = change.title { moment.set("title", title.trimmingCharacters(in: .whitespaces)) }
            if let day = change.happenedOn { moment.set("happened_on", day) }
            if let place = change.place { moment.set("place", place) }
            if let weather = change.weather { moment.set("weather", weather) }
            if let withWhom = change.withWhom { moment.set("with_whom", withWhom) }
            if board.groupID == nil {
                if let body = change.body { moment.set("body", body) }
                if let audience = change.audience {
                    let boardAudience = Audience(rawValue: board.text("audience") ?? "") ?? .private
                    moment.set("audience", min(audience, boardAudience).rawValue)
                }
            } else if let body = change.body {
                try writeOwnEntry(on: moment, body: body, audience: nil)
            }
            touch(&moment)
            try save(moment)
        }
    }

    /// Deletes a moment for good (C3). Its square goes back to revealed (R5). A solo
    /// moment's photos go with it; in a group grid only this person's parts do, and
    /// the server keeps the others' on a rescue moment (C10).
    public func deleteMoment(_ id: UUID) throws {
        try requireWritable()
        try transaction {
            var moment = try liveMoment(id)
            let group = moment.groupID
            moment.set("deleted", true)
            for field in ["title", "body", "place", "weather", "with_whom"] { moment.set(field, "") }
            touch(&moment)
            try save(moment)
            // This person's parts go with it, as their own deletes: the server does the same
            // (R14, C10), and if someone else deleted the moment first and rescued the parts,
            // the person still meant them gone.
            let me = account.user?.lowercased
            for var photo in try rows(.photos, where: "moment_id = ? and deleted = 0", [id.lowercased])
            where group == nil || photo.text("user_id") == me {
                photo.set("deleted", true)
                touch(&photo)
                try save(photo)
                try removeFile(ofPhoto: photo.id)
            }
            if group != nil {
                for var entry in try rows(.momentEntries, where: "moment_id = ? and deleted = 0 and author_id = ?", [id.lowercased, me]) {
                    entry.set("deleted", true)
                    entry.set("body", "")
                    touch(&entry)
                    try save(entry)
                }
            }
        }
    }

    /// Uses one of the board's freebies on a revealed square: done without a moment
    /// (its neighbours revealed, R3); freebies never refill (R7).
    public func useFreebie(board boardID: UUID, position: Int) throws {
        try requireWritable()
        try transaction {
            let board = try liveBoard(boardID)
            var square = try square(of: board, at: position)
            guard try revealedAt(square, of: board) != nil else {
                throw GridStoreError("square \(position) is still hidden", fix: "use a freebie on a revealed square")
            }
            guard square.timestamp("freebie_at") == nil else {
                throw GridStoreError("square \(position) already has a freebie", fix: "pick another square")
            }
            let allowance = BoardGeometry(side: try size(of: board)).freebies
            let used = try database.scalar("select count(*) from user_squares where user_grid_id = ? and freebie_at is not null",
                                           [boardID.lowercased]).int ?? 0
            guard used < allowance else {
                throw GridStoreError("this board's \(allowance) freebie\(allowance == 1 ? " is" : "s are") used", fix: "freebies never refill; log a moment instead")
            }
            // A freebie needs a revealed square on the server too (R7). Squares are pushed
            // before moments, so a reveal that comes from a neighbour's moment travels with
            // the freebie; one that comes from a neighbour's freebie the server makes itself
            // (that freebie is pushed first), and not at all if that freebie is refused.
            square.set("revealed_at", timestamp: try revealedAt(square, of: board, byMomentsOnly: true))
            square.set("freebie_at", timestamp: now())
            touch(&square)
            try save(square)
        }
    }

    /// When a square was revealed: its own `revealed_at`, else the earliest time a
    /// neighbour was done here, by a freebie or by a moment ever logged, deleted or not
    /// (R3 as the phone derives it before the server has written it; only the server
    /// writes reveals, so a moment that loses a conflict, merged into the kept one,
    /// leaves no reveal of its own). Nil while hidden. `byMomentsOnly` counts only
    /// neighbours done by a moment.
    func revealedAt(_ square: SyncRow, of board: SyncRow, byMomentsOnly: Bool = false) throws -> Timestamp? {
        if let stored = square.timestamp("revealed_at") { return stored }
        guard let position = square.int("position") else { return nil }
        let neighbours = BoardGeometry(side: try size(of: board)).neighbours(of: position)
        let placeholders = neighbours.map { _ in "?" }.joined(separator: ", ")
        let freebie = byMomentsOnly ? "null" : "s.freebie_at"
        // Every moment ever logged counts, deleted ones too (not one merged into another):
        // deleting a moment leaves its neighbours revealed (R3), as the server keeps them.
        let done = try database.rows("""
            select min(coalesce(\(freebie), m.created_at), coalesce(m.created_at, \(freebie))) as at
            from user_squares s left join moments m on m.user_square_id = s.id and m.merged_into is null
            where s.user_grid_id = ? and s.deleted = 0 and s.position in (\(placeholders))
              and (\(freebie) is not null or m.id is not null)
            """, [board.id.lowercased] + neighbours)
        return done.compactMap { $0["at"].integer }.min().map(Timestamp.init(microseconds:))
    }

    func size(of board: SyncRow) throws -> Int {
        guard let grid = board.uuid("grid_id"), let size = try row(.grids, grid)?.int("size") else {
            throw GridStoreError("the template of board \(board.id.lowercased) is not on this phone", fix: "sync to fetch it")
        }
        return size
    }

    func square(of board: SyncRow, at position: Int) throws -> SyncRow {
        guard let square = try rows(.userSquares, where: "user_grid_id = ? and position = ? and deleted = 0",
                                    [board.id.lowercased, position]).first else {
            throw GridStoreError("board \(board.id.lowercased) has no square \(position)",
                                 fix: "positions run from 0 to size² - 1, row by row")
        }
        return square
    }

    func liveMoment(onSquare square: UUID) throws -> SyncRow? {
        try rows(.moments, where: "user_square_id = ? and deleted = 0", [square.lowercased]).first
    }

    func liveMoment(_ id: UUID) throws -> SyncRow {
        guard let moment = try row(.moments, id), !moment.deleted else {
            throw GridStoreError("there is no moment \(id.lowercased) on this phone", fix: "look at the board to find its moments")
        }
        return moment
    }
}
