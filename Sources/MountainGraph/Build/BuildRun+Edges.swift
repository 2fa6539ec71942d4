extension BuildRun {
    /// Orients every way, splits it at its junctions and makes one edge per
    /// piece and direction, with tag and geometry attributes.
    mutating func cutEdges() {
        for index in ways.indices {
            let way = ways[index]
            let vertexIndices = way.vertices.map { vertices.index[$0]! }
            let pieces = Self.pieces(vertexIndices, splitAt: { vertices.isShared[$0] || anchorVertices.contains($0) })
            let directions = travelDirections(way, vertexIndices)
            let facts = RunTagFacts(way)
            var primary: [Int] = []
            var twins: [Int] = []
            for (travel, isTwin) in directions {
                // Pieces are numbered in OSM order; travel against it visits them backwards.
                let order = travel == .forward ? Array(pieces.indices) : Array(pieces.indices.reversed())
                for pieceNumber in order {
                    let piece = pieces[pieceNumber]
                    var path = Array(vertexIndices[piece])
                    if travel == .reverse { path.reverse() }
                    let id = way.kind.idPrefix + String(way.id)
                        + (pieces.count > 1 ? "_s\(pieceNumber + 1)" : "")
                        + (isTwin ? "_r" : "")
                    edges.append(makeEdge(id: id, way: way, wayFacts: facts, wayIndex: index, path: path,
                                          direction: travel, segmentIndex: pieceNumber + 1))
                    if isTwin { twins.append(edges.count - 1) } else { primary.append(edges.count - 1) }
                }
            }
            edgesOfWay[index] = primary + twins
        }
    }

    /// Vertex-index ranges between consecutive split points. A piece that
    /// would start and end on the same vertex (a closed ring) is split again
    /// at its middle vertex so no edge is a loop.
    static func pieces(_ path: [Int], splitAt isSplit: (Int) -> Bool) -> [ClosedRange<Int>] {
        var cuts = [0]
        for position in 1..<(path.count - 1) where isSplit(path[position]) { cuts.append(position) }
        cuts.append(path.count - 1)
        var pieces: [ClosedRange<Int>] = []
        for (start, end) in zip(cuts, cuts.dropFirst()) {
            if path[start] == path[end] && end - start >= 2 {
                let middle = (start + end) / 2
                pieces.append(start...middle)
                pieces.append(middle...end)
            } else if path[start] != path[end] {
                pieces.append(start...end)
            }
        }
        return pieces
    }

    /// The directions a way is travelled in, each with whether it is the `_r` twin.
    private func travelDirections(_ way: RoutableWay, _ path: [Int]) -> [(EdgeDirection, Bool)] {
        let elevations = path.map { vertices.elevation[$0] }
        let first = elevations[0]
        let last = elevations[elevations.count - 1]
        switch way.kind {
        case .run:
            // Pistes are drawn downhill; elevation overrides the drawing when it disagrees.
            if first != last { return [(first >= last ? .forward : .reverse, false)] }
            if elevations.count >= 3, let maximum = elevations.max(), maximum > 0 {
                let firstMaximum = elevations.firstIndex(of: maximum)!
                return [(firstMaximum <= elevations.count / 2 ? .forward : .reverse, false)]
            }
            return [(.forward, false)]
        case .lift:
            // Base is the lower end; equal ends keep the drawing order.
            let up: EdgeDirection = last < first ? .reverse : .forward
            let down: EdgeDirection = up == .forward ? .reverse : .forward
            return way.tags["oneway"] == "no" ? [(up, false), (down, true)] : [(up, false)]
        case .traverse:
            switch way.tags["oneway"] {
            case "yes", "true", "1": return [(.forward, false)]
            case "-1", "reverse": return [(.reverse, false)]
            default: return [(.forward, false), (.reverse, true)]
            }
        }
    }

    /// Attributes a run takes from its way's tags, worked out once per way.
    struct RunTagFacts {
        var difficulty: RunDifficulty?
        var isGladed = false
        var isGroomed: Bool?
        var hasMoguls = false

        init(_ way: RoutableWay) {
            guard way.kind == .run else { return }
            difficulty = way.tags["piste:difficulty"].flatMap(RunDifficulty.init(osm:))
            isGladed = BuildRun.soundsGladed(way.displayName)
            switch way.tags["piste:grooming"] {
            case "backcountry"?: isGroomed = false
            case "mogul"?: isGroomed = false; hasMoguls = true
            case let grooming? where grooming.hasPrefix("classic") || grooming == "groomed": isGroomed = true
            default: isGroomed = nil
            }
        }
    }

    private func makeEdge(id: String, way: RoutableWay, wayFacts: RunTagFacts, wayIndex: Int, path: [Int],
                          direction: EdgeDirection, segmentIndex: Int) -> WorkEdge {
        let coordinates = path.map { vertices.coordinates[$0] }
        let elevations = path.map { vertices.elevation[$0] }
        let geometry = EdgeGeometry(kind: way.kind, coordinates: coordinates, elevations: elevations)
        var a = EdgeAttributes()
        a.lengthMeters = geometry.length
        a.verticalDrop = geometry.verticalDrop
        a.averageGradient = geometry.averageGradient
        a.maxGradient = geometry.maxGradient
        a.aspect = geometry.aspect
        a.aspectVariance = geometry.aspectVariance
        a.midpointElevation = geometry.midpointElevation
        a.trailName = way.displayName
        a.sourceWayId = String(way.id)
        a.segmentIndex = segmentIndex
        a.direction = direction
        switch way.kind {
        case .run:
            a.difficulty = wayFacts.difficulty
            a.isGladed = wayFacts.isGladed
            a.isGroomed = wayFacts.isGroomed
            a.hasMoguls = wayFacts.hasMoguls
        case .lift:
            a.liftType = way.liftType
            a.liftCapacity = way.tags["aerialway:capacity"].flatMap { Int($0) }.flatMap { (0...65535).contains($0) ? $0 : nil }
            // Provisional: replaced by the way's or identity's allocation in later stages.
            a.rideTimeSeconds = Quantize.metres(geometry.length / (way.liftType ?? .unknown).estimatedSpeed)
        case .traverse:
            break
        }
        let edge = GraphEdge(
            id: id, sourceID: "n\(vertices.ids[path[0]])", targetID: "n\(vertices.ids[path[path.count - 1]])",
            kind: way.kind, geometry: coordinates, attributes: a)
        return WorkEdge(edge: edge, way: wayIndex, sourceVertex: path[0], targetVertex: path[path.count - 1],
                        geometricLength: geometry.length, geometricVertical: geometry.verticalDrop)
    }

    /// Plural forms ("glades", "trees", "woods") contain these, so the stems suffice.
    static let gladeWords: [[UInt8]] = ["glade", "tree", "wood", "forest"].map { Array($0.utf8) }

    /// Names that say the run is in the trees: a lowercase substring match,
    /// done on bytes because it runs for every piste.
    static func soundsGladed(_ name: String?) -> Bool {
        guard let name else { return false }
        let bytes = Array(name.lowercased().utf8)
        return gladeWords.contains { word in
            guard bytes.count >= word.count else { return false }
            return (0...(bytes.count - word.count)).contains { start in
                bytes[start..<(start + word.count)].elementsEqual(word)
            }
        }
    }
}
