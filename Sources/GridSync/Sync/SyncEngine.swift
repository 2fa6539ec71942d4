import Foundation

/// The AirStrive sync protocol, client side (spec §6; seed, "Sync"): pushes
/// what the phone queued and pulls what changed, applying the same rules as
/// the server's triggers, through any `GridServer`.
///
/// One sync: ask `my_groups()`, drop the groups left and fetch the ones just
/// joined whole; push templates through `save_grid`, then each table's queued
/// rows in batches, parents first; pull every table from its cursor; move
/// photo files up and down.
public struct SyncEngine: Sendable {
    public let server: any GridServer
    public var schedule: RetrySchedule
    /// Each pull starts this many seconds before the last cursor (spec §6.3).
    public var pullOverlap: Double = 120
    /// Rows per `sync_push` call.
    public var batchSize = 200

    public init(server: any GridServer, schedule: RetrySchedule = RetrySchedule()) {
        self.server = server
        self.schedule = schedule
    }

    /// Syncs the phone with the server. A lost connection ends the sync with a
    /// `GridServerError.transport` after the rows in flight are marked to retry.
    @discardableResult
    public func sync(_ store: GridStore) async throws -> SyncReport {
        try checkAccount(store)
        var report = SyncReport()
        let groups = Set(try await server.myGroups())
        for group in try store.groupsOnPhone().subtracting(groups).sorted(by: { $0.lowercased < $1.lowercased }) {
            try store.forgetGroup(group)
            report.groupsLeft.append(group)
        }
        // Before pushing: a board another phone turned into a group comes in its group
        // shape first, so queued changes go on top of the server's rewrite (P4).
        for group in groups.subtracting(try store.knownGroups()).sorted(by: { $0.lowercased < $1.lowercased }) {
            report.pulled += try await fetchWhole(group, into: store)
            try store.markGroupKnown(group)
            report.groupsJoined.append(group)
        }
        try await push(store, into: &report)
        try await pull(store, into: &report)
        try await moveFiles(store, into: &report)
        return report
    }

    /// Pushes what is queued and due, and applies the answers.
    public func push(_ store: GridStore, into report: inout SyncReport) async throws {
        try checkAccount(store)
        for entry in try store.dueEntries(.grids, at: store.now()) {
            guard let grid = try store.row(.grids, entry.rowID) else {
                _ = try store.clearQueued(entry)
                continue
            }
            let outcome: PushOutcome
            do {
                let answer = try await server.saveGrid(grid.pushJSON)
                let stored = answer["grid"]
                outcome = PushOutcome(id: grid.id, kind: .applied, row: stored.isNull ? nil : stored)
            } catch let error as GridServerError {
                if case .transport = error {
                    try store.mergeAnswer(PushOutcome(id: grid.id, kind: .error, code: error.code), for: entry, schedule: schedule)
                    throw error
                }
                outcome = PushOutcome(id: grid.id, kind: .error, code: error.code)
            }
            report.count(outcome)
            try store.mergeAnswer(outcome, for: entry, schedule: schedule)
        }
        for table in SyncedTable.pushOrder where table != .grids {
            var pushed: [(entry: QueueEntry, row: SyncRow)] = []
            for entry in try store.dueEntries(table, at: store.now()) {
                if let row = try store.row(table, entry.rowID) {
                    pushed.append((entry, row))
                } else {
                    _ = try store.clearQueued(entry)
                }
            }
            guard !pushed.isEmpty else { continue }
            let batches = stride(from: 0, to: pushed.count, by: batchSize).map { start in
                pushed[start..<min(start + batchSize, pushed.count)].map(\.row.pushJSON)
            }
            let answers: [[PushOutcome]]
            do {
                answers = try await server.push(table, batches: batches)
            } catch let error as GridServerError {
                for item in pushed {
                    let outcome = PushOutcome(id: item.row.id, kind: .error, code: error.code)
                    report.count(outcome)
                    try store.mergeAnswer(outcome, for: item.entry, schedule: schedule)
                }
                if case .transport = error { throw error }
                continue
            }
            let outcomes = Dictionary(answers.joined().map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
            try store.transaction {
                for item in pushed {
                    let outcome = outcomes[item.row.id]
                        ?? PushOutcome(id: item.row.id, kind: .error, code: "no_answer")
                    report.count(outcome)
                    try store.mergeAnswer(outcome, for: item.entry, schedule: schedule)
                }
            }
        }
    }

    /// Pulls every table from its cursor, then applies `group_unshares`.
    public func pull(_ store: GridStore, into report: inout SyncReport) async throws {
        for table in SyncedTable.pullOrder {
            report.pulled += try await pullPages(table.rawValue, store) { json in
                try store.mergePulled(try SyncRow(table: table, json: json))
            }
        }
        _ = try await pullPages("group_unshares", store) { json in
            if try store.applyUnshare(json) { report.unshared += 1 }
        }
    }

    /// Pages through one table from `cursor − overlap`; the cursor becomes the
    /// largest `server_updated_at` seen.
    private func pullPages(_ table: String, _ store: GridStore, apply: (JSON) throws -> Void) async throws -> Int {
        let cursor = try store.cursor(table)
        var since = cursor.map { $0 - pullOverlap }
        var after: UUID?
        var newest = cursor
        var count = 0
        while true {
            let page = try await server.pull(table, since: since, afterID: after)
            // A page is written in one transaction of the phone's database, not one per row.
            try store.transaction {
                for json in page.rows {
                    try apply(json)
                    if let stamp = json["server_updated_at"].timestamp, newest.map({ stamp > $0 }) ?? true { newest = stamp }
                }
            }
            count += page.rows.count
            guard let next = page.next else { break }
            (since, after) = (next.since, next.afterID)
        }
        if let newest { try store.setCursor(table, newest) }
        return count
    }

    /// A group just joined: its live rows are older than the cursors, so they come whole.
    private func fetchWhole(_ group: UUID, into store: GridStore) async throws -> Int {
        var count = 0
        for table in SyncedTable.groupOrder {
            var after: UUID?
            repeat {
                let page = try await server.pullGroup(group, table, afterID: after)
                try store.transaction {
                    for json in page.rows { try store.mergePulled(try SyncRow(table: table, json: json)) }
                }
                count += page.rows.count
                after = page.next?.afterID
            } while after != nil
        }
        return count
    }

    /// Uploads this person's photo files whose rows the server has, and downloads
    /// the files of pulled photos that are uploaded.
    private func moveFiles(_ store: GridStore, into report: inout SyncReport) async throws {
        for photo in try store.photosToUpload() {
            guard let path = photo.text("storage_path"), let file = try store.photoFile(photo.id),
                  let bytes = try? Data(contentsOf: file) else { continue }
            do {
                if let answer = try await server.uploadPhoto(photo.id, path: path, bytes: [UInt8](bytes)) {
                    try store.mergePulled(try SyncRow(table: .photos, json: answer))
                }
                report.photosUploaded += 1
            } catch let error as GridServerError {
                if case .transport = error { throw error }
                report.failures.append(error.code)
            }
        }
        for photo in try store.photosToDownload() {
            guard let path = photo.text("storage_path") else { continue }
            if let bytes = try await server.downloadPhoto(path: path) {
                try store.storeFile(ofPhoto: photo.id, bytes: bytes)
                report.photosDownloaded += 1
            }
        }
    }

    /// Signs the phone out (spec §6.8): one last push when possible, then the phone
    /// is emptied. Answers the rows that could not be pushed, to warn about.
    @discardableResult
    public func signOut(_ store: GridStore) async throws -> [QueueEntry] {
        if store.account.user == server.user {
            var report = SyncReport()
            try? await push(store, into: &report)
        }
        let unsynced = try store.queue()
        try store.signOut()
        return unsynced
    }

    private func checkAccount(_ store: GridStore) throws {
        guard let user = store.account.user else {
            throw GridStoreError("this phone is not signed in", fix: "sign in before syncing")
        }
        guard user == server.user else {
            throw GridStoreError("this phone is signed in as \(user.lowercased), but the server connection is for \(server.user.lowercased)",
                                 fix: "sync with a connection for the phone's own account")
        }
    }
}
