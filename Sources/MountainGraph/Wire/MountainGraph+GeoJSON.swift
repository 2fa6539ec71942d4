extension MountainGraph {
    /// The graph as a GeoJSON FeatureCollection for any map viewer: one
    /// LineString per edge (runs coloured by difficulty, lifts, connectors,
    /// closed edges marked and dashed), one Point per node and per rendezvous
    /// point. Colours use the simplestyle `stroke` / `marker-color`
    /// properties that common viewers honour. Output is deterministic.
    public func geoJSON() -> [UInt8] {
        var w = CanonicalJSONWriter(capacity: edges.count * 400 + nodes.count * 150)
        w.beginObject()
        w.key("features")
        w.beginArray()
        for edge in edges {
            let a = edge.attributes
            w.beginObject()
            w.key("geometry")
            w.beginObject()
            w.key("coordinates")
            w.beginArray()
            for point in edge.geometry {
                w.beginArray(); w.number(point.lon); w.number(point.lat); w.endArray()
            }
            w.endArray()
            w.key("type"); w.string("LineString")
            w.endObject()
            w.key("id"); w.string(edge.id)
            w.key("properties")
            w.beginObject()
            w.key("closed"); w.bool(!a.isOpen)
            w.key("difficulty"); w.string(a.difficulty?.wireName)
            w.key("identity"); w.string(a.identityKey)
            w.key("kind"); w.string(edge.kind.rawValue)
            w.key("lengthMeters"); w.number(a.lengthMeters)
            w.key("liftType"); w.string(a.liftType?.rawValue)
            w.key("name"); w.string(a.trailName)
            w.key("queueEntry"); w.bool(a.queueEntry)
            w.key("stroke"); w.string(Self.colour(for: edge))
            w.key("stroke-dasharray"); w.string(a.isOpen ? nil : "4 4")
            w.key("stroke-width"); w.number(edge.kind == .lift ? 3 : 2)
            w.key("trailGroupId"); w.string(a.trailGroupId)
            w.key("verticalDrop"); w.number(a.verticalDrop)
            w.endObject()
            w.key("type"); w.string("Feature")
            w.endObject()
        }
        for node in nodes {
            point(&w, id: node.id, lon: node.lon, lat: node.lat) { w in
                w.key("elevation"); w.number(node.elevation)
                w.key("kind"); w.string(node.kind.rawValue)
                w.key("marker-color"); w.string(node.kind == .liftBase || node.kind == .liftTop ? "#d62728" : "#555555")
                w.key("marker-size"); w.string("small")
            }
        }
        for rendezvous in rendezvousPoints {
            guard let node = node(id: rendezvous.nodeId) else { continue }
            point(&w, id: rendezvous.id, lon: node.lon, lat: node.lat) { w in
                w.key("kind"); w.string("rendezvous:" + rendezvous.kind.rawValue)
                w.key("marker-color"); w.string("#9467bd")
                w.key("marker-size"); w.string("medium")
                w.key("name"); w.string(rendezvous.displayName)
            }
        }
        w.endArray()
        w.key("properties")
        w.beginObject()
        w.key("attribution"); w.string("© OpenStreetMap contributors (ODbL)")
        w.key("fingerprint"); w.string(fingerprint)
        w.key("graphVersion"); w.string(graphVersion)
        w.key("manifestVersion"); w.integer(manifestVersion)
        w.key("resortID"); w.string(resortID)
        w.key("snapshotDate"); w.string(snapshotDate)
        w.endObject()
        w.key("type"); w.string("FeatureCollection")
        w.endObject()
        return w.bytes
    }

    private func point(_ w: inout CanonicalJSONWriter, id: String, lon: Double, lat: Double,
                       properties: (inout CanonicalJSONWriter) -> Void) {
        w.beginObject()
        w.key("geometry")
        w.beginObject()
        w.key("coordinates")
        w.beginArray(); w.number(lon); w.number(lat); w.endArray()
        w.key("type"); w.string("Point")
        w.endObject()
        w.key("id"); w.string(id)
        w.key("properties")
        w.beginObject()
        properties(&w)
        w.endObject()
        w.key("type"); w.string("Feature")
        w.endObject()
    }

    /// Trail-map colours: green, blue, black, double black, park orange;
    /// lifts red, connectors grey, unrated runs light grey.
    static func colour(for edge: GraphEdge) -> String {
        switch edge.kind {
        case .lift: return "#d62728"
        case .traverse: return "#888888"
        case .run:
            switch edge.attributes.difficulty {
            case .green?: return "#2ca02c"
            case .blue?: return "#1f5fbf"
            case .black?: return "#222222"
            case .doubleBlack?: return "#000000"
            case .terrainPark?: return "#ff7f0e"
            case nil: return "#aaaaaa"
            }
        }
    }
}
