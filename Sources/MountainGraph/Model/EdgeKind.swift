/// What a directed edge is: a downhill run, a lift ride, or a connector
/// (`piste:type=connection`, a "traverse").
public enum EdgeKind: String, Sendable, CaseIterable {
    case run, lift, traverse

    /// The stable edge id prefix: `t` downhill piste, `l` aerialway, `c` connection.
    var idPrefix: String {
        switch self {
        case .run: return "t"
        case .lift: return "l"
        case .traverse: return "c"
        }
    }
}
