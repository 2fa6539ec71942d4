extension MountainGraph {
    /// The graph as canonical JSON: the exact bytes the content SHA-256 covers.
    public func canonicalJSON() -> [UInt8] {
        var w = CanonicalJSONWriter(capacity: edges.count * 900 + nodes.count * 120)
        w.beginObject()
        w.key("edges")
        w.beginArray()
        for edge in edges { Self.write(edge, to: &w) }
        w.endArray()
        w.key("fingerprint"); w.string(fingerprint)
        w.key("graphVersion"); w.string(graphVersion)
        w.key("identities")
        w.beginArray()
        for identity in identities {
            w.beginObject()
            w.key("chains")
            w.beginArray()
            for chain in identity.chains {
                w.beginArray()
                for id in chain { w.string(id) }
                w.endArray()
            }
            w.endArray()
            w.key("kind"); w.string(identity.kind.rawValue)
            w.key("name"); w.string(identity.name)
            w.key("wayIds")
            w.beginArray()
            for way in identity.wayIDs { w.string(String(way)) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("manifestVersion"); w.integer(manifestVersion)
        w.key("nodes")
        w.beginObject()
        for node in nodes {
            w.key(node.id)
            w.beginObject()
            w.key("elevation"); w.number(node.elevation)
            w.key("id"); w.string(node.id)
            w.key("kind"); w.string(node.kind.rawValue)
            w.key("lat"); w.number(node.lat)
            w.key("lon"); w.number(node.lon)
            w.endObject()
        }
        w.endObject()
        w.key("rendezvousPoints")
        w.beginArray()
        for point in rendezvousPoints {
            w.beginObject()
            w.key("confidence"); w.number(point.confidence)
            w.key("displayName"); w.string(point.displayName)
            w.key("id"); w.string(point.id)
            w.key("kind"); w.string(point.kind.rawValue)
            w.key("nodeId"); w.string(point.nodeId)
            w.key("quality"); w.number(point.quality)
            w.endObject()
        }
        w.endArray()
        w.key("resortID"); w.string(resortID)
        w.key("snapshotDate"); w.string(snapshotDate)
        w.endObject()
        return w.bytes
    }

    private static func write(_ edge: GraphEdge, to w: inout CanonicalJSONWriter) {
        let a = edge.attributes
        w.beginObject()
        w.key("attributes")
        w.beginObject()
        w.key("aspect"); w.number(a.aspect)
        w.key("aspectVariance"); w.number(a.aspectVariance)
        w.key("averageGradient"); w.number(a.averageGradient)
        w.key("chainIndex"); w.integer(a.chainIndex)
        w.key("difficulty"); w.string(a.difficulty?.wireName)
        w.key("direction"); w.string(a.direction.rawValue)
        w.key("estimatedSurfaceCondition"); w.string(a.estimatedSurfaceCondition)
        w.key("estimatedTrailWidthMeters"); w.number(a.estimatedTrailWidthMeters)
        w.key("fallLineExposure"); w.number(a.fallLineExposure)
        w.key("hasMoguls"); w.bool(a.hasMoguls)
        w.key("identityKey"); w.string(a.identityKey)
        w.key("isGladed"); w.bool(a.isGladed)
        w.key("isGroomed"); w.bool(a.isGroomed)
        w.key("isOfficiallyValidated"); w.bool(a.isOfficiallyValidated)
        w.key("isOpen"); w.bool(a.isOpen)
        w.key("lastGroomedHoursAgo"); w.number(a.lastGroomedHoursAgo)
        w.key("lengthMeters"); w.number(a.lengthMeters)
        w.key("liftCapacity"); w.integer(a.liftCapacity)
        w.key("liftType"); w.string(a.liftType?.rawValue)
        w.key("maxGradient"); w.number(a.maxGradient)
        w.key("midpointElevation"); w.number(a.midpointElevation)
        w.key("nightGroomedFlag"); w.bool(a.nightGroomedFlag)
        w.key("obstacleDensity"); w.number(a.obstacleDensity)
        w.key("queueEntry"); w.bool(a.queueEntry)
        w.key("rideTimeSeconds"); w.number(a.rideTimeSeconds)
        w.key("segmentIndex"); w.integer(a.segmentIndex)
        w.key("sourceWayId"); w.string(a.sourceWayId)
        w.key("trailGroupId"); w.string(a.trailGroupId)
        w.key("trailName"); w.string(a.trailName)
        w.key("verticalDrop"); w.number(a.verticalDrop)
        w.key("waitTimeMinutes"); w.number(a.waitTimeMinutes)
        w.endObject()
        w.key("geometryPairs")
        w.beginArray()
        for point in edge.geometry {
            w.beginArray()
            w.number(point.lon)
            w.number(point.lat)
            w.endArray()
        }
        w.endArray()
        w.key("id"); w.string(edge.id)
        w.key("kind"); w.string(edge.kind.rawValue)
        w.key("sourceID"); w.string(edge.sourceID)
        w.key("targetID"); w.string(edge.targetID)
        w.endObject()
    }
}
