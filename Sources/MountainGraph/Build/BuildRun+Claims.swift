/// A manifest row resolved to the routable ways it claims.
struct ResolvedIdentity {
    let kind: GraphIdentity.Kind
    /// NFC, trimmed: the form names are compared and published in.
    let name: String
    let trail: CanonicalTrail?
    let lift: CanonicalLift?
    /// Claimed way indices, ascending by way id.
    var ways: [Int] = []

    var key: String { "\(kind.rawValue):\(name)" }
}

extension BuildRun {
    /// Checks the manifest rows and resolves which ways each identity claims:
    /// `osm_way_ids` when present (authoritative), else the exact name for a
    /// reviewed source-less row. Every problem is recorded with its identity.
    mutating func claimIdentities() {
        guard let manifest else { return }
        if let expected = manifest.expectedTrailCount, expected != manifest.trails.count {
            failures.append(BuildFailure(
                code: .countMismatch,
                message: "manifest has \(manifest.trails.count) trail rows but expects \(expected): apply a manifest whose rows match its reviewed counts"))
        }
        if let expected = manifest.expectedLiftCount, expected != manifest.lifts.count {
            failures.append(BuildFailure(
                code: .countMismatch,
                message: "manifest has \(manifest.lifts.count) lift rows but expects \(expected): apply a manifest whose rows match its reviewed counts"))
        }

        var rows: [ResolvedIdentity] = []
        for trail in manifest.trails {
            rows.append(ResolvedIdentity(kind: .trail, name: TrailNames.exact(trail.name), trail: trail, lift: nil))
        }
        for lift in manifest.lifts {
            rows.append(ResolvedIdentity(kind: .lift, name: TrailNames.exact(lift.name), trail: nil, lift: lift))
        }
        rows.sort { $0.kind.rawValue != $1.kind.rawValue ? $0.kind.rawValue < $1.kind.rawValue : utf8Less($0.name, $1.name) }

        // Duplicate names within a kind.
        var seen: [String: Int] = [:]
        for row in rows { seen[row.key, default: 0] += 1 }
        for (key, count) in seen.sorted(by: { utf8Less($0.key, $1.key) }) where count > 1 {
            failures.append(BuildFailure(
                code: .duplicateIdentity, identity: key,
                message: "\(count) rows are named '\(key.drop { $0 != ":" }.dropFirst())': each identity needs a unique name; merge or rename them"))
        }

        let namesNeeded = rows.contains { ($0.trail?.osmWayIDs ?? $0.lift?.osmWayIDs ?? []).isEmpty }
        let waysByName = namesNeeded ? exactNameIndex() : [:]
        var claimants: [Int: [Int]] = [:]

        for (identityIndex, row) in rows.enumerated() {
            if row.name.isEmpty {
                failures.append(BuildFailure(code: .manifestUnreadable, identity: row.key,
                                             message: "a \(row.kind.rawValue) row has an empty name; every identity needs its official name"))
            }
            failures.append(contentsOf: officialTotalProblems(row))
            let listed = row.trail?.osmWayIDs ?? row.lift?.osmWayIDs ?? []
            let reviewed = row.trail?.nameFallbackReviewed ?? row.lift?.nameFallbackReviewed ?? false
            var claimed: [Int] = []
            if !listed.isEmpty {
                for wayID in Set(listed).sorted() {
                    guard let index = wayIndex[wayID] else {
                        let why = excluded[wayID].map { "way \(wayID) \($0.explanation)" }
                            ?? "way \(wayID) is not in the OSM snapshot"
                        failures.append(BuildFailure(code: .missingIdentity, identity: row.key, wayIDs: [wayID],
                                                     message: "\(why): fix osm_way_ids for this row or refresh the snapshot"))
                        continue
                    }
                    let isLift = ways[index].kind == .lift
                    if isLift != (row.kind == .lift) {
                        let wayKind = isLift ? "an aerialway" : "a piste"
                        failures.append(BuildFailure(code: .kindMismatch, identity: row.key, wayIDs: [wayID],
                                                     message: "a \(row.kind.rawValue) row claims way \(wayID), which is \(wayKind): move the way to a \(isLift ? "lift" : "trail") row"))
                        continue
                    }
                    claimed.append(index)
                }
            } else if reviewed {
                let key = NameKey(isLift: row.kind == .lift, name: row.name)
                claimed = waysByName[key] ?? []
                if claimed.isEmpty {
                    failures.append(BuildFailure(code: .missingIdentity, identity: row.key,
                                                 message: "no \(row.kind == .lift ? "aerialway" : "piste") way is named exactly '\(row.name)': list its osm_way_ids or correct the name"))
                }
            } else {
                failures.append(BuildFailure(code: .missingIdentity, identity: row.key,
                                             message: "the row lists no osm_way_ids and is not a reviewed source-less row (name_fallback_reviewed): list the ways it is made of"))
            }
            rows[identityIndex].ways = claimed
            for index in claimed { claimants[index, default: []].append(identityIndex) }
        }

        for (index, owners) in claimants.sorted(by: { $0.key < $1.key }) {
            if owners.count == 1 {
                claimedBy[index] = owners[0]
                continue
            }
            // Leave the contested way out of every claimant so the shape
            // checks below report only the identities' own problems.
            for owner in owners { rows[owner].ways.removeAll { $0 == index } }
            let names = owners.map { rows[$0].key }
            for owner in owners {
                failures.append(BuildFailure(code: .multiplyClaimed, identity: rows[owner].key, wayIDs: [ways[index].id],
                                             message: "way \(ways[index].id) is claimed by \(names.joined(separator: " and ")): give the way to exactly one identity"))
            }
        }
        identities = rows
    }

    private struct NameKey: Hashable {
        let isLift: Bool
        let name: String
    }

    /// Routable ways by the exact form of each name they carry.
    private func exactNameIndex() -> [NameKey: [Int]] {
        var index: [NameKey: [Int]] = [:]
        for (position, way) in ways.enumerated() {
            for name in Set(way.claimNames.map(TrailNames.exact)) {
                index[NameKey(isLift: way.kind == .lift, name: name), default: []].append(position)
            }
        }
        return index
    }

    /// Official totals that cannot be allocated (negative, zero length or ride).
    private func officialTotalProblems(_ row: ResolvedIdentity) -> [BuildFailure] {
        var problems: [String] = []
        if let trail = row.trail {
            if let length = trail.lengthM, !(length.isFinite && length > 0) { problems.append("length_m \(length) must be positive") }
            if let vertical = trail.vertM, !(vertical.isFinite && vertical >= 0 && vertical <= 5000) { problems.append("vert_m \(vertical) must be within 0…5000") }
        }
        if let lift = row.lift {
            if let ride = lift.rideTimeS, !(ride.isFinite && ride > 0 && ride <= 7200) { problems.append("ride_time_s \(ride) must be within (0, 7200]") }
            if let rise = lift.verticalRiseM, !(rise.isFinite && rise >= 0 && rise <= 5000) { problems.append("vertical_rise_m \(rise) must be within 0…5000") }
            if let capacity = lift.capacity, !(0...65535).contains(capacity) { problems.append("capacity \(capacity) must be within 0…65535") }
        }
        return problems.map { BuildFailure(code: .manifestUnreadable, identity: row.key, message: $0) }
    }
}
