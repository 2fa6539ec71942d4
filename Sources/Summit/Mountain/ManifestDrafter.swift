import Foundation
import MountainGraph

/// Drafts a manifest from a snapshot: one identity per distinct name among the
/// routable runs and lifts, claiming exactly those ways. A name whose ways do
/// not make one simple chain (split apart, branched) cannot be an identity as
/// drafted; it is set aside with the build's reason for an operator to decide.
/// The resulting rows always build; connectors are only ever proposed.
package enum ManifestDrafter {
    package struct Draft: Sendable {
        var trails: [CanonicalTrail]
        var lifts: [CanonicalLift]
        var unresolved: [UnresolvedIdentity]
    }

    package static func draft(_ snapshot: SnapshotInputs, resortID: String) throws -> Draft {
        let parameters = BuildParameters(resortID: resortID, manifestVersion: 0, snapshotDate: snapshot.snapshotDate)
        let base: BuildResult
        do {
            base = try GraphBuilder.build(osm: snapshot.osm, parameters: parameters,
                                          elevation: snapshot.elevation, options: snapshot.options)
        } catch {
            throw SnapshotRefusal.doesNotBuild(error, source: snapshot.sourceName)
        }

        // Routable ways by kind, as the builder classified them.
        var runWays = Set<Int64>(), liftWays = Set<Int64>()
        for edge in base.graph.edges {
            guard let id = Int64(edge.attributes.sourceWayId) else { continue }
            switch edge.kind {
            case .run: runWays.insert(id)
            case .lift: liftWays.insert(id)
            case .traverse: break
            }
        }
        var trailWays: [String: [OSMWay]] = [:]
        var liftWaysByName: [String: [OSMWay]] = [:]
        for way in snapshot.osm.ways {
            if runWays.contains(way.id), let name = identityName(way.tags["name"] ?? way.tags["piste:name"]) {
                trailWays[name, default: []].append(way)
            } else if liftWays.contains(way.id), let name = identityName(way.tags["name"]) {
                liftWaysByName[name, default: []].append(way)
            }
        }

        var trails = trailWays.map { name, ways in
            CanonicalTrail(name: name, difficulty: common(ways) { $0.tags["piste:difficulty"].flatMap(RunDifficulty.init(osm:)) },
                           osmWayIDs: ways.map(\.id).sorted())
        }.sorted { utf8Less($0.name, $1.name) }
        var lifts = liftWaysByName.map { name, ways in
            CanonicalLift(name: name, liftType: common(ways) { $0.tags["aerialway"].map(LiftType.init(tag:)) },
                          capacity: common(ways) { $0.tags["aerialway:capacity"].flatMap { Int($0) } }.flatMap { (0...65535).contains($0) ? $0 : nil },
                          osmWayIDs: ways.map(\.id).sorted())
        }.sorted { utf8Less($0.name, $1.name) }

        // Set aside every identity the build refuses, until the rest builds.
        var unresolved: [UnresolvedIdentity] = []
        while true {
            let manifest = CanonicalManifest(expectedTrailCount: trails.count, expectedLiftCount: lifts.count,
                                             trails: trails, lifts: lifts)
            do {
                _ = try GraphBuilder.build(osm: snapshot.osm, manifest: manifest, parameters: parameters,
                                           elevation: snapshot.elevation, options: snapshot.options)
                break
            } catch {
                let refused = Dictionary(grouping: error.failures.filter { $0.identity != nil }, by: { $0.identity! })
                guard !refused.isEmpty else { throw SnapshotRefusal.doesNotBuild(error, source: snapshot.sourceName) }
                for (key, failures) in refused.sorted(by: { utf8Less($0.key, $1.key) }) {
                    let isLift = key.hasPrefix("lift:")
                    let name = String(key.drop { $0 != ":" }.dropFirst())
                    let ways = isLift ? lifts.first { $0.name == name }?.osmWayIDs : trails.first { $0.name == name }?.osmWayIDs
                    unresolved.append(UnresolvedIdentity(
                        kind: isLift ? "lift" : "trail", name: name, osmWayIDs: ways ?? [],
                        code: failures[0].code.rawValue, message: failures.map(\.message).joined(separator: "; ")))
                }
                trails.removeAll { refused["trail:\($0.name)"] != nil }
                lifts.removeAll { refused["lift:\($0.name)"] != nil }
            }
        }
        return Draft(trails: trails, lifts: lifts, unresolved: unresolved)
    }

    /// A name as identities compare it: Unicode NFC, outer whitespace trimmed.
    static func identityName(_ raw: String?) -> String? {
        guard let trimmed = raw?.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines),
              !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// The value every way agrees on, or nil.
    private static func common<T: Equatable>(_ ways: [OSMWay], _ value: (OSMWay) -> T?) -> T? {
        let values = ways.map(value)
        guard let first = values.first, let first, values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}

/// Byte-wise UTF-8 order: the same on every machine and locale.
func utf8Less(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
