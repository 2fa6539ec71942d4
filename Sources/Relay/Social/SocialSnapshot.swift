import Foundation
import JSONDepth

/// What the relay needs of `social.get_social_snapshot()`: the generation and
/// whom the user may receive positions from.
public struct SocialSnapshot: Sendable, Equatable, Decodable {
    public struct Person: Sendable, Equatable, Decodable {
        public var userID: UUID
        public var username: String?
        public var displayName: String?

        public init(userID: UUID, username: String? = nil, displayName: String? = nil) {
            self.userID = userID
            self.username = username
            self.displayName = displayName
        }

        /// How a position of theirs is labelled: display name, else username.
        public var label: String? {
            if let displayName, !displayName.isEmpty { return displayName }
            return username
        }

        enum CodingKeys: String, CodingKey {
            case userID = "user_id", username, displayName = "display_name"
        }
    }

    public var generation: Int64
    /// Accepted friends.
    public var friends: [Person]
    /// People the user blocked (a block from either side also ends the friendship;
    /// the filter checks both, in case a snapshot is read mid-change).
    public var blocks: [Person]

    public init(generation: Int64, friends: [Person], blocks: [Person] = []) {
        self.generation = generation
        self.friends = friends
        self.blocks = blocks
    }

    /// The snapshot from `get_social_snapshot()`'s JSON.
    public init(json: String) throws {
        try JSONDepth.check(json.utf8)
        self = try JSONDecoder().decode(SocialSnapshot.self, from: Data(json.utf8))
    }
}
