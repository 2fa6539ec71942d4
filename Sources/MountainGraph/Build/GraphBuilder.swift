/// Builds the canonical v15 graph from an OSM snapshot and a reviewed manifest.
///
/// Source topology only: ways join where they share a vertex id, and nowhere
/// else. The build is a pure function of its inputs: ways are taken in id
/// order, vertices in way order, and every output collection is sorted, so the
/// same inputs give byte-identical blobs. Any integrity failure refuses the
/// whole build and nothing is returned.
public enum GraphBuilder {
    public static func build(
        osm: OSMData,
        manifest: CanonicalManifest? = nil,
        parameters: BuildParameters,
        elevation: (any ElevationSource)? = nil,
        options: BuildOptions = BuildOptions()
    ) throws(GraphBuildError) -> BuildResult {
        var run = BuildRun(osm: osm, manifest: manifest, parameters: parameters, options: options)
        run.classifyWays()
        run.claimIdentities()
        run.registerVertices(elevation: elevation)
        run.assignElevations()
        run.cutEdges()
        run.applyIdentities()
        run.chainUnclaimedLifts()
        run.assignTrailGroups()
        run.makeNodes()
        run.makeRendezvousPoints()
        guard run.failures.isEmpty else { throw GraphBuildError(failures: run.failures) }
        let graph = run.assemble()
        let problems = GraphValidator.problems(in: graph)
        guard problems.isEmpty else {
            throw GraphBuildError(failures: problems.map { BuildFailure(code: .integrity, message: $0.description) })
        }
        return BuildResult(graph: graph, report: run.report(for: graph))
    }
}

/// The mutable state of one build; each stage lives in its own extension.
struct BuildRun {
    let osm: OSMData
    let manifest: CanonicalManifest?
    let parameters: BuildParameters
    let options: BuildOptions

    var failures: [BuildFailure] = []

    // Ways
    var ways: [RoutableWay] = []
    var wayIndex: [Int64: Int] = [:]
    var excluded: [Int64: WayExclusion] = [:]
    var trimmedLiftLoops: [Int64] = []
    var flatWays = 0

    // Identities
    var identities: [ResolvedIdentity] = []
    /// Way index → identity index.
    var claimedBy: [Int: Int] = [:]

    // Vertices
    var vertices = VertexTable()
    /// Vertex indices that must become nodes (rendezvous anchors).
    var anchorVertices: Set<Int> = []

    // Edges
    var edges: [WorkEdge] = []
    /// Way index → its edges' indices, primary direction pieces in travel order,
    /// then `_r` twins in travel order.
    var edgesOfWay: [[Int]] = []

    // Output
    var nodes: [GraphNode] = []
    var rendezvousPoints: [RendezvousPoint] = []
    var graphIdentities: [GraphIdentity] = []

    init(osm: OSMData, manifest: CanonicalManifest?, parameters: BuildParameters, options: BuildOptions) {
        self.osm = osm
        self.manifest = manifest
        self.parameters = parameters
        self.options = options
    }

    mutating func classifyWays() {
        let classified = WayClassification.classify(osm)
        let connectors = reviewedConnectorWays()
        ways = classified.routable + connectors
        ways.sort { $0.id < $1.id }
        excluded = classified.excluded
        trimmedLiftLoops = classified.trimmedLiftLoops
        for defect in classified.missingVertices {
            let nodes = defect.nodeIDs.prefix(5).map(String.init).joined(separator: ", ")
                + (defect.nodeIDs.count > 5 ? " and \(defect.nodeIDs.count - 5) more" : "")
            failures.append(BuildFailure(
                code: .missingVertex, wayIDs: [defect.wayID],
                message: "way \(defect.wayID) references vertex \(nodes), which the snapshot does not hold: export the extract with complete ways (Overpass `>;`), or cut it with --bbox, which keeps every vertex of a way it keeps"))
        }
        for (index, way) in ways.enumerated() { wayIndex[way.id] = index }
        edgesOfWay = Array(repeating: [], count: ways.count)
    }

    mutating func registerVertices(elevation: (any ElevationSource)?) {
        vertices = VertexTable(ways: ways, osm: osm, elevation: elevation)
        for row in manifest?.rendezvousPoints ?? [] {
            if let vertex = vertices.index[row.anchorOSMNodeID] { anchorVertices.insert(vertex) }
        }
    }

    func assemble() -> MountainGraph {
        MountainGraph(
            resortID: parameters.resortID, manifestVersion: parameters.manifestVersion,
            snapshotDate: parameters.snapshotDate, nodes: nodes, edges: edges.map(\.edge),
            identities: graphIdentities, rendezvousPoints: rendezvousPoints)
    }
}

/// An edge under construction with the source facts later stages need.
struct WorkEdge {
    var edge: GraphEdge
    let way: Int
    let sourceVertex: Int
    let targetVertex: Int
    /// Geometry-derived length and vertical, the weights for official totals.
    let geometricLength: Double
    let geometricVertical: Double
    var isReverseTwin: Bool { edge.isReverseTwin }
}
