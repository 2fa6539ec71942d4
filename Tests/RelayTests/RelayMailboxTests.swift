import Foundation
@testable import Relay
import Testing

@Suite struct RelayMailboxTests {
    func position(_ sender: UUID, _ micros: Int64) -> RelayEvent {
        .position(FriendPosition(
            packet: PositionPacket(userID: sender, latitude: 0, longitude: 0, capturedMicros: micros, resortID: "vail"),
            source: .live, freshness: Freshness(display: .live, routingGrade: true, ageSeconds: 0)))
    }

    func micros(of event: RelayEvent) -> Int64? {
        if case .position(let position) = event { return position.packet.capturedMicros }
        return nil
    }

    @Test func whenFullTheNewestSampleOfASenderReplacesItsOlderOne() async {
        let ann = UUID(), bob = UUID()
        let mailbox = RelayMailbox(capacity: 3)
        #expect(mailbox.push(position(ann, 1)))
        #expect(mailbox.push(position(bob, 1)))
        #expect(mailbox.push(.gap(reason: "test")))
        #expect(!mailbox.push(position(ann, 2)), "full: ann's older sample goes")
        #expect(!mailbox.push(position(ann, 3)))
        #expect(mailbox.droppedCount == 2)
        let batch = await mailbox.next() ?? []
        #expect(batch.count == 3)
        #expect(batch.compactMap(micros) == [1, 3], "bob's only sample stays, ann's newest replaces hers")
        #expect(batch.contains(.gap(reason: "test")), "other events are never dropped")
    }

    @Test func whenFullWithoutTheSenderTheOldestPositionGoes() async {
        let mailbox = RelayMailbox(capacity: 2)
        let ann = UUID(), bob = UUID(), cat = UUID()
        mailbox.push(position(ann, 1))
        mailbox.push(position(bob, 2))
        #expect(!mailbox.push(position(cat, 3)))
        #expect((await mailbox.next() ?? []).compactMap(micros) == [2, 3])
    }

    @Test func aWaitingConsumerWakesAndFinishEndsTheStream() async {
        let mailbox = RelayMailbox(capacity: 4)
        let consumer = Task { await mailbox.next() }
        try? await Task.sleep(for: .milliseconds(50))
        mailbox.push(.gap(reason: "wake"))
        #expect(await consumer.value == [.gap(reason: "wake")])
        mailbox.push(.gap(reason: "last"))
        mailbox.finish()
        #expect(await mailbox.next() == [.gap(reason: "last")], "what was queued is still delivered")
        #expect(await mailbox.next() == nil)
        mailbox.push(.gap(reason: "late"))
        #expect(mailbox.queuedCount == 0, "nothing is queued after the end")
    }

    /// The relay queues a whole read's positions before waking anyone: a waiting
    /// consumer stays asleep until the flush, then takes them in one batch.
    @Test(.timeLimit(.minutes(1))) func queuedPositionsWaitForTheFlushAndArriveTogether() async {
        let mailbox = RelayMailbox(capacity: 8)
        let woken = Woken()
        let consumer = Task {
            let batch = await mailbox.next()
            woken.mark()
            return batch
        }
        try? await Task.sleep(for: .milliseconds(50))
        let ann = UUID(), bob = UUID()
        #expect(mailbox.enqueue(position(ann, 1)) && mailbox.enqueue(position(bob, 2)) && mailbox.enqueue(position(ann, 3)))
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!woken.isMarked, "queued positions do not wake the consumer")
        mailbox.flush()
        #expect((await consumer.value ?? []).compactMap(micros) == [1, 2, 3])
        mailbox.flush()
        #expect(mailbox.queuedCount == 0, "a flush with nothing queued hands over nothing")
    }
}

private final class Woken: @unchecked Sendable {
    private let lock = NSLock()
    private var marked = false
    func mark() { lock.withLock { marked = true } }
    var isMarked: Bool { lock.withLock { marked } }
}
