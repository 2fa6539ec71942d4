import Foundation
import MountainGraph

/// A feed's names mapped onto one published graph's identities, and from
/// there onto every stable edge id of each identity (both directions).
///
/// A name maps when exactly one identity of its kind carries it — the exact
/// canonical name first, else the same normalized key (case, accents and
/// punctuation aside, "Born  Free" = "born free"). A name no identity
/// carries, or that two or more carry, is omitted and reported, never
/// guessed; so is an identity the feed names twice with different states.
/// Identities the feed does not name stay absent: they keep their structural
/// state (spec §6.7, OQ-28).
struct StatusFeedMapping: Sendable {
    struct Omission: Sendable, Encodable, Equatable {
        var name: String
        var kind: String?
        /// `unknown`, `ambiguous` or `conflicting`.
        var reason: String
        /// The identities an ambiguous name matched, or the states a conflicting one had.
        var candidates: [String]
    }

    struct EdgeEntry: Sendable, Codable, Equatable {
        var isOpen: Bool
        var waitMinutes: Double?

        enum CodingKeys: String, CodingKey {
            case isOpen = "is_open"
            case waitMinutes = "wait_minutes"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isOpen, forKey: .isOpen)
            try container.encode(waitMinutes, forKey: .waitMinutes)
        }
    }

    /// Stable edge id → state, ready for `mountain.record_resort_status`.
    var edges: [String: EdgeEntry]
    /// Identity key (`lift:Lift 6-1`) → the feed's state word, for the report.
    var mapped: [String: String]
    var omitted: [Omission]

    init(feed: StatusFeed, graph: MountainGraph) {
        var byExact: [String: [GraphIdentity]] = [:]
        var byKey: [String: [GraphIdentity]] = [:]
        for identity in graph.identities {
            byExact[TrailNames.exact(identity.name), default: []].append(identity)
            byKey[TrailNames.normalizedKey(identity.name), default: []].append(identity)
        }
        var omitted: [Omission] = []
        var claims: [String: (identity: GraphIdentity, entries: [StatusFeed.Entry])] = [:]
        for entry in feed.entries {
            func ofKind(_ list: [GraphIdentity]?) -> [GraphIdentity] {
                (list ?? []).filter { entry.kind == nil || $0.kind == entry.kind }
            }
            var candidates = ofKind(byExact[TrailNames.exact(entry.name)])
            if candidates.isEmpty { candidates = ofKind(byKey[TrailNames.normalizedKey(entry.name)]) }
            switch candidates.count {
            case 1:
                let identity = candidates[0]
                claims[identity.key, default: (identity, [])].entries.append(entry)
            case 0:
                omitted.append(Omission(name: entry.name, kind: entry.kind?.rawValue, reason: "unknown", candidates: []))
            default:
                omitted.append(Omission(name: entry.name, kind: entry.kind?.rawValue, reason: "ambiguous",
                                        candidates: candidates.map(\.key).sorted()))
            }
        }
        var edges: [String: EdgeEntry] = [:]
        var mapped: [String: String] = [:]
        for (key, claim) in claims.sorted(by: { $0.key < $1.key }) {
            let first = claim.entries[0]
            if claim.entries.contains(where: { $0.isOpen != first.isOpen || $0.waitMinutes != first.waitMinutes }) {
                omitted.append(Omission(name: claim.identity.name, kind: claim.identity.kind.rawValue, reason: "conflicting",
                                        candidates: claim.entries.map { "\($0.name): \($0.state)" + ($0.waitMinutes.map { " \($0.formatted()) min" } ?? "") }))
                continue
            }
            mapped[key] = first.state
            for chain in claim.identity.chains {
                for (position, edgeID) in chain.enumerated() {
                    // Waits belong on the queue-entry edge: the first of a lift's chain.
                    let wait = claim.identity.kind == .lift && position == 0 ? first.waitMinutes : nil
                    edges[edgeID] = EdgeEntry(isOpen: first.isOpen, waitMinutes: wait)
                }
            }
        }
        self.edges = edges
        self.mapped = mapped
        self.omitted = omitted.sorted { ($0.reason, $0.name) < ($1.reason, $1.name) }
    }
}
