import Foundation
import Postgres
import Relay
import SummitTestSupport
import Testing

/// The relay's channels, presence lifecycle, gaps and slow subscribers on a real server.
@Suite struct RelayLifecycleTests {
    @Test func theRelayListensToExactlyTheChannelsItsSubscribersNeed() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            func name(_ channel: RelayChannel) -> String { channel.name }
            let annSubscription = try await relay.subscribe(user: ann), bobSubscription = try await relay.subscribe(user: bob)
            #expect(relay.listeningChannels.isEmpty, "idle subscribers need nothing")
            try await annSubscription.enter(resort: "vail")
            try await bobSubscription.enter(resort: "vail")
            let both: Set = [name(.resortPositions("vail")), name(.friends(ann)), name(.meets(ann)),
                             name(.friends(bob)), name(.meets(bob))]
            #expect(relay.listeningChannels == both)
            #expect(await relay.registry.references(to: name(.resortPositions("vail"))) == 2)
            #expect(try await annSubscription.enter(resort: "vail"), "entering again is a no-op")
            #expect(await relay.registry.references(to: name(.resortPositions("vail"))) == 2, "and takes no second reference")

            try await bobSubscription.enter(resort: "whistler")
            #expect(relay.listeningChannels == both.union([name(.resortPositions("whistler"))]))
            await annSubscription.stopAndWait()
            #expect(relay.listeningChannels == [name(.resortPositions("whistler")), name(.friends(bob)), name(.meets(bob))],
                    "the last one out of vail unlistens it, and ann's own channels go with her")
            #expect(await annSubscription.phase == .idle)
            await bobSubscription.close()
            #expect(relay.listeningChannels.isEmpty)
        }
    }

    @Test func switchingResortsClearsTheOldResortsState() async throws {
        try await withRelay { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob")
            try await people.befriend(ann, bob)
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")
            let atVail = Date()
            try await people.publish(ann, capturedAt: atVail)
            _ = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: atVail))

            try await subscription.enter(resort: "whistler")
            #expect(await log.contains { $0 == .phase(.tearingDown, resort: "whistler") })
            #expect(await log.contains { $0 == .phase(.live, resort: "whistler") })
            try await people.publish(ann, capturedAt: Date())   // still at vail: not for bob any more
            let atWhistler = Date()
            try await people.publish(ann, resort: "whistler", latitude: 50.1163, longitude: -122.9574, capturedAt: atWhistler)
            _ = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: atWhistler))
            #expect(await log.positions(from: ann).map(\.packet.resortID) == ["vail", "whistler"])
        }
    }

    /// `pg_terminate_backend` on the listener while the database refuses new
    /// connections, so the relay stays cut off while positions and a friendship
    /// change happen; then it may reconnect.
    @Test func aLostConnectionLosesNothingTheTableHoldsAndSaysSo() async throws {
        try await withRelay { configuration, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob"), cat = try await people.add("cat")
            try await people.befriend(ann, bob)
            try await people.befriend(cat, bob)
            let subscription = try await relay.subscribe(user: bob)
            let log = EventLog.recording(subscription)
            try await subscription.enter(resort: "vail")
            let before = Date()
            try await people.publish(ann, capturedAt: before)
            _ = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: before))

            // A database cannot lock itself out: the maintenance database does it.
            let admin = try await PostgresConnection.connect(configuration.with(database: "postgres"))
            let database = PostgresQuery.quoteIdentifier(configuration.database ?? "")
            try await admin.simpleQuery("alter database \(database) with allow_connections false")
            let terminated = try await people.db.query("""
                select count(*) from (select pg_terminate_backend(pid) from pg_stat_activity
                where application_name = 'summit-listener' and datname = current_database()) t
                """).scalar(Int.self)
            #expect(terminated == 1)
            let duringGap = Date()
            try await people.publish(ann, latitude: 39.62, capturedAt: duringGap)
            try await people.unfriend(bob, cat)
            try await people.publish(cat, capturedAt: Date())
            try await admin.simpleQuery("alter database \(database) with allow_connections true")
            await admin.close()

            try await log.waitUntil("the gap") { await $0.contains { if case .gap = $0 { true } else { false } } }
            let recovered = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: duringGap))
            #expect(recovered.source == .stored, "the sample notified during the gap comes back from the table")
            #expect(recovered.packet.latitude == 39.62)

            let after = Date()
            try await people.publish(ann, capturedAt: after)
            try await people.publish(cat, capturedAt: after)
            _ = try await log.position(from: ann, capturedMicros: PositionPacket.micros(of: after))
            try await people.mark([bob], "after-gap")
            try await log.waitForMark("after-gap")
            #expect(await log.positions(from: cat).isEmpty, "the unfriend missed during the gap is caught up")
            #expect(relay.listeningChannels.contains(RelayChannel.resortPositions("vail").name))
            #expect(await relay.currentStatistics.gaps == 1)
        }
    }

    @Test func aSlowSubscriberNeverStallsTheOthers() async throws {
        try await withRelay(options: Relay.Options(mailboxCapacity: 8)) { _, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob"), cat = try await people.add("cat")
            try await people.befriend(ann, bob)
            try await people.befriend(ann, cat)
            let fast = try await relay.subscribe(user: bob), slow = try await relay.subscribe(user: cat)
            let fastLog = EventLog.recording(fast)
            try await fast.enter(resort: "vail")
            try await slow.enter(resort: "vail")   // nobody reads cat's events until the end

            let start = Date()
            let samples = (0..<40).map { start.addingTimeInterval(Double($0) / 1000) }
            // Each sample reaches the reader before the next is published: if the full mailbox
            // of the subscriber nobody reads held the relay up, this loop would time out.
            for sample in samples {
                try await people.publish(ann, capturedAt: sample)
                _ = try await fastLog.position(from: ann, capturedMicros: PositionPacket.micros(of: sample))
            }
            #expect(await fastLog.positions(from: ann).map(\.packet.capturedMicros) == samples.map(PositionPacket.micros(of:)),
                    "the reading subscriber gets every sample, in order")

            let slowLog = EventLog.recording(slow)
            try await people.mark([cat], "drain")
            try await slowLog.waitForMark("drain")
            let kept = await slowLog.positions(from: ann).map(\.packet.capturedMicros)
            #expect(kept.last == PositionPacket.micros(of: samples.last!), "the newest sample wins")
            #expect(kept == kept.sorted())
            #expect(kept.count < 8 && kept.count + slow.droppedCount == samples.count, "the rest were counted as dropped")
        }
    }

    @Test func meetRequestChangesReachBothPartiesWithIdsOnly() async throws {
        try await withRelay { configuration, people, relay in
            let ann = try await people.add("ann"), bob = try await people.add("bob"), cat = try await people.add("cat")
            // A stand-in for meet.meet_requests, with the trigger attached as the README says.
            try await people.db.simpleQuery("""
                create table public.meet_probe (id uuid primary key default gen_random_uuid(), sender_id uuid,
                  receiver_id uuid, status text);
                create trigger meet_probe_notify after insert or update or delete on public.meet_probe
                  for each row execute function private.notify_parties('meets', 'id', 'sender_id', 'receiver_id');
                """)
            var logs: [UUID: EventLog] = [:]
            for user in [ann, bob, cat] {
                let subscription = try await relay.subscribe(user: user)
                logs[user] = EventLog.recording(subscription)
                try await subscription.enter(resort: "vail")
            }
            let raw = try await PostgresListener(configuration, channels: [RelayChannel.meets(ann).name])
            var rawEvents = raw.events.makeAsyncIterator()

            let id = try await people.db.query(
                "insert into public.meet_probe (sender_id, receiver_id, status) values (\(ann), \(bob), 'pending') returning id").scalar(UUID.self)
            let key = id.uuidString.lowercased()
            try await people.db.query("update public.meet_probe set receiver_id = \(cat) where id = \(id)")
            try await people.db.query("delete from public.meet_probe where id = \(id)")

            try await logs[ann]!.waitUntil("three notices for ann") { await $0.meetNotices.count == 3 }
            #expect(await logs[ann]!.meetNotices.map(\.event) == ["insert", "update", "delete"])
            #expect(await logs[ann]!.meetNotices.allSatisfy { $0.id == key && $0.table == "meet_probe" })
            try await logs[bob]!.waitUntil("bob's notices") { await $0.meetNotices.count == 2 }
            #expect(await logs[bob]!.meetNotices.map(\.event) == ["insert", "update"], "the old receiver hears of the move")
            try await logs[cat]!.waitUntil("cat's notices") { await $0.meetNotices.count == 2 }
            #expect(await logs[cat]!.meetNotices.map(\.event) == ["update", "delete"], "the new receiver too")

            guard case .notification(let first)? = await rawEvents.next() else { Issue.record("no raw notification"); return }
            let keys = try JSONSerialization.jsonObject(with: Data(first.payload.utf8)) as? [String: String]
            #expect(keys == ["table": "meet_probe", "id": key, "event": "insert"], "ids and the event only: no row data")
            raw.close()
        }
    }
}
