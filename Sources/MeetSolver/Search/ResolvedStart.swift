/// A start checked against the graph: a node, or an edge and how far along it.
struct ResolvedStart: Sendable, Equatable {
    enum Place: Sendable, Equatable {
        case node(Int32)
        case edge(Int32, fraction: Double)
    }

    var place: Place
    var accuracyMeters: Double?
    /// The exact origin the route starts from, as stored with a meet.
    var origin: RoutingOrigin
}
