import Foundation
import Postgres

/// Publishes position samples the way a phone does: `meet.broadcast_position`
/// as the user, one transaction and one round trip per sample.
public enum PositionPublisher {
    /// What the server did with a sample.
    public enum Outcome: Sendable, Equatable {
        /// Stored and notified on these channels; `packetBytes` is the payload's size.
        case published(geohash6: String, channels: [String], packetBytes: Int)
        /// Not newer than the stored sample (captured at `storedCapturedAt`): dropped, nothing notified.
        case ignored(storedCapturedAt: Date?)
    }

    /// The server refused the sample: `code` is the stable reason, `hint` what to do.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var code: String
        public var hint: String?

        public init(code: String, hint: String?) {
            self.code = code
            self.hint = hint
        }

        public var description: String {
            "meet.broadcast_position refused: \(code)" + (hint.map { " (\($0))" } ?? "")
        }
    }

    /// Publishes `sample` as `user` on `connection` (outside any transaction).
    public static func publish(_ sample: PositionSample, as user: UUID, on connection: PostgresConnection) async throws -> Outcome {
        let query: PostgresQuery = """
            select a ->> 'status' as status, a ->> 'geohash6' as geohash6,
                   (a ->> 'packet_bytes')::int as packet_bytes, (a ->> 'stored_captured_at')::timestamptz as stored_captured_at
            from meet.broadcast_position(
              p_resort_id => \(sample.resortID), p_lat => \(sample.latitude), p_lon => \(sample.longitude),
              p_captured_at => \(sample.capturedAt), p_accuracy_m => \(sample.accuracy), p_altitude_m => \(sample.altitude),
              p_speed_mps => \(sample.speed), p_heading_deg => \(sample.heading), p_node_id => \(sample.nodeID),
              p_edge_id => \(sample.edgeID), p_edge_fraction => \(sample.edgeFraction)) a
            """
        // The answer is taken apart in SQL and read by position: no JSON is parsed here on the hot path.
        let row: PostgresRow
        do {
            row = try await connection.query(query, as: .user(user))[0]
        } catch let error as PostgresError where error.code == .raiseException {
            throw Refusal(code: error.message, hint: error.hint)
        }
        if try row.decode(String.self, at: 0) == "published" {
            let cell = try row.decode(String.self, at: 1)
            // The channels the RPC notified (it reports the same two names).
            return .published(geohash6: cell, channels: [RelayChannel.cellPositions(cell).name,
                                                        RelayChannel.resortPositions(sample.resortID).name],
                              packetBytes: try row.decode(Int.self, at: 2))
        }
        return .ignored(storedCapturedAt: try row.decode(Date?.self, at: 3))
    }
}
