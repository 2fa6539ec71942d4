/// One reason a build was refused, naming the identity and ways involved.
public struct BuildFailure: Sendable, Equatable, CustomStringConvertible {
    /// Machine-readable failure codes, as returned by the build RPC.
    public enum Code: String, Sendable, CaseIterable {
        case manifestUnreadable = "manifest_unreadable"
        case countMismatch = "count_mismatch"
        case duplicateIdentity = "duplicate_identity"
        case missingIdentity = "missing_identity"
        case multiplyClaimed = "multiply_claimed"
        case kindMismatch = "kind_mismatch"
        case disconnectedIdentity = "disconnected_identity"
        case branchedIdentity = "branched_identity"
        case missingElevation = "missing_elevation"
        /// A routable way references a vertex the snapshot lacks.
        case missingVertex = "missing_vertex"
        case rendezvousAnchorUnresolved = "rendezvous_anchor_unresolved"
        case integrity
    }

    public var code: Code
    /// `"trail:<name>"` / `"lift:<name>"` when the failure concerns an identity.
    public var identity: String?
    public var wayIDs: [Int64]
    /// What is wrong and what to do about it.
    public var message: String

    public init(code: Code, identity: String? = nil, wayIDs: [Int64] = [], message: String) {
        self.code = code
        self.identity = identity
        self.wayIDs = wayIDs
        self.message = message
    }

    public var description: String {
        var text = code.rawValue
        if let identity { text += " [\(identity)]" }
        if !wayIDs.isEmpty { text += " ways \(wayIDs.map(String.init).joined(separator: ","))" }
        return text + ": " + message
    }
}

/// A refused build: every failure found, in a stable order. Nothing was produced.
public struct GraphBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    public let failures: [BuildFailure]

    init(failures: [BuildFailure]) {
        self.failures = failures.sorted { a, b in
            if a.code.rawValue != b.code.rawValue { return a.code.rawValue < b.code.rawValue }
            if (a.identity ?? "") != (b.identity ?? "") { return utf8Less(a.identity ?? "", b.identity ?? "") }
            if a.wayIDs != b.wayIDs { return a.wayIDs.lexicographicallyPrecedes(b.wayIDs) }
            return utf8Less(a.message, b.message)
        }
    }

    public var description: String {
        "graph build refused (\(failures.count) problem\(failures.count == 1 ? "" : "s")):\n"
            + failures.map { "  - \($0)" }.joined(separator: "\n")
    }

    /// The identities named by any failure, sorted.
    public var identities: [String] {
        Array(Set(failures.compactMap(\.identity))).sorted(by: utf8Less)
    }
}
