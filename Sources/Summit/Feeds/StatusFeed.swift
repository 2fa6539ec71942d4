import Foundation
import MountainGraph

/// A lift and trail status feed, read: what each named lift or trail is
/// doing, and what the producer says about itself (resort, dataset, time,
/// how many entries it sent). Two shapes are read — Summit's own JSON
/// (`summit-status/1`, in docs/feeds-and-jobs.md) and the Epic terrain feed
/// (`FR.TerrainStatusFeed`) — into this one form.
struct StatusFeed: Sendable {
    enum Format: String, Sendable, Codable, CaseIterable {
        case summit
        case epic
    }

    /// One line of the feed: a lift or a trail by the vendor's name.
    struct Entry: Sendable, Equatable {
        var name: String
        /// Nil when the feed does not say (then lifts and trails are both candidates).
        var kind: GraphIdentity.Kind?
        var isOpen: Bool
        /// Minutes in the queue, for lifts that report it.
        var waitMinutes: Double?
        /// The vendor's own word for the state ("open", "hold", "scheduled", …), for the report.
        var state: String
    }

    var format: Format
    var resortID: String?
    /// `m<manifest>-<graph version>-<sha>`, when the producer names the dataset it describes.
    var datasetVersion: String?
    var manifestVersion: Int?
    /// Unix seconds; nil when the feed carries no time (then the fetch time counts).
    var observedAt: Double?
    var expiresAt: Double?
    /// How many lifts and trails the producer says it sent; checked against the entries.
    var declaredLiftCount: Int?
    var declaredTrailCount: Int?
    var entries: [Entry]

    /// Reads a feed document. With no format given the shape decides: a
    /// `"format": "summit-status/1"` document is Summit's own, a document with
    /// `Lifts` (or a page embedding `FR.TerrainStatusFeed = {…}`) is Epic's.
    static func parse(_ bytes: [UInt8], format: Format? = nil) throws -> StatusFeed {
        let text = String(decoding: bytes, as: UTF8.self)
        let document: JSONValue
        if let embedded = Self.embeddedEpicObject(in: text) {
            guard format != .summit else {
                throw FeedError("the document is an Epic terrain page, not a summit-status/1 feed", fix: "use --format epic, or point at a summit-status/1 document")
            }
            document = try Self.json(embedded, what: "the FR.TerrainStatusFeed object")
            return try Self.epic(document)
        }
        document = try Self.json(text, what: "the status feed")
        switch format ?? Self.detect(document) {
        case .summit: return try Self.summit(document)
        case .epic: return try Self.epic(document)
        case nil:
            throw FeedError("the status feed is neither a summit-status/1 document nor an Epic terrain feed",
                            fix: "send {\"format\": \"summit-status/1\", \"lifts\": […], \"trails\": […]} (see docs/feeds-and-jobs.md) or the Epic FR.TerrainStatusFeed")
        }
    }

    private static func detect(_ document: JSONValue) -> Format? {
        if document["format"].string?.hasPrefix("summit-status/") == true { return .summit }
        if case .array = document["Lifts"] { return .epic }
        if case .array = document["GroomingAreas"] { return .epic }
        return nil
    }

    static func json(_ text: String, what: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw FeedError("\(what) is not valid JSON", fix: "check that the URL or file is the feed itself, not an error page")
        }
    }

    /// The number of entries the feed lists of one kind.
    func count(of kind: GraphIdentity.Kind) -> Int { entries.filter { $0.kind == kind }.count }
}
