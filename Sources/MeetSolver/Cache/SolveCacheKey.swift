/// Everything a solution depends on. Any change in any part misses the cache.
public struct SolveCacheKey: Sendable, Hashable {
    /// After status: open flags and live waits are in it.
    public var graphFingerprint: String
    public var datasetVersion: String
    public var mode: String
    /// Skier, resolved start (node, or edge and hundredths) and GPS accuracy.
    public var startA: String
    public var startB: String
    public var profileA: String
    public var profileB: String
    /// Weather, clock, solve bucket, hours, forecast digest, status window.
    public var contextA: String
    public var contextB: String
    /// SHA-256 over both skiers' complete learned history.
    public var historyDigest: String
    public var equipmentA: String
    public var equipmentB: String
    public var alphaTable: String
}
