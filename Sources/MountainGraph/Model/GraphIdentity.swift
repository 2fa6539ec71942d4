/// A canonical identity as realised in a built graph: its directed chains.
public struct GraphIdentity: Sendable, Equatable {
    public enum Kind: String, Sendable { case trail, lift }

    public var kind: Kind
    public var name: String
    /// The OSM ways it claims, ascending.
    public var wayIDs: [Int64]
    /// One ordered list of edge ids per direction: the primary direction first
    /// (downhill / base→top), then the `_r` direction when it exists.
    public var chains: [[String]]

    public init(kind: Kind, name: String, wayIDs: [Int64], chains: [[String]]) {
        self.kind = kind
        self.name = name
        self.wayIDs = wayIDs
        self.chains = chains
    }

    /// `"trail:<name>"` or `"lift:<name>"`.
    public var key: String { "\(kind.rawValue):\(name)" }
}
