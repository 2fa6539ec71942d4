/// An edge's direction relative to its source way's OSM vertex order.
public enum EdgeDirection: String, Sendable {
    case forward, reverse
}
