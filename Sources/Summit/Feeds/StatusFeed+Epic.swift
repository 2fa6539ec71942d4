import Foundation
import MountainGraph

extension StatusFeed {
    /// The Epic (Vail Resorts) terrain feed, as its terrain-and-lift-status pages
    /// embed it: `FR.TerrainStatusFeed = {"Lifts": [{"Name": …, "Status": 0…3,
    /// "WaitTimeInMinutes": …}], "GroomingAreas": [{"Name": …, "Runs": [{"Name": …,
    /// "IsOpen": bool}]}]}`. Lift status 0 is closed, 1 open, 2 on hold,
    /// 3 scheduled (the words themselves are read too). The feed carries no time
    /// of its own: the fetch time is its observation time.
    static func epic(_ document: JSONValue) throws -> StatusFeed {
        let fix = "the Epic feed changed shape or this is not one; check the page, or use a summit-status/1 feed"
        var entries: [Entry] = []
        for (index, lift) in document["Lifts"].array.enumerated() {
            guard let name = lift["Name"].string, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw FeedError("Lifts[\(index)] has no Name", fix: fix)
            }
            let state: String
            switch lift["Status"] {
            case let .number(code) where code == 0: state = "closed"
            case let .number(code) where code == 1: state = "open"
            case let .number(code) where code == 2: state = "hold"
            case let .number(code) where code == 3: state = "scheduled"
            case let .string(word) where ["open", "closed", "hold", "onhold", "on hold", "scheduled"].contains(word.lowercased()):
                state = word.lowercased().contains("hold") ? "hold" : word.lowercased()
            default:
                throw FeedError("Lifts[\(index)] (\(name)) has an unknown Status", fix: fix)
            }
            var wait: Double?
            if case let .number(minutes) = lift["WaitTimeInMinutes"], minutes >= 0, minutes <= 600 { wait = minutes }
            entries.append(Entry(name: name, kind: .lift, isOpen: state == "open", waitMinutes: wait, state: state))
        }
        for (areaIndex, area) in document["GroomingAreas"].array.enumerated() {
            for (index, run) in area["Runs"].array.enumerated() {
                guard let name = run["Name"].string, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw FeedError("GroomingAreas[\(areaIndex)].Runs[\(index)] has no Name", fix: fix)
                }
                guard let open = run["IsOpen"].bool else {
                    throw FeedError("GroomingAreas[\(areaIndex)].Runs[\(index)] (\(name)) has no IsOpen", fix: fix)
                }
                entries.append(Entry(name: name, kind: .trail, isOpen: open, waitMinutes: nil, state: open ? "open" : "closed"))
            }
        }
        guard !entries.isEmpty else {
            throw FeedError("the Epic feed lists no lifts and no runs", fix: fix)
        }
        return StatusFeed(format: .epic, entries: entries)
    }

    /// The object literal after `TerrainStatusFeed =` in a terrain page, or nil
    /// when the text is not such a page. Braces inside strings are skipped.
    static func embeddedEpicObject(in text: String) -> String? {
        guard let marker = text.range(of: "TerrainStatusFeed") else { return nil }
        let bytes = Array(text.utf8[marker.upperBound...])
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }
        guard let equals = bytes.firstIndex(where: { !isSpace($0) }), bytes[equals] == UInt8(ascii: "="),
              let open = bytes[(equals + 1)...].firstIndex(where: { !isSpace($0) }), bytes[open] == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in open..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return String(decoding: bytes[open...index], as: UTF8.self) }
            default: break
            }
        }
        return nil
    }
}
