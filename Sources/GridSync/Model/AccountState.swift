import Foundation

/// Whose data the phone holds (spec §6.8): the states a phone moves through.
///
///     neverSignedIn ──sign in──▶ signedIn(user)   (the phone's data is adopted by user)
///     signedIn(user) ──sign out──▶ signedOut        (the phone is emptied)
///     signedOut ──sign in──▶ signedIn(anyone)      (starts empty)
public enum AccountState: Sendable, Hashable, CustomStringConvertible {
    /// "Continue on this phone only": rows are made with no owner, and kept for the first account.
    case neverSignedIn
    case signedIn(user: UUID, username: String?)
    case signedOut

    public var user: UUID? {
        if case .signedIn(let user, _) = self { return user }
        return nil
    }

    public var description: String {
        switch self {
        case .neverSignedIn: "on this phone only (never signed in)"
        case .signedIn(let user, let username): "signed in as \(username ?? user.lowercased)"
        case .signedOut: "signed out"
        }
    }
}
