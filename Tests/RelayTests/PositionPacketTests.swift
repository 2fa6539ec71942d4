import Foundation
import Relay
import Testing

@Suite struct PositionPacketTests {
    @Test func theServersPacketDecodesToTheMicrosecond() throws {
        let payload = """
            {"u":"50fa8726-477a-44cd-b3f9-3502449cc853","n":"Ann","lat":39.6403,"lon":-106.3742,"at":1795968450.922001,\
            "acc":5,"edge":"r12_s2","frac":0.25,"r":"vail"}
            """
        let packet = try PositionPacket(payload: payload)
        #expect(packet.userID == UUID(uuidString: "50fa8726-477a-44cd-b3f9-3502449cc853"))
        #expect(packet.name == "Ann" && packet.resortID == "vail" && packet.edgeID == "r12_s2" && packet.edgeFraction == 0.25)
        #expect(packet.capturedMicros == 1_795_968_450_922_001)
        #expect(packet.nodeID == nil && packet.speed == nil)
        let again = try PositionPacket(payload: String(decoding: try JSONEncoder().encode(packet), as: UTF8.self))
        #expect(again == packet)
    }

    @Test func aPacketWithoutItsRequiredFieldsIsRefused() {
        #expect(throws: (any Error).self) { try PositionPacket(payload: #"{"u":"50fa8726-477a-44cd-b3f9-3502449cc853","lat":1,"lon":2,"r":"vail"}"#) }
        #expect(throws: (any Error).self) { try PositionPacket(payload: "not json") }
    }

    @Test func channelNamesRoundTripAndResortIDsFitThem() {
        let user = UUID()
        for channel in [RelayChannel.resortPositions("vail"), .cellPositions("9xh3e2"), .friends(user), .meets(user)] {
            #expect(RelayChannel(name: channel.name) == channel)
        }
        #expect(RelayChannel(name: "other:thing") == nil)
        #expect(RelayChannel.isValidResortID(String(repeating: "r", count: 52)))
        #expect(RelayChannel.resortPositions(String(repeating: "r", count: 52)).name.utf8.count == 63)
        #expect(!RelayChannel.isValidResortID(String(repeating: "r", count: 53)))
        #expect(!RelayChannel.isValidResortID("-vail"))
        #expect(!RelayChannel.isValidResortID("vail resort"))
        #expect(!RelayChannel.isValidResortID(""))
    }
}
