import Postgres

/// The admin site's resort pages, drawn outside the gateway: `summit serve` hands over
/// the resort pipeline's (graph, review figures, the meet picture's drawing), which the
/// gateway cannot import. Each call runs as the signed-in admin, so row level security
/// decides what is read: published datasets only.
public struct AdminResortSource: Sendable {
    /// A resort with a published dataset.
    public struct Resort: Sendable {
        public var id: String
        public var name: String
        /// `m<manifest>-<graph version>-<sha256>` of the active dataset.
        public var identity: String
        public var snapshotDate: String
        public var publishedAt: String

        public init(id: String, name: String, identity: String, snapshotDate: String, publishedAt: String) {
            self.id = id
            self.name = name
            self.identity = identity
            self.snapshotDate = snapshotDate
            self.publishedAt = publishedAt
        }
    }

    /// One resort's page: its graph drawn as SVG, and figures as the review prints them.
    public struct Picture: Sendable {
        public var resort: Resort
        /// Labelled facts (nodes, edges, runs by difficulty, …).
        public var facts: [(label: String, value: String)]
        /// The review's routability figures and meet sample, a line each.
        public var figures: [String]
        public var svg: String

        public init(resort: Resort, facts: [(label: String, value: String)], figures: [String], svg: String) {
            self.resort = resort
            self.facts = facts
            self.figures = figures
            self.svg = svg
        }
    }

    public typealias List = @Sendable (Caller) async throws -> [Resort]
    public typealias Draw = @Sendable (String, Caller) async throws -> Picture?

    let list: List
    let draw: Draw

    public init(list: @escaping List, draw: @escaping Draw) {
        self.list = list
        self.draw = draw
    }
}
