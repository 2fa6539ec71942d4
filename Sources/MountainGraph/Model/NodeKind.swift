/// The role of a graph node, by the priority
/// liftBase/liftTop > midStation > junction > trailHead > trailEnd.
public enum NodeKind: String, Sendable, CaseIterable {
    case liftBase, liftTop, midStation, junction, trailHead, trailEnd
}
