import Relay
import Testing

/// A transport that records LISTEN/UNLISTEN and can hold each one until released.
actor RecordingTransport: ChannelTransport {
    private(set) var log: [String] = []
    private var gate: CheckedContinuation<Void, Never>?
    private var holding = false
    private var arrivals: [CheckedContinuation<Void, Never>] = []

    func hold() { holding = true }

    /// Lets the held operation finish.
    func open() {
        holding = false
        gate?.resume()
        gate = nil
    }

    /// Waits until an operation is held at the gate.
    func waitForArrival() async {
        if gate != nil { return }
        await withCheckedContinuation { arrivals.append($0) }
    }

    func listen(_ channel: String) async throws { await pass("LISTEN \(channel)") }
    func unlisten(_ channel: String) async throws { await pass("UNLISTEN \(channel)") }

    private func pass(_ entry: String) async {
        log.append(entry)
        guard holding else { return }
        await withCheckedContinuation { continuation in
            gate = continuation
            for arrival in arrivals { arrival.resume() }
            arrivals.removeAll()
        }
    }
}

@Suite struct ChannelRegistryTests {
    @Test func theLastReleaseUnlistens() async throws {
        let transport = RecordingTransport()
        let registry = ChannelRegistry(transport: transport)
        try await registry.acquire("pos:resort:vail", holder: 1)
        try await registry.acquire("pos:resort:vail", holder: 2)
        #expect(await registry.references(to: "pos:resort:vail") == 2)
        await registry.release("pos:resort:vail", holder: 1)
        #expect(await registry.lifecycle(of: "pos:resort:vail") == .live)
        await registry.release("pos:resort:vail", holder: 2)
        #expect(await registry.lifecycle(of: "pos:resort:vail") == .idle)
        #expect(await transport.log == ["LISTEN pos:resort:vail", "UNLISTEN pos:resort:vail"])
    }

    @Test func aSecondAcquireDuringConnectTakesNoSecondReference() async throws {
        let transport = RecordingTransport()
        let registry = ChannelRegistry(transport: transport)
        await transport.hold()
        let first = Task { try await registry.acquire("friends:ann", holder: 7) }
        await transport.waitForArrival()
        #expect(await registry.lifecycle(of: "friends:ann") == .connecting)
        let second = Task { try await registry.acquire("friends:ann", holder: 7) }
        await transport.open()
        try await first.value
        try await second.value
        #expect(await registry.references(to: "friends:ann") == 1)
        await registry.release("friends:ann", holder: 7)
        #expect(await registry.lifecycle(of: "friends:ann") == .idle, "one release lets it go")
        #expect(await transport.log == ["LISTEN friends:ann", "UNLISTEN friends:ann"])
    }

    @Test func anAcquireDuringTeardownListensAgainAfterIt() async throws {
        let transport = RecordingTransport()
        let registry = ChannelRegistry(transport: transport)
        try await registry.acquire("meets:ann", holder: 1)
        await transport.hold()
        let release = Task { await registry.release("meets:ann", holder: 1) }
        await transport.waitForArrival()
        #expect(await registry.lifecycle(of: "meets:ann") == .stopping)
        let again = Task { try await registry.acquire("meets:ann", holder: 1) }
        await transport.open()
        await release.value
        try await again.value
        #expect(await registry.lifecycle(of: "meets:ann") == .live)
        #expect(await registry.references(to: "meets:ann") == 1)
        #expect(await transport.log == ["LISTEN meets:ann", "UNLISTEN meets:ann", "LISTEN meets:ann"])
    }

    @Test func preparedHoldersShareOneSubscribe() async throws {
        let transport = RecordingTransport()
        let registry = ChannelRegistry(transport: transport)
        await registry.prepare("pos:resort:vail", holder: 1)
        await registry.prepare("pos:resort:vail", holder: 2)
        #expect(await registry.lifecycle(of: "pos:resort:vail") == .idle, "prepare attaches without listening")
        try await registry.subscribe("pos:resort:vail")
        try await registry.subscribe("pos:resort:vail")
        #expect(await transport.log == ["LISTEN pos:resort:vail"])
        #expect(await registry.liveChannels == ["pos:resort:vail"])
    }
}
