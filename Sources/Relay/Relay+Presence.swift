import Foundation

extension Relay {
    /// Enters `resort` for subscriber `id`: hydrate social → subscribe channels →
    /// (stored positions) → live. While on another resort it tears that one down
    /// first. Returns true once live, false if a newer enter or a stop overtook it.
    func enter(_ id: Int, resort: String) async throws -> Bool {
        guard RelayChannel.isValidResortID(resort) else { throw RelayError.invalidResort(resort) }
        guard let record = subscribers[id] else { throw RelayError.subscriptionClosed }
        switch record.state.machine.enter(resort) {
        case .alreadyThere:
            return true
        case .begin(let attempt, let leaving):
            return try await inOrder(record) {
                try await self.runEnter(id, resort: resort, attempt: attempt, leaving: leaving)
            }
        }
    }

    /// Leaves the resort: releases the channels (positions, then friends, then meet
    /// requests), clears what belonged to it, and goes idle.
    func stop(_ id: Int) async throws {
        guard let record = subscribers[id], let (attempt, resort) = record.state.machine.stop() else { return }
        try await inOrder(record) {
            await self.runStop(id, attempt: attempt, resort: resort)
        }
    }

    /// Runs presence operations of one subscriber one after another, so a teardown's
    /// releases never interleave with the next enter's acquisitions. Operations
    /// overtaken while they waited find their attempt stale and end early.
    private func inOrder<T: Sendable>(
        _ record: SubscriberRecord, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let previous = record.lastOperation
        let task = Task<T, any Error> {
            _ = await previous?.result
            return try await operation()
        }
        record.lastOperation = Task { _ = await task.result }
        return try await task.value
    }

    private func runEnter(_ id: Int, resort: String, attempt: Int, leaving: String?) async throws -> Bool {
        guard let record = subscribers[id] else { return false }
        let user = record.state.user
        if let leaving {
            // Switching resorts: nothing of the old one may leak into the new one.
            emitPhase(record)
            unindex(record)
            await registry.release(RelayChannel.resortPositions(leaving).name, holder: id)
            record.state.clearResortState()
            guard record.state.machine.advance(to: .hydratingSocial, attempt: attempt) else { return false }
        }
        emitPhase(record)
        do {
            // Listen for friendship changes before reading the snapshot, so no change
            // can fall between the read and the subscription.
            try await registry.acquire(RelayChannel.friends(user).name, holder: id)
            try await registry.acquire(RelayChannel.meets(user).name, holder: id)
            guard record.state.machine.isCurrent(attempt) else { return false }
            let gaps = record.state.gaps
            let snapshot = try await loadSnapshot(of: user)
            guard record.state.machine.isCurrent(attempt) else { return false }
            apply(snapshot, to: record, gapsAtLoad: gaps)
            guard record.state.machine.advance(to: .subscribingChannels, attempt: attempt) else { return false }
            emitPhase(record)

            try await registry.acquire(RelayChannel.resortPositions(resort).name, holder: id)
            guard record.state.machine.isCurrent(attempt) else { return false }
            // From here on live packets flow; the stored ones follow, and the capture
            // time rule drops whichever copy of a sample comes second.
            reindex(record)
            try await hydrate(record, resort: resort, attempt: attempt)
            guard record.state.machine.advance(to: .live, attempt: attempt) else { return false }
            emitPhase(record)
            return true
        } catch {
            // Leave nothing half-acquired behind: the subscriber goes back to idle.
            if let (stopAttempt, stopResort) = record.state.machine.stop() {
                await runStop(id, attempt: stopAttempt, resort: stopResort)
            }
            throw error
        }
    }

    private func runStop(_ id: Int, attempt: Int, resort: String?) async {
        guard let record = subscribers[id] else { return }
        let user = record.state.user
        emitPhase(record)
        // The seed's teardown order: position channels, friend subscriptions, meet requests, caches.
        unindex(record)
        if let resort { await registry.release(RelayChannel.resortPositions(resort).name, holder: id) }
        await registry.release(RelayChannel.friends(user).name, holder: id)
        await registry.release(RelayChannel.meets(user).name, holder: id)
        record.state.clearResortState()
        record.state.machine.finishStop(attempt: attempt)
        if record.state.machine.phase == .idle { emitPhase(record) }
    }

    func emitPhase(_ record: SubscriberRecord) {
        record.mailbox.push(.phase(record.state.machine.phase, resort: record.state.machine.resort))
    }
}
