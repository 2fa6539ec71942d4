import Foundation

extension GridStore {
    /// Writes this person's words on a group moment: their entry, made or changed.
    @discardableResult
    public func writeEntry(moment id: UUID, body: String, audience: PartAudience? = nil) throws -> UUID {
        try requireWritable()
        return try transaction {
            let moment = try liveMoment(id)
            guard moment.groupID != nil else {
                throw GridStoreError("entries belong to group grids", fix: "edit the moment's own words instead")
            }
            return try writeOwnEntry(on: moment, body: body, audience: audience)
        }
    }

    /// Changes who in the group sees this person's entry or photo.
    public func setPartAudience(_ table: SyncedTable, _ id: UUID, _ audience: PartAudience) throws {
        try requireWritable()
        try transaction {
            var part = try ownLivePart(table, id)
            guard part.groupID != nil else {
                throw GridStoreError("only a group grid's entries and photos have their own audience", fix: "change the moment's audience instead")
            }
            part.set("audience", audience.rawValue)
            touch(&part)
            try save(part)
        }
    }

    /// Deletes this person's entry or photo.
    public func deletePart(_ table: SyncedTable, _ id: UUID) throws {
        try requireWritable()
        try transaction {
            var part = try ownLivePart(table, id)
            part.set("deleted", true)
            if table == .momentEntries { part.set("body", "") }
            touch(&part)
            try save(part)
            if table == .photos { try removeFile(ofPhoto: id) }
        }
    }

    @discardableResult
    func writeOwnEntry(on moment: SyncRow, body: String, audience: PartAudience?) throws -> UUID {
        let me = try requireUser()
        guard body.count <= 10_000 else {
            throw GridStoreError("an entry is at most 10,000 characters, not \(body.count)", fix: "shorten it")
        }
        if var entry = try rows(.momentEntries, where: "moment_id = ? and author_id = ? and deleted = 0",
                                [moment.id.lowercased, me.lowercased]).first {
            entry.set("body", body)
            if let audience { entry.set("audience", audience.rawValue) }
            touch(&entry)
            try save(entry)
            return entry.id
        }
        var entry = newRow(.momentEntries)
        entry.set("moment_id", uuid: moment.id)
        entry.set("author_id", uuid: me)
        entry.set("group_id", uuid: moment.groupID)
        entry.set("body", body)
        entry.set("audience", (audience ?? .private).rawValue)
        try save(entry)
        return entry.id
    }

    /// Adds a photo to a moment: the file goes in the documents folder now, and up to
    /// `photos/{user_id}/{photo_id}.webp` after its row is pushed.
    @discardableResult
    public func addPhoto(moment id: UUID, bytes: [UInt8], width: Int? = nil, height: Int? = nil,
                         audience: PartAudience? = nil) throws -> UUID {
        try requireWritable()
        guard !bytes.isEmpty, bytes.count <= 10_485_760 else {
            throw GridStoreError("a photo is 1 byte to 10 MiB, not \(bytes.count) bytes", fix: "pick a smaller photo")
        }
        return try transaction {
            let moment = try liveMoment(id)
            let me = account.user
            let mine = try database.scalar("select count(*) from photos where moment_id = ? and deleted = 0 and user_id is ?",
                                           [id.lowercased, me?.lowercased]).int ?? 0
            guard mine < 10 else {
                throw GridStoreError("this moment already holds 10 of your photos", fix: "delete one first")
            }
            if moment.groupID == nil, moment.uuid("user_id") != me {
                throw GridStoreError("photos go on your own moments", fix: "add it to one of yours")
            }
            var photo = newRow(.photos)
            let relative = "photos/\(photo.id.lowercased).webp"
            try Data(bytes).write(to: folder.appendingPathComponent(relative), options: .atomic)
            let sort = try database.scalar("select coalesce(max(sort), -1) + 1 from photos where moment_id = ?", [id.lowercased]).int ?? 0
            photo.set("moment_id", uuid: id)
            photo.set("user_id", uuid: me)
            photo.set("group_id", uuid: moment.groupID)
            photo.set("storage_path", me.map { "\($0.lowercased)/\(photo.id.lowercased).webp" })
            photo.set("audience", moment.groupID == nil ? nil : (audience ?? .private).rawValue)
            photo.set("sort", sort)
            photo.set("width", width)
            photo.set("height", height)
            photo.set("byte_size", bytes.count)
            photo.set("local_path", relative)
            try save(photo)
            return photo.id
        }
    }

    /// The photo's file on this phone, when it has one.
    public func photoFile(_ id: UUID) throws -> URL? {
        guard let relative = try row(.photos, id)?.text("local_path") else { return nil }
        let url = folder.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    func removeFile(ofPhoto id: UUID) throws {
        guard let photo = try row(.photos, id), let relative = photo.text("local_path") else { return }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(relative))
        try database.run("update photos set local_path = null where id = ?", [id.lowercased])
    }

    /// Keeps a downloaded file for a photo, relative to the documents folder.
    func storeFile(ofPhoto id: UUID, bytes: [UInt8]) throws {
        let relative = "photos/\(id.lowercased).webp"
        try Data(bytes).write(to: folder.appendingPathComponent(relative), options: .atomic)
        try database.run("update photos set local_path = ? where id = ?", [relative, id.lowercased])
    }

    private func ownLivePart(_ table: SyncedTable, _ id: UUID) throws -> SyncRow {
        let me = account.user
        guard [.momentEntries, .photos].contains(table), let part = try row(table, id), !part.deleted else {
            throw GridStoreError("there is no entry or photo \(id.lowercased) on this phone", fix: "look at the moment to find its parts")
        }
        guard part.uuid(table == .momentEntries ? "author_id" : "user_id") == me else {
            throw GridStoreError("only its author changes an entry or a photo", fix: "change your own instead")
        }
        return part
    }
}
