/// Why no meeting point was produced. A strict solve never relaxes a rule to
/// produce a result; it returns the first of these that applies, in this order.
public enum MeetFailure: Error, Sendable, Equatable {
    /// A live meet was asked for on a map without canonical identity.
    case nonCanonicalDataset
    /// The status sidecar is missing, of another identity, future-dated or expired.
    case operationalStatusUnavailable(StatusUsability)
    /// A start is unknown, closed, too far from any open edge, or from a fix that is not routing-grade.
    case startUnresolved(skierID: String, reason: String)
    /// The dataset has no rendezvous points on its graph.
    case noRendezvousCatalog
    /// Some meeting point would be reachable if ability gates were ignored.
    case abilityGated
    /// Some meeting point would be reachable if closures (and lift hours) were ignored.
    case closures
    case noRoute

    /// The stable name clients switch on.
    public var code: String {
        switch self {
        case .nonCanonicalDataset: return "nonCanonicalDataset"
        case .operationalStatusUnavailable: return "operationalStatusUnavailable"
        case .startUnresolved: return "startUnresolved"
        case .noRendezvousCatalog: return "noRendezvousCatalog"
        case .abilityGated: return "abilityGated"
        case .closures: return "closures"
        case .noRoute: return "noRoute"
        }
    }

    /// What is wrong and what to do about it.
    public var explanation: String {
        switch self {
        case .nonCanonicalDataset:
            return "this map has no canonical identity, so it cannot carry a live meet; publish the resort's canonical dataset and plan on it"
        case let .operationalStatusUnavailable(usability):
            return "\(usability.explanation); record a current status sidecar for this exact dataset, then plan again"
        case let .startUnresolved(skier, reason):
            return "the start of \(skier) cannot be used: \(reason); send a fresh fix on a trail or lift, or give a node or edge start"
        case .noRendezvousCatalog:
            return "the dataset has no rendezvous points on its graph; add reviewed rendezvous points to the manifest and rebuild"
        case .abilityGated:
            return "every meeting point needs terrain above one skier's ability; meet somewhere easier or change the skill level"
        case .closures:
            return "closed runs or lifts (or lift hours) cut every meeting point off; wait for lifts to open or plan later"
        case .noRoute:
            return "no meeting point is reachable by both skiers on this graph; check that both are on connected parts of the resort"
        }
    }
}
