/// Where one subscriber is in the presence lifecycle (spec §7.5):
/// `idle → hydratingSocial → subscribingChannels → live → tearingDown → idle`.
public enum PresencePhase: String, Sendable, Codable {
    /// No resort: nothing is listened to, nothing delivered.
    case idle
    /// Loading the social snapshot the friend filter needs before any position.
    case hydratingSocial
    /// LISTENing on the resort channel and reading stored positions (live packets
    /// already flow: nothing that arrives meanwhile is lost).
    case subscribingChannels
    /// Streaming.
    case live
    /// Releasing channels and clearing what belonged to the old resort.
    case tearingDown

    /// Whether positions may reach the subscriber in this phase.
    public var acceptsPositions: Bool { self == .subscribingChannels || self == .live }
}
