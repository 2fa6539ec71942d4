import Foundation
import Relay
import Testing

/// The receiver rules of spec §7.3, without a database.
@Suite struct SubscriberStateTests {
    let me = UUID()
    let friend = UUID()
    let stranger = UUID()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func packet(from sender: UUID, secondsAgo: Double = 1, resort: String = "vail", accuracy: Double? = 8) -> PositionPacket {
        PositionPacket(userID: sender, latitude: 39.64, longitude: -106.37,
                       capturedMicros: PositionPacket.micros(of: now.addingTimeInterval(-secondsAgo)),
                       accuracy: accuracy, resortID: resort)
    }

    /// A subscriber on `vail`, live, with `friend` as its only friend at generation `generation`.
    func liveState(generation: Int64 = 3) -> SubscriberState {
        var state = SubscriberState(user: me)
        guard case .begin(let attempt, nil) = state.machine.enter("vail") else { fatalError("unexpected plan") }
        _ = state.apply(SocialSnapshot(generation: generation, friends: [.init(userID: friend, username: "bob")]), gapsAtLoad: 0)
        _ = state.machine.advance(to: .subscribingChannels, attempt: attempt)
        _ = state.machine.advance(to: .live, attempt: attempt)
        return state
    }

    @Test func beforeTheFirstSnapshotNothingIsDelivered() {
        var state = SubscriberState(user: me)
        guard case .begin(let attempt, _) = state.machine.enter("vail") else { Issue.record("no plan"); return }
        // Even forced into a receiving phase, generation 0 admits nobody.
        _ = state.machine.advance(to: .subscribingChannels, attempt: attempt)
        #expect(state.filter.generation == 0)
        let result1 = state.receive(packet(from: friend), now: now)
        #expect(result1 == .drop(.socialNotLoaded))
    }

    @Test func onlyUnblockedFriendsAtTheSameResortGetThrough() {
        var state = liveState()
        let result2 = state.receive(packet(from: me), now: now)
        #expect(result2 == .drop(.own))
        let result3 = state.receive(packet(from: stranger), now: now)
        #expect(result3 == .drop(.notFriend))
        let result4 = state.receive(packet(from: friend, resort: "whistler"), now: now)
        #expect(result4 == .drop(.otherResort))
        guard case .deliver(let freshness) = state.receive(packet(from: friend), now: now) else {
            Issue.record("a friend's packet at the resort must be delivered")
            return
        }
        #expect(freshness.display == .live && freshness.routingGrade)

        var blocking = SubscriberState(user: me)
        guard case .begin(let attempt, _) = blocking.machine.enter("vail") else { Issue.record("an idle machine must begin entering"); return }
        _ = blocking.apply(SocialSnapshot(generation: 4, friends: [.init(userID: friend)], blocks: [.init(userID: friend)]), gapsAtLoad: 0)
        _ = blocking.machine.advance(to: .subscribingChannels, attempt: attempt)
        let result5 = blocking.receive(packet(from: friend), now: now)
        #expect(result5 == .drop(.notFriend), "a blocked friend is not admitted")
    }

    @Test func aSampleNotNewerThanTheLastDeliveredIsDropped() {
        var state = liveState()
        let result6 = state.receive(packet(from: friend, secondsAgo: 5), now: now)
        #expect(result6 != .drop(.notNewer))
        let result7 = state.receive(packet(from: friend, secondsAgo: 5), now: now)
        #expect(result7 == .drop(.notNewer), "the same capture time twice")
        let result8 = state.receive(packet(from: friend, secondsAgo: 9), now: now)
        #expect(result8 == .drop(.notNewer), "an older capture time")
        if case .deliver = state.receive(packet(from: friend, secondsAgo: 4), now: now) {} else {
            Issue.record("a newer sample must be delivered")
        }
    }

    @Test func freshnessClassesFollowTheSpec() {
        var state = liveState()
        func freshness(_ secondsAgo: Double, accuracy: Double? = 8) -> Freshness? {
            var copy = state
            if case .deliver(let freshness) = copy.receive(packet(from: friend, secondsAgo: secondsAgo, accuracy: accuracy), now: now) {
                return freshness
            }
            return nil
        }
        #expect(freshness(74)?.display == .live)
        #expect(freshness(74)?.routingGrade == true)
        #expect(freshness(75)?.display == .stale)
        #expect(freshness(75)?.routingGrade == false, "routing-grade is under 75 s")
        #expect(freshness(300)?.display == .stale)
        #expect(freshness(301)?.display == .cold)
        #expect(freshness(5, accuracy: 51)?.routingGrade == false, "accuracy worse than 50 m is not routing-grade")
        #expect(freshness(5, accuracy: nil)?.routingGrade == false, "unknown accuracy is not routing-grade")
        #expect(freshness(-10)?.routingGrade == true, "10 s of future skew is tolerated")
        #expect(freshness(-11)?.routingGrade == false, "more future skew is not")
        #expect(freshness(3 * 3600 + 1) == nil)
        let result9 = state.receive(packet(from: friend, secondsAgo: 3 * 3600 + 1), now: now)
        #expect(result9 == .drop(.tooOld))
    }

    @Test func aSocialChangeHoldsPositionsUntilTheNewSnapshotDecides() {
        var state = liveState(generation: 3)
        let result10 = state.socialChanged(generation: 4)
        #expect(result10)
        let result11 = state.socialChanged(generation: 4)
        #expect(!result11, "the same generation twice starts one load")
        let result12 = state.receive(packet(from: friend, secondsAgo: 2), now: now)
        #expect(result12 == .hold)
        let result13 = state.receive(packet(from: friend, secondsAgo: 1), now: now)
        #expect(result13 == .hold)
        // A snapshot older than the announced generation settles nothing.
        let result14 = state.apply(SocialSnapshot(generation: 3, friends: []), gapsAtLoad: 0).isEmpty
        #expect(result14)
        #expect(state.isWaitingForSocial)
        // The unfriend arrives: the held packets come back to be judged under it.
        let released = state.apply(SocialSnapshot(generation: 4, friends: []), gapsAtLoad: 0)
        #expect(released.count == 2)
        #expect(!state.isWaitingForSocial)
        for packet in released { #expect(state.receive(packet, now: now) == .drop(.notFriend)) }
        let result15 = state.socialChanged(generation: 4)
        #expect(!result15, "an event for a generation already applied needs no load")
    }

    @Test func aGapIsSettledOnlyByASnapshotLoadedAfterIt() {
        var state = liveState(generation: 3)
        let gapsBefore = state.gaps
        state.connectionGap()
        let result16 = state.receive(packet(from: friend), now: now)
        #expect(result16 == .hold)
        let result17 = state.apply(SocialSnapshot(generation: 3, friends: [.init(userID: friend)]), gapsAtLoad: gapsBefore).isEmpty
        #expect(result17,
                "a snapshot whose load began before the gap may predate a missed change")
        let result18 = state.apply(SocialSnapshot(generation: 3, friends: [.init(userID: friend)]), gapsAtLoad: state.gaps).count
        #expect(result18 == 1)
        #expect(!state.isWaitingForSocial)
    }

    @Test func leavingAResortForgetsItsState() {
        var state = liveState()
        _ = state.receive(packet(from: friend, secondsAgo: 1), now: now)
        #expect(state.lastDelivered[friend] != nil)
        guard case .begin(let attempt, let leaving) = state.machine.enter("whistler") else { Issue.record("no plan"); return }
        #expect(leaving == "vail")
        state.clearResortState()
        #expect(state.lastDelivered.isEmpty)
        let result19 = state.receive(packet(from: friend, resort: "whistler"), now: now)
        #expect(result19 == .drop(.notSubscribed),
                "nothing is delivered while tearing down")
        _ = state.machine.advance(to: .hydratingSocial, attempt: attempt)
        _ = state.machine.advance(to: .subscribingChannels, attempt: attempt)
        if case .deliver = state.receive(packet(from: friend, secondsAgo: 2, resort: "whistler"), now: now) {} else {
            Issue.record("an older capture time than the one delivered at vail still counts at the new resort")
        }
        let result20 = state.receive(packet(from: friend, secondsAgo: 1, resort: "vail"), now: now)
        #expect(result20 == .drop(.otherResort))
    }
}
