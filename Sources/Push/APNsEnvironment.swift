/// Which APNs a device token belongs to: development builds get sandbox tokens,
/// App Store and TestFlight builds production ones. A token sent to the other one fails.
public enum APNsEnvironment: String, Sendable, Codable, CaseIterable {
    case sandbox
    case production
}
