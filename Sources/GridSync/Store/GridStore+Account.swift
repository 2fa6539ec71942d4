import Foundation

extension GridStore {
    /// Whose data this phone holds.
    public var account: AccountState {
        switch (try? setting("account")) ?? nil {
        case nil: return .neverSignedIn
        case "signed_out": return .signedOut
        case let user?:
            guard let id = UUID(uuidString: user) else { return .signedOut }
            return .signedIn(user: id, username: (try? setting("username")) ?? nil)
        }
    }

    /// The signed-in person, or an error saying to sign in.
    func requireUser() throws -> UUID {
        guard let user = account.user else {
            throw GridStoreError("this phone is not signed in", fix: "sign in first")
        }
        return user
    }

    /// Signs `user` in (spec §6.8). A phone that was never signed in keeps what it
    /// made and gives it to this account; after a sign-out it starts empty; a phone
    /// signed in as someone else must sign out first.
    public func signIn(user: UUID, username: String? = nil) throws {
        switch account {
        case .signedIn(let current, _) where current == user:
            try setSetting("username", username)
        case .signedIn(_, let other):
            throw GridStoreError("this phone is signed in as \(other ?? "someone else")",
                                 fix: "sign out first (that empties the phone), then sign in")
        case .signedOut:
            try transaction {
                try setSetting("account", user.lowercased)
                try setSetting("username", username)
            }
        case .neverSignedIn:
            try transaction {
                try adopt(by: user)
                try setSetting("account", user.lowercased)
                try setSetting("username", username)
            }
        }
    }

    /// Empties the phone: every row, file, queue entry and cursor; only the starter
    /// templates the app bundles stay. The server keeps everything; signing in again
    /// pulls it back. (Try a last push first: see `SyncEngine.signOut`.)
    public func signOut() throws {
        try transaction {
            for table in SyncedTable.allCases where table != .grids { try database.run("delete from \(table.rawValue)") }
            try database.run("delete from grids where kind is not 'starter'")
            for table in ["sync_queue", "sync_cursors", "known_groups", "shelf_start"] { try database.run("delete from \(table)") }
            try setSetting("account", "signed_out")
            try setSetting("username", nil)
        }
        let photos = folder.appendingPathComponent("photos")
        for file in (try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? [] {
            try? FileManager.default.removeItem(at: photos.appendingPathComponent(file))
        }
    }

    /// v0 data, made before any account, becomes `user`'s: stamped with the id and
    /// pushed as ordinary inserts (it is all queued already). The starter shelf and
    /// interests take the ids this account's other phones give them, so they merge.
    private func adopt(by user: UUID) throws {
        for (key, board) in try database.rows("select starter_key, board_id from shelf_start").map({ ($0[0].text!, $0[1].text!) }) {
            guard let old = UUID(uuidString: board) else { continue }
            let new = DeterministicID.starterShelfBoard(user: user, key: key)
            try rekeyBoard(old, to: new)
            try database.run("update shelf_start set board_id = ? where starter_key = ?", [new.lowercased, key])
        }
        for interest in try rows(.profileInterests) {
            guard let slug = interest.text("interest") else { continue }
            try rekey(.profileInterests, interest.id, to: DeterministicID.interest(user: user, slug: slug))
        }
        for table in [SyncedTable.profileInterests, .userGrids, .userSquares, .moments] {
            try database.run("update \(table.rawValue) set user_id = ? where user_id is null", [user.lowercased])
        }
        for photo in try rows(.photos, where: "user_id is null") {
            try database.run("update photos set user_id = ?, storage_path = ? where id = ?",
                             [user.lowercased, "\(user.lowercased)/\(photo.id.lowercased).webp", photo.id.lowercased])
        }
    }

    /// A board and its squares under new ids (squares' ids derive from the board's).
    private func rekeyBoard(_ old: UUID, to new: UUID) throws {
        for square in try rows(.userSquares, where: "user_grid_id = ?", [old.lowercased]) {
            guard let position = square.int("position") else { continue }
            let newSquare = DeterministicID.square(board: new, position: position)
            try rekey(.userSquares, square.id, to: newSquare)
            try database.run("update moments set user_square_id = ? where user_square_id = ?", [newSquare.lowercased, square.id.lowercased])
        }
        try rekey(.userGrids, old, to: new)
        try database.run("update user_squares set user_grid_id = ? where user_grid_id = ?", [new.lowercased, old.lowercased])
        try database.run("update moments set user_grid_id = ? where user_grid_id = ?", [new.lowercased, old.lowercased])
    }

    private func rekey(_ table: SyncedTable, _ old: UUID, to new: UUID) throws {
        try database.run("update \(table.rawValue) set id = ? where id = ?", [new.lowercased, old.lowercased])
        try database.run("update sync_queue set row_id = ? where table_name = ? and row_id = ?",
                         [new.lowercased, table.rawValue, old.lowercased])
    }
}
