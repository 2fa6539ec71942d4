import Foundation

/// What became of a row the server sent.
public enum MergeResult: Sendable, Hashable {
    /// The phone's copy now equals the server's.
    case applied
    /// The phone kept its copy: it has queued changes (P1), or it is newer (C1), or a tombstone (C3).
    case keptLocal
    /// The server turned the row into a group row; the phone took that shape and
    /// keeps its queued changes on top, to push again (P4, C13).
    case regrouped
    /// Nothing to do: a tombstone of a row the phone never had.
    case skipped
}

extension GridStore {
    /// Applies a row pulled from the server by the phone rules (spec §6.5).
    @discardableResult
    public func mergePulled(_ incoming: SyncRow) throws -> MergeResult {
        try transaction {
            let local = try row(incoming.table, incoming.id)
            if try isQueued(incoming.table, incoming.id) {
                // P4: the group conversion wins over the phone's copy, whatever K says;
                // the queued change goes again on top of it.
                if let local, incoming.table.groupScoped, local.groupID != incoming.groupID {
                    try write(regrouped(local, as: incoming))
                    if incoming.table == .moments { try keepOwnWords(of: local, on: incoming) }
                    return .regrouped
                }
                return .keptLocal  // P1
            }
            guard let local else {
                if incoming.deleted { return .skipped }
                try replace(with: incoming)
                return .applied
            }
            if local.deleted && !incoming.deleted { return .keptLocal }  // C3: a tombstone is final
            if incoming.deleted                                           // P2
                || (incoming.table.groupScoped && local.groupID != incoming.groupID)  // P4
                || local.serverUpdatedAt == nil      // the phone's copy of a row the server makes too (R1 squares)
                || !incoming.table.lastWriteWins
                || incoming.writeKey >= local.writeKey {                  // P3
                try replace(with: incoming)
                return .applied
            }
            if incoming.table == .userSquares {
                // C4: reveals and freebies merge as the earliest, whatever K says.
                var merged = local
                for name in ["revealed_at", "freebie_at"] {
                    let times = [local.timestamp(name), incoming.timestamp(name)].compactMap { $0 }
                    merged.set(name, timestamp: times.min())
                }
                if merged != local { try write(merged) }
            }
            return .keptLocal
        }
    }

    /// Applies the server's answer to a pushed row (spec §6.2): authoritative when
    /// the row has not changed since it was pushed; an error moves the entry on in
    /// its retry schedule.
    @discardableResult
    func mergeAnswer(_ outcome: PushOutcome, for entry: QueueEntry, schedule: RetrySchedule) throws -> Bool {
        try transaction {
            if outcome.kind == .error {
                try recordFailure(entry, code: outcome.code ?? "error", schedule: schedule)
                return false
            }
            guard try clearQueued(entry) else { return true }  // changed meanwhile: the new version goes next time
            if let json = outcome.row {
                try replace(with: try SyncRow(table: entry.table, json: json))
            } else {
                try erase(entry.table, entry.rowID)  // no longer visible to this person
            }
            return true
        }
    }

    /// The server's copy replaces the phone's (keeping the phone's own columns),
    /// with what follows from it on the phone.
    func replace(with incoming: SyncRow) throws {
        try write(incoming)
        guard incoming.deleted else { return }
        if incoming.table == .photos { try removeFile(ofPhoto: incoming.id) }
        if incoming.table == .moments, let kept = incoming.uuid("merged_into") {
            try moveOwnParts(from: incoming.id, toward: kept)
        }
    }

    /// P4: the server's new shape, with the queued client columns laid over it and a key
    /// just past the server's rewrite (C7 set its `updated_at`), so the push wins again.
    /// A moment's own words are not laid back: the conversion moved them into an entry.
    private func regrouped(_ local: SyncRow, as incoming: SyncRow) -> SyncRow {
        var merged = incoming
        for column in incoming.table.pushedColumns where !["created_at", "updated_at", "device_id"].contains(column.name) {
            if incoming.table == .moments && column.name == "body" { continue }
            merged[column.name] = local[column.name]
        }
        for column in incoming.table.columns where column.local { merged[column.name] = local[column.name] }
        let serverTime = incoming.timestamp("updated_at") ?? now()
        merged.set("updated_at", timestamp: max(now(), serverTime + 0.000_001))
        merged.set("device_id", uuid: deviceID)
        return merged
    }

    /// A solo moment's words, edited here while another phone made its board a group:
    /// the conversion moved them into the author's Private entry (`start_group`), so the
    /// edit goes there too, under the same id, and is pushed on top.
    private func keepOwnWords(of local: SyncRow, on incoming: SyncRow) throws {
        guard let me = account.user, local.uuid("user_id") == me, let body = local.text("body"), !body.isEmpty else { return }
        let id = DeterministicID.groupEntry(moment: incoming.id, user: me)
        var entry = try row(.momentEntries, id) ?? {
            var entry = newRow(.momentEntries, id: id)
            entry.set("moment_id", uuid: incoming.id)
            entry.set("author_id", uuid: me)
            entry.set("group_id", uuid: incoming.groupID)
            entry.set("audience", PartAudience.private.rawValue)
            return entry
        }()
        guard !entry.deleted else { return }
        entry.set("body", body)
        touch(&entry)
        try save(entry)
    }

    /// C9 on the phone: a moment that lost a same-square conflict (or was replaced, C10)
    /// leaves this person's entries and photos that are still waiting to be pushed on a
    /// tombstone; they move onto the moment that was kept, keeping their own stamps.
    /// Parts the server already has are the server's to move (and pulls bring them): a
    /// stale copy here must not overwrite a newer one there.
    private func moveOwnParts(from loser: UUID, toward kept: UUID) throws {
        guard let me = account.user, let target = try liveEnd(ofMerges: kept) else { return }
        for table in [SyncedTable.momentEntries, .photos] {
            let author = table == .momentEntries ? "author_id" : "user_id"
            for var part in try rows(table, where: "moment_id = ? and \(author) = ? and deleted = 0", [loser.lowercased, me.lowercased])
            where try isQueued(table, part.id) {
                part.set("moment_id", uuid: target)
                try write(part)
            }
        }
    }

    /// Follows `merged_into` from `moment` (at most 8 hops, as the server does) to a live moment.
    func liveEnd(ofMerges moment: UUID) throws -> UUID? {
        var current = moment
        for _ in 0..<8 {
            guard let row = try row(.moments, current) else { return nil }
            if !row.deleted { return current }
            guard let next = row.uuid("merged_into") else { return nil }
            current = next
        }
        return nil
    }

    /// P5: a `group_unshares` row removes someone's entry or photo from this phone,
    /// unless the phone's copy is newer than the unshare (it was shared again).
    @discardableResult
    public func applyUnshare(_ unshare: JSON) throws -> Bool {
        guard let object = unshare["object_id"].uuid,
              let table: SyncedTable = switch unshare["object_type"].string { case "entry": .momentEntries; case "photo": .photos; default: nil }
        else { return false }
        return try transaction {
            guard let local = try row(table, object) else { return false }
            if let mine = account.user, local.uuid(table == .momentEntries ? "author_id" : "user_id") == mine { return false }
            if let copy = local.serverUpdatedAt, let unshared = unshare["server_updated_at"].timestamp, copy > unshared { return false }
            try erase(table, object)
            return true
        }
    }
}
