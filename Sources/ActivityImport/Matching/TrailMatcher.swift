import Foundation
import MountainGraph

/// Map-matches sections onto the resort graph's directed edges.
///
/// A hidden Markov model over the whole section (Newson & Krumm style), not
/// nearest-edge snapping per fix: every fix has as candidates the edges of the
/// right kind (runs and connectors for a descent, lifts for a ride) within the
/// tier's radius; a candidate costs more the farther the fix is from it and
/// the more the skier's heading disagrees with the edge's direction; moving
/// from one candidate to the next costs the difference between the route
/// length along the graph (respecting edge direction) and the straight-line
/// step. Viterbi picks the cheapest consistent path. Where no candidate exists
/// or no route connects, the chain breaks and the stretch is reported as
/// unmatched instead of being forced onto a trail.
public struct TrailMatcher: Sendable {
    public struct Tier: Sendable {
        var method: MatchMethod
        var radius: Double
        var maxHeading: Double
    }

    static let strict = Tier(method: .strict, radius: 60, maxHeading: 45)
    static let relaxed = Tier(method: .relaxed, radius: 120, maxHeading: 70)
    static let nearestRadius = 300.0

    /// Standard deviation of GPS error, metres.
    var sigma = 12.0
    /// Scale of route-versus-straight disagreement, metres.
    var beta = 15.0
    var maxCandidates = 8

    let index: EdgeIndex

    public init(graph: MountainGraph) {
        index = EdgeIndex(graph: graph)
    }

    public var graph: MountainGraph { index.graph }

    public func match(_ section: SkiSection) -> TrailMatch {
        guard section.points.count >= 4 else { return .unmatched(section) }
        let kinds: Set<EdgeKind> = section.kind == .lift ? [.lift] : [.run, .traverse]
        let mask = index.graph.edges.map { kinds.contains($0.kind) }
        let allowed = { (edge: Int) in mask[edge] }
        let strictMatch = run(section, tier: Self.strict, mask: mask)
        if strictMatch.matchedShare >= 0.5 { return strictMatch }
        let relaxedMatch = run(section, tier: Self.relaxed, mask: mask)
        if relaxedMatch.matchedShare >= 0.5 { return relaxedMatch }
        // Nearest: the section's centre near some edge of the right kind names it, nothing more.
        let lat = section.points.map(\.lat).reduce(0, +) / Double(section.points.count)
        let lon = section.points.map(\.lon).reduce(0, +) / Double(section.points.count)
        let centre = index.projection.project(lat, lon)
        if let hit = index.hits(x: centre.x, y: centre.y, radius: Self.nearestRadius, allowed: allowed).first {
            var result = TrailMatch.unmatched(section)
            result.method = .nearest
            result.confidence = 0.1
            result.primaryEdgeID = index.graph.edges[hit.edge].id
            return result
        }
        return .unmatched(section)
    }

    // MARK: - The model

    struct Candidate {
        var edge: Int
        var offset: Double
        var distance: Double
        var cost: Double
    }

    private func run(_ section: SkiSection, tier: Tier, mask: [Bool]) -> TrailMatch {
        let points = section.points
        let n = points.count
        let xy = points.map { index.projection.project($0.lat, $0.lon) }
        let headings = Self.headings(xy)
        var routes = RouteCache(index: index, allowed: mask)

        // Candidates per fix.
        var candidates: [[Candidate]] = []
        candidates.reserveCapacity(n)
        for k in 0..<n {
            var list: [Candidate] = []
            for hit in index.hits(x: xy[k].x, y: xy[k].y, radius: tier.radius, allowed: { mask[$0] }).prefix(maxCandidates * 2) {
                var cost = 0.5 * (hit.distance / sigma) * (hit.distance / sigma)
                if let heading = headings[k] {
                    let angle = Geo.angleBetween(heading, hit.bearing)
                    if angle > tier.maxHeading { continue }
                    cost += (angle / tier.maxHeading) * (angle / tier.maxHeading) * 1.5
                }
                list.append(Candidate(edge: hit.edge, offset: hit.offset, distance: hit.distance, cost: cost))
                if list.count == maxCandidates { break }
            }
            candidates.append(list)
        }

        // Viterbi with breaks: a chain ends where nothing connects.
        var assignment = [Int?](repeating: nil, count: n)    // candidate index per fix
        var chainStart = 0
        var scores: [Double] = []
        var back: [[Int]] = Array(repeating: [], count: n)
        func closeChain(at end: Int) {
            // Backtrack the chain chainStart..<end.
            guard end > chainStart, !scores.isEmpty, let best = scores.indices.min(by: { scores[$0] < scores[$1] }) else { return }
            var current = best
            var k = end - 1
            while k >= chainStart {
                assignment[k] = current
                if k > chainStart { current = back[k][current] }
                k -= 1
            }
        }
        for k in 0..<n {
            let list = candidates[k]
            if list.isEmpty {
                closeChain(at: k)
                scores = []
                chainStart = k + 1
                continue
            }
            if scores.isEmpty {
                scores = list.map(\.cost)
                back[k] = Array(repeating: -1, count: list.count)
                chainStart = k
                continue
            }
            let previous = candidates[k - 1]
            let step = ((xy[k].x - xy[k - 1].x) * (xy[k].x - xy[k - 1].x) + (xy[k].y - xy[k - 1].y) * (xy[k].y - xy[k - 1].y)).squareRoot()
            var next = [Double](repeating: .infinity, count: list.count)
            var from = [Int](repeating: -1, count: list.count)
            for (j, candidate) in list.enumerated() {
                for (i, earlier) in previous.enumerated() where scores[i].isFinite {
                    guard let route = routes.distance(from: earlier, to: candidate, limit: step * 3 + 150) else { continue }
                    let value = scores[i] + abs(route - step) / beta + candidate.cost
                    if value < next[j] { next[j] = value; from[j] = i }
                }
            }
            if next.allSatisfy({ !$0.isFinite }) {
                closeChain(at: k)
                scores = list.map(\.cost)
                back[k] = Array(repeating: -1, count: list.count)
                chainStart = k
            } else {
                scores = next
                back[k] = from
            }
        }
        closeChain(at: n)
        return summarize(section, candidates: candidates, assignment: assignment, tier: tier, routes: &routes)
    }

    /// Heading of travel at each fix from positions at least 8 m before and after; nil while standing still.
    static func headings(_ xy: [(x: Double, y: Double)]) -> [Double?] {
        let n = xy.count
        var result = [Double?](repeating: nil, count: n)
        for k in 0..<n {
            var a = k, b = k
            func far(_ i: Int, _ j: Int) -> Bool {
                let dx = xy[i].x - xy[j].x, dy = xy[i].y - xy[j].y
                return dx * dx + dy * dy >= 64
            }
            while a > 0, k - a < 5, !far(a, k) { a -= 1 }
            while b < n - 1, b - k < 5, !far(b, k) { b += 1 }
            let dx = xy[b].x - xy[a].x, dy = xy[b].y - xy[a].y
            guard dx * dx + dy * dy >= 100 else { continue }
            var bearing = atan2Degrees(dx, dy)
            if bearing < 0 { bearing += 360 }
            result[k] = bearing
        }
        return result
    }

    // MARK: - Results

    private func summarize(_ section: SkiSection, candidates: [[Candidate]], assignment: [Int?], tier: Tier,
                           routes: inout RouteCache) -> TrailMatch {
        let points = section.points
        let n = points.count
        let chosen: [Candidate?] = (0..<n).map { k in assignment[k].map { candidates[k][$0] } }
        var steps = [Double](repeating: 0, count: n)
        for k in 1..<n { steps[k] = Geo.distance(points[k - 1].lat, points[k - 1].lon, points[k].lat, points[k].lon) }
        let total = steps.reduce(0, +)

        var matchedDistance = 0.0
        var distanceSum = 0.0, matchedPoints = 0
        var unmatched: [UnmatchedStretch] = []
        var edgeDistance: [Int: Double] = [:]
        var sequence: [Int] = []
        var openStretch: (start: Int, distance: Double)?
        for k in 0..<n {
            if let candidate = chosen[k] {
                distanceSum += candidate.distance
                matchedPoints += 1
                if k > 0, let previous = chosen[k - 1] {
                    matchedDistance += steps[k]
                    edgeDistance[candidate.edge, default: 0] += steps[k]
                    if previous.edge != candidate.edge {
                        sequence += routes.path(from: previous, to: candidate)
                    }
                }
                if sequence.last != candidate.edge { sequence.append(candidate.edge) }
                if let open = openStretch {
                    unmatched.append(UnmatchedStretch(start: points[open.start].time, end: points[k].time, distance: open.distance + steps[k]))
                    openStretch = nil
                }
            } else {
                if openStretch == nil { openStretch = (max(k - 1, 0), k > 0 ? steps[k] : 0) } else { openStretch!.distance += steps[k] }
            }
        }
        if let open = openStretch {
            unmatched.append(UnmatchedStretch(start: points[open.start].time, end: points[n - 1].time, distance: open.distance))
        }
        let share = total > 0 ? matchedDistance / total : 0
        let mean = matchedPoints > 0 ? distanceSum / Double(matchedPoints) : 0

        // Observations: maximal runs of consecutive fixes on one edge.
        var observations: [EdgeObservation] = []
        var k = 0
        while k < n {
            guard let candidate = chosen[k] else { k += 1; continue }
            var end = k
            var low = candidate.offset, high = candidate.offset
            while end + 1 < n, let next = chosen[end + 1], next.edge == candidate.edge {
                end += 1
                low = min(low, next.offset)
                high = max(high, next.offset)
            }
            let length = max(index.edgeLength[candidate.edge], 1)
            let duration = points[end].time - points[k].time
            let covered = min(1, (high - low) / length)
            let count = end - k + 1
            observations.append(EdgeObservation(
                edgeID: index.graph.edges[candidate.edge].id, enteredAt: points[k].time, exitedAt: points[end].time,
                fractionCovered: covered, speed: duration > 0 ? (high - low) / duration : 0, duration: duration, points: count,
                feedsLearning: tier.method == .strict && count >= 4 && covered >= 0.5 && duration > 0))
            k = end + 1
        }
        let primary = edgeDistance.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
        let confidence = tier.method == .strict ? max(0, 1 - mean / 60) : 0.5 * max(0, 1 - mean / 120)
        return TrailMatch(method: tier.method, confidence: confidence,
                          edgeIDs: sequence.map { index.graph.edges[$0].id }, observations: observations,
                          primaryEdgeID: primary.map { index.graph.edges[$0].id }, matchedShare: share, meanDistance: mean,
                          unmatched: unmatched, pointEdges: chosen.map { $0.map { index.graph.edges[$0.edge].id } })
    }
}
