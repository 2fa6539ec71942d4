import Foundation
import JSONDepth
@testable import Relay
import Testing

/// The relay reads the server's packets with a scanner and leaves everything
/// else to JSONDecoder: both must give the same packet, or both refuse.
@Suite struct PositionPacketScannerTests {
    private static func scan(_ payload: String) -> PositionPacket? {
        var payload = payload
        return payload.withUTF8 { PositionPacket.scanned($0) }
    }

    private static func decode(_ payload: String) -> PositionPacket? {
        try? JSONDecoder().decode(PositionPacket.self, from: Data(payload.utf8))
    }

    @Test func encodedPacketsScanToWhatJSONDecoderReads() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
            let packet = PositionPacket(
                userID: UUID(), name: maybe("Ann Ö \(Int.random(in: 0..<100))"),
                latitude: Double.random(in: -90...90), longitude: Double.random(in: -180...180),
                capturedMicros: Int64.random(in: 1_700_000_000_000_000...1_900_000_000_000_000),
                accuracy: maybe(Double.random(in: 0.1...10_000)), altitude: maybe(Double.random(in: -500...9000)),
                speed: maybe(Double.random(in: 0...100)), heading: maybe(Double.random(in: 0..<360)),
                nodeID: maybe("n\(Int.random(in: 0..<99_999))"), edgeID: maybe("e:\(Int.random(in: 0..<99_999))_s1"),
                edgeFraction: maybe(Double.random(in: 0...1)), resortID: "resort-\(Int.random(in: 0..<50))")
            let payload = String(decoding: try JSONEncoder().encode(packet), as: UTF8.self)
            let scanned = try #require(Self.scan(payload), "the scanner reads an encoded packet: \(payload)")
            #expect(scanned == Self.decode(payload), "\(payload)")
            #expect(scanned.capturedMicros == packet.capturedMicros)
        }
    }

    @Test func theServersShapesScan() throws {
        let payload = #"{"u" : "50FA8726-477A-44CD-B3F9-3502449CC853", "lat" : 39.6403, "lon" : -106.3742, "at" : 1795968450.922001, "acc" : 5, "alt" : null, "x" : 1e3, "r" : "vail"}"#
        let packet = try #require(Self.scan(payload))
        #expect(packet == Self.decode(payload))
        #expect(packet.capturedMicros == 1_795_968_450_922_001 && packet.altitude == nil && packet.accuracy == 5)
    }

    /// Forms the scanner leaves to JSONDecoder, which reads them or refuses them on its own.
    @Test func otherFormsFallBackAndAgree() throws {
        let user = "50fa8726-477a-44cd-b3f9-3502449cc853"
        let fallingBack = [
            #"{"u":"\#(user)","n":"A\"nn","lat":1,"lon":2,"at":3,"r":"vail"}"#,
            #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":"vail","extra":{"a":1}}"#,
            #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":"vail","flag":true}"#,
            #"{"u":"\#(user)","lat":01,"lon":2,"at":3,"r":"vail"}"#,
            #"{"u":"\#(user)","lat":1.,"lon":2,"at":3,"r":"vail"}"#,
            #"{"u":"\#(user)","lat":"1","lon":2,"at":3,"r":"vail"}"#,
            #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":null}"#,
            #"{"u":"\#(user)","lat":1,"lon":2,"r":"vail"}"#,
            #"{"u":"not-a-uuid","lat":1,"lon":2,"at":3,"r":"vail"}"#,
            #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":"vail"} trailing"#,
            #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":"vail",}"#,
            "not json", "", "{}",
        ]
        for payload in fallingBack {
            #expect(Self.scan(payload) == nil, "\(payload)")
            #expect((try? PositionPacket(payload: payload)) == Self.decode(payload), "\(payload)")
        }
        // An escaped name is read, by JSONDecoder.
        #expect(try PositionPacket(payload: fallingBack[0]).name == "A\"nn")
    }

    /// The scanner gives up at the first bracket; what it leaves to JSONDecoder is
    /// checked for depth first, so the refusal names the limit.
    @Test func payloadsNestedPastTheLimitAreRefusedByDepth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let user = "50fa8726-477a-44cd-b3f9-3502449cc853"
        let head = #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":"vail","extra":"#
        let inPacket = head + deep + "}"
        #expect(Self.scan(inPacket) == nil && Self.scan(deep) == nil)
        #expect(throws: JSONTooDeep(offset: 512)) { try PositionPacket(payload: deep) }
        #expect(throws: JSONTooDeep(offset: head.utf8.count + 511)) { try PositionPacket(payload: inPacket) }
        #expect(throws: JSONTooDeep(offset: 512)) { try MeetRequestNotice(payload: deep) }
        #expect(throws: JSONTooDeep(offset: 512)) { try SocialSnapshot(json: deep) }

        // Flat payloads still read, through either path.
        #expect(try PositionPacket(payload: #"{"u":"\#(user)","lat":1,"lon":2,"at":3,"r":"vail","extra":[[1]]}"#).resortID == "vail")
        #expect(try MeetRequestNotice(payload: #"{"table":"meet_requests","id":"7","event":"update"}"#)
            == MeetRequestNotice(table: "meet_requests", id: "7", event: "update"))
        #expect(try SocialSnapshot(json: #"{"generation":4,"friends":[],"blocks":[]}"#).generation == 4)
    }
}
