import Foundation

/// A board on the phone's shelf, as the app draws it: every square with its
/// state derived the way the server derives it (R2), never stored.
public struct Board: Sendable, Hashable {
    public var id: UUID
    public var gridID: UUID
    public var title: String
    public var size: Int
    public var audience: Audience
    /// Set when it is a group grid (the board's own id).
    public var groupID: UUID?
    public var squares: [Square]

    public var doneCount: Int { squares.filter { $0.state == .done }.count }
    /// R9: every square done — the chapter cover joins Memory Lane.
    public var isComplete: Bool { !squares.isEmpty && doneCount == size * size }
}

/// One square of a board.
public struct Square: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case hidden, revealed, done
    }

    public var id: UUID
    public var position: Int
    public var state: State
    public var freebie: Bool
    /// The square's prompt, once revealed (nil while hidden, or when the template is not on the phone).
    public var prompt: String?
    /// The live moment on the square.
    public var momentID: UUID?
    public var momentTitle: String?
}
