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

    /// The RPC's answer, taken apart in SQL so no JSON is parsed here on the hot path.
    private struct Answer: Decodable {
        var status: String
        var geohash6: String?
        var channels: [String]?
        var packetBytes: Int?
        var storedCapturedAt: Date?
    }

    /// Publishes `sample` as `user` on `connection` (outside any transaction).
    public static func publish(_ sample: PositionSample, as user: UUID, on connection: PostgresConnection) async throws -> Outcome {
        let query: PostgresQuery = """
            select a ->> 'status' as status, a ->> 'geohash6' as geohash6,
                   array(select jsonb_array_elements_text(a -> 'channels')) as channels,
                   (a ->> 'packet_bytes')::int as packet_bytes, (a ->> 'stored_captured_at')::timestamptz as stored_captured_at
            from meet.broadcast_position(
              p_resort_id => \(sample.resortID), p_lat => \(sample.latitude), p_lon => \(sample.longitude),
              p_captured_at => \(sample.capturedAt), p_accuracy_m => \(sample.accuracy), p_altitude_m => \(sample.altitude),
              p_speed_mps => \(sample.speed), p_heading_deg => \(sample.heading), p_node_id => \(sample.nodeID),
              p_edge_id => \(sample.edgeID), p_edge_fraction => \(sample.edgeFraction)) a
            """
        let answer: Answer
        do {
            answer = try await connection.query(query, as: .user(user)).first(as: Answer.self)!
        } catch let error as PostgresError where error.code == .raiseException {
            throw Refusal(code: error.message, hint: error.hint)
        }
        if answer.status == "published" {
            return .published(geohash6: answer.geohash6 ?? "", channels: answer.channels ?? [], packetBytes: answer.packetBytes ?? 0)
        }
        return .ignored(storedCapturedAt: answer.storedCapturedAt)
    }
}
