import Foundation

extension Relay {
    /// Brings `followers` in line with the subscriber's resort and friend filter.
    /// A subscriber is indexed while it has a resort and a loaded filter and its
    /// phase accepts positions; while a refresh is pending it stays indexed under
    /// the old filter, so its old friends' packets are held and judged afterwards.
    func reindex(_ record: SubscriberRecord) {
        let machine = record.state.machine
        guard machine.phase.acceptsPositions, let resort = machine.resort, record.state.filter.isLoaded else {
            unindex(record)
            return
        }
        let senders = record.state.filter.admittedIDs
        if let indexed = record.indexed, indexed.resort == resort {
            for sender in indexed.senders.subtracting(senders) { removeFollower(record.id, of: sender, at: resort) }
            for sender in senders.subtracting(indexed.senders) { followers[resort, default: [:]][sender, default: []].insert(record.id) }
        } else {
            unindex(record)
            for sender in senders { followers[resort, default: [:]][sender, default: []].insert(record.id) }
        }
        record.indexed = (resort, senders)
    }

    func unindex(_ record: SubscriberRecord) {
        guard let indexed = record.indexed else { return }
        for sender in indexed.senders { removeFollower(record.id, of: sender, at: indexed.resort) }
        record.indexed = nil
    }

    private func removeFollower(_ id: Int, of sender: UUID, at resort: String) {
        followers[resort]?[sender]?.remove(id)
        if followers[resort]?[sender]?.isEmpty == true { followers[resort]?[sender] = nil }
        if followers[resort]?.isEmpty == true { followers[resort] = nil }
    }
}
