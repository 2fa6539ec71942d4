import Foundation
import Postgres
import Relay
import SummitTestSupport
import Testing

/// The relay on a real server: who receives what.
@Suite struct RelayDeliveryTests {
    @Test func twoFriendsSeeEachOthersPositions() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            try await people.befriend(ann, bob)
            let annSubscription = try await relay.subscribe(user: ann), bobSubscription = try await relay.subscribe(user: bob)
            let annLog = EventLog.recording(annSubscription), bobLog = EventLog.recording(bobSubscription)
            #expect(try await annSubscription.enter(resort: "vail"))
            #expect(try await bobSubscription.enter(resort: "vail"))
            #expect(await bobSubscription.phase == .live)

            let captured = Date().addingTimeInterval(-2)
            guard case .published(let cell, let channels, _) = try await people.publish(ann, capturedAt: captured, accuracy: 6) else {
                Issue.record("ann's sample must be published")
                return
            }
            #expect(cell == "9xh3e2" && channels == ["pos:cell:9xh3e2", "pos:resort:vail"])
            let seen = try await bobLog.position(from: ann, capturedMicros: PositionPacket.micros(of: captured))
            #expect(seen.packet.latitude == 39.6403 && seen.packet.longitude == -106.3742)
            #expect(seen.packet.name == "ann" && seen.packet.resortID == "vail" && seen.packet.accuracy == 6)
            #expect(seen.source == .live)
            #expect(seen.freshness.display == .live && seen.freshness.routingGrade)

            let back = Date()
            try await people.publish(bob, latitude: 39.61, longitude: -106.35, capturedAt: back, accuracy: 80)
            let bobSeen = try await annLog.position(from: bob, capturedMicros: PositionPacket.micros(of: back))
            #expect(bobSeen.packet.latitude == 39.61)
            #expect(!bobSeen.freshness.routingGrade, "an 80 m fix is shown but is not routing-grade")
            #expect(await annLog.positions(from: ann).isEmpty, "nobody receives their own packets")
        }
    }

    @Test func aStrangerAndABlockedUserSeeNothing() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            let cat = try await people.add("cat"), dan = try await people.add("dan")
            try await people.befriend(ann, bob)
            try await people.befriend(ann, dan)
            try await people.block(ann, dan)
            let stored = Date().addingTimeInterval(-3)
            try await people.publish(ann, capturedAt: stored)

            var logs: [UUID: EventLog] = [:]
            for user in [bob, cat, dan] {
                let subscription = try await relay.subscribe(user: user)
                logs[user] = EventLog.recording(subscription)
                try await subscription.enter(resort: "vail")
            }
            // The stored position reaches the friend only (read under RLS, then filtered).
            let hydrated = try await logs[bob]!.position(from: ann, capturedMicros: PositionPacket.micros(of: stored))
            #expect(hydrated.source == .stored)

            let live = Date()
            try await people.publish(ann, capturedAt: live)
            _ = try await logs[bob]!.position(from: ann, capturedMicros: PositionPacket.micros(of: live))
            try await people.mark([cat, dan], "after")
            for user in [cat, dan] {
                try await logs[user]!.waitForMark("after")
                #expect(await logs[user]!.allPositions.isEmpty, "\(user == cat ? "a stranger" : "a blocked user") receives nothing")
            }
        }
    }

    @Test func unfriendingStopsDeliveryAtTheNextPacket() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob"), cat = try await people.add("cat")
            try await people.befriend(ann, bob)
            try await people.befriend(cat, bob)
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")

            let before = Date()
            try await people.publish(ann, capturedAt: before)
            _ = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: before))

            // No waiting between the unfriend and ann's next packet: the friends:{bob} event
            // is notified (and handled) before it, and from that event on ann's packets wait
            // for bob's new snapshot, which no longer has her.
            try await people.unfriend(bob, ann)
            try await people.publish(ann, capturedAt: Date())
            let sentinel = Date()
            try await people.publish(cat, capturedAt: sentinel)
            _ = try await log.position(from: cat, capturedMicros: PositionPacket.micros(of: sentinel))
            #expect(await log.positions(from: ann).count == 1, "nothing from ann after the unfriend")
            #expect(await log.contains { if case .social(_, let friends) = $0 { return friends == [cat] } else { return false } })
        }
    }

    @Test func aBlockStopsDeliveryAtTheNextPacket() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            try await people.befriend(ann, bob)
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")
            let before = Date()
            try await people.publish(ann, capturedAt: before)
            _ = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: before))

            // Ann blocks bob; only the friendship's end tells bob (a block itself is silent).
            try await people.block(ann, bob)
            try await people.publish(ann, capturedAt: Date())
            try await people.mark([bob], "after-block")
            try await log.waitForMark("after-block")
            try await log.waitUntil("the snapshot without ann") { log in
                await log.contains { if case .social(_, let friends) = $0 { return friends.isEmpty } else { return false } }
            }
            #expect(await log.positions(from: ann).count == 1, "nothing from ann after her block")
        }
    }

    @Test func anOlderSampleNeverOverwritesANewerOne() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            try await people.befriend(ann, bob)
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")

            let newer = Date(), older = newer.addingTimeInterval(-5)
            try await people.publish(ann, latitude: 39.65, capturedAt: newer)
            let outcome = try await people.publish(ann, latitude: 39.60, capturedAt: older)
            #expect(outcome == .ignored(storedCapturedAt: Date(timeIntervalSince1970: Double(PositionPacket.micros(of: newer)) / 1e6)))
            let stored = try await people.db.query(
                "select lat from meet.live_presence where user_id = \(ann)", as: .user(bob)).scalar(Double.self)
            #expect(stored == 39.65, "the stored row keeps the newer sample")

            // A packet that arrives late on the wire is dropped by the relay too.
            let late = PositionPacket(userID: ann, latitude: 39.60, longitude: -106.37,
                                      capturedMicros: PositionPacket.micros(of: older), resortID: "vail")
            let payload = String(decoding: try JSONEncoder().encode(late), as: UTF8.self)
            try await people.db.query("select pg_notify('pos:resort:vail', \(payload))")
            try await people.mark([bob], "after-late")
            try await log.waitForMark("after-late")
            #expect(await log.positions(from: ann).map(\.packet.latitude) == [39.65])
            #expect(await relay.currentStatistics.dropped[.notNewer, default: 0] >= 1)
        }
    }

    @Test func theLargestPacketGoesThroughAndALargerSampleIsRefused() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            try await people.befriend(ann, bob)
            // The longest name the profile allows, every character one JSON escapes to six bytes: it
            // travels in the social snapshot, and the relay labels the packet with it.
            let name = String(repeating: "\u{1}", count: 50)
            try await people.db.query("update social.profiles set display_name = \(name) where id = \(ann)")
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")

            let sample = PositionSample(
                resortID: String(repeating: "R", count: 52), latitude: -89.12345678901234, longitude: -179.12345678901234,
                capturedAt: Date(), accuracy: 1234.5678901234567, altitude: -123.45678901234567, speed: 12.345678901234567,
                heading: 123.45678901234567, nodeID: String(repeating: "N", count: 64), edgeID: String(repeating: "E", count: 64),
                edgeFraction: 0.12345678901234567)
            try await subscription.enter(resort: sample.resortID)
            guard case .published(_, _, let bytes) = try await PositionPublisher.publish(sample, as: ann, on: people.db) else {
                Issue.record("the largest sample must be published")
                return
            }
            #expect(bytes > 400 && bytes < 8000, "the largest packet is \(bytes) bytes, far below NOTIFY's 8000")
            let seen = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: sample.capturedAt))
            #expect(seen.packet == PositionPacket(
                userID: ann, name: name, latitude: sample.latitude, longitude: sample.longitude,
                capturedMicros: PositionPacket.micros(of: sample.capturedAt), accuracy: sample.accuracy,
                altitude: sample.altitude, speed: sample.speed, heading: sample.heading, nodeID: sample.nodeID,
                edgeID: sample.edgeID, edgeFraction: sample.edgeFraction, resortID: sample.resortID), "every field arrives whole")

            var larger = sample
            larger.capturedAt = Date()
            larger.nodeID = String(repeating: "N", count: 65)
            await #expect(throws: PositionPublisher.Refusal(
                code: "node_id_invalid", hint: "A node id is 1 to 64 characters of A-Z, a-z, 0-9, _ . : -.")) {
                try await PositionPublisher.publish(larger, as: ann, on: people.db)
            }
            let storedNode = try await people.db.query("select node_id from meet.live_presence where user_id = \(ann)").scalar(String.self)
            #expect(storedNode == sample.nodeID, "the refused sample wrote nothing")
            try await people.mark([bob], "after-refusal")
            try await log.waitForMark("after-refusal")
            #expect(await log.positions(from: ann).count == 1, "and notified nothing")
        }
    }

    @Test func notifyPayloadsUpToPostgreSQLsLimitReachTheRelay() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            try await people.befriend(ann, bob)
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")

            func payload(bytes: Int, at date: Date) throws -> String {
                var packet = PositionPacket(userID: ann, name: "", latitude: 39.64, longitude: -106.37,
                                            capturedMicros: PositionPacket.micros(of: date), resortID: "vail")
                let empty = String(decoding: try JSONEncoder().encode(packet), as: UTF8.self).utf8.count
                packet.name = String(repeating: "x", count: bytes - empty)
                return String(decoding: try JSONEncoder().encode(packet), as: UTF8.self)
            }
            let atLimit = Date()
            let largest = try payload(bytes: 7999, at: atLimit)
            #expect(largest.utf8.count == 7999)
            try await people.db.query("select pg_notify('pos:resort:vail', \(largest))")
            let seen = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: atLimit))
            #expect(seen.packet == (try PositionPacket(payload: largest)), "a 7999-byte payload arrives whole")

            await #expect(throws: PostgresError.self, "PostgreSQL refuses 8000 bytes and more") {
                try await people.db.query("select pg_notify('pos:resort:vail', \(try payload(bytes: 8000, at: Date())))")
            }
        }
    }
}
