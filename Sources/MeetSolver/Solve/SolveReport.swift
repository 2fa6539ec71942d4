/// A solve's outcome, with whether it came from the cache and under which key.
public struct SolveReport: Sendable {
    public var outcome: Result<MeetingResult, MeetFailure>
    public var cacheHit: Bool
    /// Nil when the solve failed before a key could be formed (dataset, status or starts).
    public var key: SolveCacheKey?
}
