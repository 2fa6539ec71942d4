import Foundation
import MeetSolver
import MountainGraph

extension StatusFeed {
    /// Summit's own feed, `summit-status/1`:
    ///
    ///     {"format": "summit-status/1", "resort_id": "demo-7",
    ///      "dataset_version": "m1-v15-<sha>",            (optional; or "manifest_version": 1)
    ///      "observed_at": "2026-01-14T09:00:00Z",        (optional; ISO-8601 or Unix seconds)
    ///      "expires_at": "2026-01-14T10:00:00Z",         (optional; default observed + 1 h)
    ///      "counts": {"lifts": 2, "trails": 1},          (optional; must equal the entries sent)
    ///      "lifts": [{"name": "Lift 6-1", "status": "open", "wait_minutes": 4}],
    ///      "trails": [{"name": "Run 5-1a", "status": "closed"}]}
    ///
    /// `status` is open, closed, hold or scheduled; only open lets skiers through.
    static func summit(_ document: JSONValue) throws -> StatusFeed {
        let fix = "see docs/feeds-and-jobs.md for the summit-status/1 format"
        guard document["format"].string == "summit-status/1" else {
            throw FeedError("the feed's \"format\" is \(document["format"].string.map { "\"\($0)\"" } ?? "missing"), not \"summit-status/1\"", fix: fix)
        }
        func instant(_ key: String) throws -> Double? {
            switch document[key] {
            case .null: return nil
            case let .number(seconds): return seconds
            case let .string(text):
                guard let value = MountainStatus.parseInstant(text) else {
                    throw FeedError("\"\(key)\": \(text) is not a time", fix: "write it like 2026-01-14T09:00:00Z")
                }
                return value
            default: throw FeedError("\"\(key)\" must be an ISO-8601 time or Unix seconds", fix: fix)
            }
        }
        func count(_ key: String) throws -> Int? {
            switch document["counts"][key] {
            case .null: return nil
            case let .number(value) where value >= 0 && value == value.rounded(): return Int(value)
            default: throw FeedError("\"counts\".\"\(key)\" must be a whole number", fix: fix)
            }
        }
        var entries: [Entry] = []
        for (key, kind) in [("lifts", GraphIdentity.Kind.lift), ("trails", .trail)] {
            let list: [JSONValue]
            switch document[key] {
            case .null: list = []
            case let .array(items): list = items
            default: throw FeedError("\"\(key)\" must be an array", fix: fix)
            }
            for (index, item) in list.enumerated() {
                guard let name = item["name"].string, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw FeedError("\(key)[\(index)] has no name", fix: fix)
                }
                guard let state = item["status"].string?.lowercased(), ["open", "closed", "hold", "scheduled"].contains(state) else {
                    throw FeedError("\(key)[\(index)] (\(name)) has status \(item["status"].string.map { "\"\($0)\"" } ?? "missing")",
                                    fix: "use open, closed, hold or scheduled")
                }
                var wait: Double?
                switch item["wait_minutes"] {
                case .null: break
                case let .number(minutes) where kind == .lift && minutes >= 0 && minutes <= 600: wait = minutes
                default: throw FeedError("\(key)[\(index)] (\(name)) has a wait_minutes that is not 0…600 minutes on a lift", fix: fix)
                }
                entries.append(Entry(name: name, kind: kind, isOpen: state == "open", waitMinutes: wait, state: state))
            }
        }
        guard !entries.isEmpty else {
            throw FeedError("the feed lists no lifts and no trails", fix: "send at least one entry; an empty feed never replaces a status")
        }
        var manifest: Int?
        switch document["manifest_version"] {
        case .null: break
        case let .number(value) where value >= 1 && value == value.rounded(): manifest = Int(value)
        default: throw FeedError("\"manifest_version\" must be a whole number from 1", fix: fix)
        }
        return StatusFeed(format: .summit, resortID: document["resort_id"].string, datasetVersion: document["dataset_version"].string,
                          manifestVersion: manifest, observedAt: try instant("observed_at"), expiresAt: try instant("expires_at"),
                          declaredLiftCount: try count("lifts"), declaredTrailCount: try count("trails"), entries: entries)
    }
}
