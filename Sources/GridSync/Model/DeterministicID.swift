import Digest
import Foundation

/// Ids derived from names (UUID version 5), so two phones that make "the same"
/// row offline make it with the same id, and the server's own copies (R1
/// squares, rescue moments) match the phone's (spec §6.6).
public enum DeterministicID {
    /// `uuid_generate_v5(uuid_ns_url(), 'urn:airstrive:ids')`.
    public static let namespace = UUID(uuidString: "00172f0c-6407-5cfe-8061-aae8a5f122ba")!

    /// The version 5 UUID of `name` in AirStrive's namespace.
    public static func v5(_ name: String) -> UUID {
        let space = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var digest = SHA1.hash(space + Array(name.utf8))
        digest[6] = (digest[6] & 0x0f) | 0x50
        digest[8] = (digest[8] & 0x3f) | 0x80
        return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                           digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
    }

    /// A starter or curated template: `grid:starter:{key}`.
    public static func starterGrid(_ key: String) -> UUID { v5("grid:starter:\(key)") }

    /// The board a person's starter shelf makes for `key` when the shelf is first started.
    public static func starterShelfBoard(user: UUID, key: String) -> UUID {
        v5("user_grid:\(user.lowercased):\(key)")
    }

    /// Every board's square at `position`, made alike by phones and by the server (R1).
    public static func square(board: UUID, position: Int) -> UUID {
        v5("square:\(board.lowercased):\(position)")
    }

    /// A profile interest picked during onboarding.
    public static func interest(user: UUID, slug: String) -> UUID {
        v5("interest:\(user.lowercased):\(slug)")
    }

    /// A person's entry on a moment, as `start_group` makes it from the moment's body.
    public static func groupEntry(moment: UUID, user: UUID) -> UUID { v5("entry:\(moment.lowercased):\(user.lowercased)") }

    /// The moment the server makes to keep other members' parts of a deleted group moment (C10).
    public static func rescue(moment: UUID) -> UUID { v5("rescue:\(moment.lowercased)") }

    /// The all-zero id: the `device_id` of the server's own writes (C7).
    public static let serverDevice = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension UUID {
    /// Canonical lower-case text, the form ids take in names, in SQLite and on the wire.
    public var lowercased: String { uuidString.lowercased() }
}
