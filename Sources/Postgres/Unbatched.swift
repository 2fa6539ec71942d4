/// The elements of a sequence of batches, one at a time and in order: for
/// consumers that want single events from a source that hands them over a
/// batch per wake-up (a listener's socket reads, a relay subscriber's mailbox).
public struct Unbatched<Base: AsyncSequence & Sendable, Element>: AsyncSequence, Sendable
where Base.Element == [Element], Base.Failure == Never {
    public typealias Failure = Never
    let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var batch: [Element] = []
        var index = 0

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
            while index == batch.count {
                guard let next = await base.next(isolation: actor) else { return nil }
                batch = next
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }

        public mutating func next() async -> Element? { await next(isolation: nil) }
    }
}
