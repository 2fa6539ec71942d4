import Foundation
import MountainGraph
@testable import MeetSolver

/// A small hand-made mountain whose times are easy to reason about: runs are
/// groomed, gentle and without aspect (no trail, sun or gradient penalty),
/// so a run's time is its length over the skier's speed for its difficulty.
struct TestMountain {
    var nodes: [GraphNode] = []
    var edges: [GraphEdge] = []
    var rendezvous: [RendezvousPoint] = []
    var resortID = "testresort"

    static let origin = Coordinate(lat: 46.0, lon: 7.0)
    static let identity = DatasetVersion(manifestVersion: 1, graphVersion: "v15", contentSHA256: String(repeating: "ab", count: 32))
    /// Wednesday 2026-01-14 10:00 local (UTC+1).
    static let wednesdayTen: Double = 1_768_381_200
    static let utcOffset = 3600

    /// A node on a grid of about 110 m.
    mutating func node(_ number: Int, x: Double, y: Double, elevation: Double = 2000, kind: NodeKind = .junction) {
        nodes.append(GraphNode(id: "n\(number)", lat: Self.origin.lat + y * 0.001, lon: Self.origin.lon + x * 0.0015,
                               elevation: elevation, kind: kind))
    }

    private func coordinate(_ id: String) -> Coordinate { nodes.first { $0.id == id }!.coordinate }

    mutating func run(_ id: String, _ from: Int, _ to: Int, length: Double, difficulty: RunDifficulty = .green,
                      group: String? = nil, gladed: Bool = false, open: Bool = true) {
        var a = EdgeAttributes()
        a.difficulty = difficulty
        a.lengthMeters = length
        a.isGroomed = true
        a.isGladed = gladed
        a.maxGradient = 10
        a.trailName = "Run \(id)"
        a.trailGroupId = group ?? "g\(id)"
        a.isOpen = open
        a.midpointElevation = 2000
        edges.append(GraphEdge(id: id, sourceID: "n\(from)", targetID: "n\(to)", kind: .run,
                               geometry: [coordinate("n\(from)"), coordinate("n\(to)")], attributes: a))
    }

    mutating func lift(_ id: String, _ from: Int, _ to: Int, ride: Double, name: String? = nil, queueEntry: Bool = true, open: Bool = true) {
        var a = EdgeAttributes()
        a.lengthMeters = 800
        a.liftType = .chairLift
        a.rideTimeSeconds = ride
        a.queueEntry = queueEntry
        a.chainIndex = 0
        a.trailName = name ?? "Lift \(id)"
        a.identityKey = "lift:\(name ?? "Lift \(id)")"
        a.trailGroupId = "g\(id)"
        a.isOpen = open
        edges.append(GraphEdge(id: id, sourceID: "n\(from)", targetID: "n\(to)", kind: .lift,
                               geometry: [coordinate("n\(from)"), coordinate("n\(to)")], attributes: a))
    }

    mutating func connector(_ id: String, _ from: Int, _ to: Int, length: Double) {
        var a = EdgeAttributes()
        a.lengthMeters = length
        a.trailGroupId = "g\(id)"
        edges.append(GraphEdge(id: id, sourceID: "n\(from)", targetID: "n\(to)", kind: .traverse,
                               geometry: [coordinate("n\(from)"), coordinate("n\(to)")], attributes: a))
    }

    mutating func meetAt(_ number: Int, _ kind: RendezvousPoint.Kind = .lodge, name: String? = nil,
                         confidence: Double = 1, quality: Double = 1) {
        rendezvous.append(RendezvousPoint(id: "rp\(number)", nodeId: "n\(number)", kind: kind,
                                          displayName: name ?? "Stop \(number)", confidence: confidence, quality: quality))
    }

    var graph: MountainGraph {
        MountainGraph(resortID: resortID, manifestVersion: 1, snapshotDate: "2026-01-01", nodes: nodes, edges: edges,
                      rendezvousPoints: rendezvous)
    }

    func dataset(canonical: Bool = true, operations: LiftOperations = .none) -> MeetDataset {
        MeetDataset(graph: graph, identity: canonical ? Self.identity : nil, liftOperations: operations,
                    location: Self.origin, timeZoneIdentifier: nil)
    }

    /// A sidecar observed ten minutes before `now`, valid fifty more.
    func status(now: Double = wednesdayTen, edges: [String: MountainStatus.EdgeStatus] = [:]) -> MountainStatus {
        MountainStatus(resortID: resortID, datasetVersion: Self.identity, observedAt: now - 600, expiresAt: now + 3000,
                       source: "test", edges: edges)
    }

    static let calm = ResortConditions(current: WeatherReading(temperature: -2, wind: 0, visibility: 10, cloudCover: 0),
                                       utcOffsetSeconds: utcOffset)

    /// A solver with two intermediate skiers "ann" and "bob" (unless given), no cache.
    func solver(now: Double = wednesdayTen, canonical: Bool = true, status: MountainStatus?? = .none,
                conditions: ResortConditions = calm, skiers: [Skier]? = nil, operations: LiftOperations = .none,
                cache: SolutionCache? = nil) -> MeetSolver {
        let sidecar: MountainStatus? = status ?? (canonical ? self.status(now: now) : nil)
        return MeetSolver(dataset: dataset(canonical: canonical, operations: operations), status: sidecar,
                          conditions: conditions,
                          skiers: skiers ?? [Skier(id: "ann", profile: .preset(.intermediate)), Skier(id: "bob", profile: .preset(.intermediate))],
                          now: now, cache: cache)
    }
}

extension SkierStart {
    static func ann(_ node: Int) -> SkierStart { SkierStart(skierID: "ann", origin: .node("n\(node)")) }
    static func bob(_ node: Int) -> SkierStart { SkierStart(skierID: "bob", origin: .node("n\(node)")) }
}

extension Result {
    var value: Success? { if case let .success(value) = self { return value }; return nil }
    var error: Failure? { if case let .failure(error) = self { return error }; return nil }
}
