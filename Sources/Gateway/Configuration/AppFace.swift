/// An app Summit serves in the app's own names. Its API keys are signed with the
/// project's secret like the others and carry the app in an `app` claim; a request
/// made with one addresses the app's face (a schema of views and functions over the
/// core model) wherever the app's client library leaves the schema unnamed.
public enum AppFace: String, Sendable, CaseIterable {
    case powdermeet
    /// AirStrive: the core's grids and social names in one schema (sql/faces/airstrive.sql).
    case airstrive

    /// The schema REST reads and writes for this app when no profile header names one.
    public var schema: String { rawValue }

    /// The configuration's names for the app's key pair.
    public var anonKeyName: String { "SUMMIT_\(rawValue.uppercased())_ANON_KEY" }
    public var serviceRoleKeyName: String { "SUMMIT_\(rawValue.uppercased())_SERVICE_ROLE_KEY" }

    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The storage bucket a bucket name of the app's means: its own where the app and
    /// the core share a name (both call their pictures' bucket `avatars`).
    public func bucket(_ requested: String) -> String {
        switch (self, requested) {
        case (.powdermeet, "avatars"): "powdermeet-avatars"
        default: requested
        }
    }

    /// The bucket a keyless public read means: an app's own where the object's name has
    /// the shape only that app gives it (PowderMeet's `<user id>/avatar.jpg`).
    public static func publicBucket(_ requested: String, name: String) -> String {
        if requested == "avatars", name.range(of: #"^[0-9a-f-]{36}/avatar\.jpg$"#, options: .regularExpression) != nil {
            return AppFace.powdermeet.bucket(requested)
        }
        return requested
    }
}

/// One app's anon and service role keys.
public struct AppKeys: Sendable, Equatable {
    public var anon: String
    public var serviceRole: String
}
