import Foundation

/// The review step's identity proposals: one row per simple chain of
/// routable ways that no manifest row claims.
///
/// Ways of one name are linked end to start where exactly one way ends and
/// one begins at a vertex no other way of that name passes through; each
/// maximal chain becomes a row. The longest chain keeps the name and the
/// others take "Name (2)", "Name (3)", … by length; unnamed ways each get
/// "Unnamed <kind> (way N)". Every proposal is checked by a trial build with
/// all of them accepted; a chain the build refuses is retried way by way,
/// and a way that still fails is reported with the build's reason.
public enum ClaimReview {
    public static func propose(osm: OSMData, elevation: (any ElevationSource)? = nil, manifest: CanonicalManifest? = nil,
                               options: BuildOptions = BuildOptions(missingElevation: .assumeFlat))
        -> (claims: [ClaimProposal], unclaimable: [UnclaimableWays]) {
        var run = BuildRun(osm: osm, manifest: manifest,
                           parameters: BuildParameters(resortID: "review", manifestVersion: 0, snapshotDate: ""),
                           options: options)
        run.classifyWays()
        run.claimIdentities()
        run.registerVertices(elevation: elevation)
        run.assignElevations()
        run.cutEdges()
        var claims = run.claimProposals(usedNames: Set((manifest?.trails.map { "trail:" + TrailNames.exact($0.name) } ?? [])
            + (manifest?.lifts.map { "lift:" + TrailNames.exact($0.name) } ?? [])))

        var unclaimable: [UnclaimableWays] = []
        var base = manifest ?? CanonicalManifest()
        base.expectedTrailCount = nil
        base.expectedLiftCount = nil
        let parameters = BuildParameters(resortID: "review", manifestVersion: 0, snapshotDate: "")
        var retried: Set<String> = []
        while !claims.isEmpty {
            var trial = base
            trial.trails += claims.compactMap(\.trail)
            trial.lifts += claims.compactMap(\.lift)
            do {
                _ = try GraphBuilder.build(osm: osm, manifest: trial, parameters: parameters, elevation: elevation, options: options)
                break
            } catch {
                let refused = Dictionary(grouping: error.failures.compactMap { f in f.identity.map { ($0, f) } }, by: \.0)
                guard !refused.isEmpty else { break }
                var next: [ClaimProposal] = []
                var changed = false
                for claim in claims {
                    let key = "\(claim.kind.rawValue):\(claim.name)"
                    guard let failures = refused[key] else { next.append(claim); continue }
                    changed = true
                    if claim.wayIDs.count > 1, retried.insert(key).inserted {
                        // Way by way: each alone is a chain unless it loops on itself.
                        for way in claim.wayIDs {
                            next.append(run.claimEvidence(claim.kind, name: claim.name + " (way \(way))", sourceName: claim.sourceName,
                                                          reason: claim.reason == .unnamed ? .unnamed : .piece, ways: [run.wayIndex[way]!]))
                        }
                    } else {
                        unclaimable.append(UnclaimableWays(kind: claim.kind, name: claim.sourceName, wayIDs: claim.wayIDs,
                                                           reason: failures.map { $0.1.message }.joined(separator: "; ")))
                    }
                }
                // Refusals that name no proposal belong to the manifest itself.
                guard changed else { break }
                claims = next
            }
        }
        return (claims.sorted { ($0.kind.rawValue, $0.wayIDs.first ?? 0) < ($1.kind.rawValue, $1.wayIDs.first ?? 0) }, unclaimable)
    }
}

extension BuildRun {
    /// Chains of unclaimed routable ways, named, before any trial build.
    func claimProposals(usedNames: Set<String>) -> [ClaimProposal] {
        var used = usedNames
        var groups: [String: [Int]] = [:]
        var proposals: [ClaimProposal] = []
        for (index, way) in ways.enumerated() where way.kind != .traverse && claimedBy[index] == nil {
            let kind: GraphIdentity.Kind = way.kind == .lift ? .lift : .trail
            guard let name = way.claimNames.lazy.map(TrailNames.exact).first(where: { !$0.isEmpty }) else {
                let what = way.kind == .lift ? (way.liftType?.rawValue.replacingOccurrences(of: "_", with: " ") ?? "lift") : "run"
                proposals.append(claimEvidence(kind, name: "Unnamed \(what) (way \(way.id))", sourceName: nil, reason: .unnamed, ways: [index]))
                continue
            }
            groups["\(kind.rawValue):\(name)", default: []].append(index)
        }
        for key in groups.keys.sorted(by: utf8Less) {
            let kind: GraphIdentity.Kind = key.hasPrefix("lift:") ? .lift : .trail
            let name = String(key.drop { $0 != ":" }.dropFirst())
            let chains = wayChains(groups[key]!)
            let touching = chains.count > 1 && Set(chains.flatMap { chainVertices($0) }).count
                < chains.map { chainVertices($0).count }.reduce(0, +)
            let ranked = chains.map { ($0, $0.reduce(0.0) { $0 + wayLength($1) }) }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : ways[$0.0[0]].id < ways[$1.0[0]].id }
            var number = 1
            for (chain, _) in ranked {
                var candidate = number == 1 ? name : "\(name) (\(number))"
                while used.contains("\(kind.rawValue):\(candidate)") {
                    number += 1
                    candidate = "\(name) (\(number))"
                }
                used.insert("\(kind.rawValue):\(candidate)")
                number += 1
                let reason: ClaimProposal.Reason = chains.count == 1 ? .whole : touching ? .branch : .piece
                proposals.append(claimEvidence(kind, name: candidate, sourceName: name, reason: reason, ways: chain))
            }
        }
        return proposals
    }

    /// The way's start and end vertex in travel order.
    private func travelEnds(_ way: Int) -> (start: Int, end: Int)? {
        let primary = edgesOfWay[way].filter { !edges[$0].isReverseTwin }
        guard let first = primary.first, let last = primary.last else { return nil }
        return (edges[first].sourceVertex, edges[last].targetVertex)
    }

    private func chainVertices(_ chain: [Int]) -> Set<Int> {
        Set(chain.flatMap { ways[$0].vertices.map { vertices.index[$0]! } })
    }

    private func wayLength(_ way: Int) -> Double {
        edgesOfWay[way].filter { !edges[$0].isReverseTwin }.reduce(0) { $0 + edges[$1].geometricLength }
    }

    /// Maximal chains: way a continues into way b where a ends and b starts
    /// at a vertex that no other way of the group ends at, starts at or
    /// passes through. In id order, so the same group always chains alike.
    private func wayChains(_ group: [Int]) -> [[Int]] {
        var endsAt: [Int: [Int]] = [:], startsAt: [Int: [Int]] = [:], passes: [Int: Int] = [:]
        var ends: [Int: (start: Int, end: Int)] = [:]
        for way in group {
            guard let e = travelEnds(way) else { continue }
            ends[way] = e
            startsAt[e.start, default: []].append(way)
            endsAt[e.end, default: []].append(way)
            for vertex in Set(ways[way].vertices.map { vertices.index[$0]! }) where vertex != e.start && vertex != e.end {
                passes[vertex, default: 0] += 1
            }
        }
        var next: [Int: Int] = [:], hasPrevious: Set<Int> = []
        for way in group {
            guard let e = ends[way], endsAt[e.end]?.count == 1, let successors = startsAt[e.end], successors.count == 1,
                  passes[e.end] == nil, successors[0] != way else { continue }
            next[way] = successors[0]
            hasPrevious.insert(successors[0])
        }
        var chains: [[Int]] = []
        var placed: Set<Int> = []
        for way in group.sorted() where !hasPrevious.contains(way) || ends[way] == nil {
            var chain = [way]
            placed.insert(way)
            while let following = next[chain[chain.count - 1]], placed.insert(following).inserted { chain.append(following) }
            chains.append(chain)
        }
        // Ways left are on closed loops of the name: each loop from its smallest way.
        for way in group.sorted() where !placed.contains(way) {
            var chain = [way]
            placed.insert(way)
            while let following = next[chain[chain.count - 1]], placed.insert(following).inserted { chain.append(following) }
            chains.append(chain)
        }
        return chains
    }

    func claimEvidence(_ kind: GraphIdentity.Kind, name: String, sourceName: String?, reason: ClaimProposal.Reason,
                       ways chain: [Int]) -> ClaimProposal {
        let elevations = chain.flatMap { ways[$0].vertices.map { vertices.elevation[vertices.index[$0]!] } }
        func common<T: Equatable>(_ value: (RoutableWay) -> T?) -> T? {
            let values = chain.map { value(ways[$0]) }
            guard let first = values.first, let first, values.allSatisfy({ $0 == first }) else { return nil }
            return first
        }
        return ClaimProposal(
            kind: kind, name: name, sourceName: sourceName, reason: reason, wayIDs: chain.map { ways[$0].id }.sorted(),
            lengthMeters: Quantize.metres(chain.reduce(0.0) { $0 + wayLength($1) }),
            topElevation: elevations.max() ?? 0, bottomElevation: elevations.min() ?? 0,
            difficulty: kind == .trail ? common { $0.tags["piste:difficulty"].flatMap(RunDifficulty.init(osm:)) } : nil,
            liftType: kind == .lift ? common(\.liftType) : nil,
            capacity: kind == .lift ? common { $0.tags["aerialway:capacity"].flatMap { Int($0) } }.flatMap { (0...65535).contains($0) ? $0 : nil } : nil)
    }
}
