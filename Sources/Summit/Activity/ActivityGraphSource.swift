import ActivityImport
import Foundation
import MountainGraph
import ZipArchive

/// The resort graph runs are matched on, for the command line.
///
/// Until the `mountain` schema serves published datasets, the graph comes from
/// a file (canonical graph JSON, a raw-deflate graph blob, or an Overpass OSM
/// extract, built here) or from a synthetic resort.
enum ActivityGraphSource {
    static func load(graphFile: String?, syntheticSeed: String?, resortID: String, commandPath: String) throws -> (graph: MountainGraph, datasetVersion: String)? {
        if graphFile != nil, syntheticSeed != nil {
            throw CLIError.usage("give --graph or --synthetic-resort, not both", command: commandPath)
        }
        if let syntheticSeed {
            guard let seed = UInt64(syntheticSeed) else {
                throw CLIError.usage("--synthetic-resort takes a seed number, like 7", command: commandPath)
            }
            return try withVersion(synthetic(seed: seed, resortID: resortID))
        }
        guard let graphFile else { return nil }
        let url = URL(fileURLWithPath: graphFile)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CLIError("cannot read the graph file \(graphFile)", fix: "check the path; --graph takes a canonical graph JSON, a graph blob or an Overpass extract")
        }
        let bytes = Array(data)
        if bytes.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{") {
            if let graph = try? MountainGraph.decodeCanonicalJSON(bytes) { return try withVersion(graph) }
            do {
                let osm = try OSMData(overpassJSON: bytes)
                let built = try GraphBuilder.build(osm: osm, parameters: BuildParameters(resortID: resortID, manifestVersion: 0,
                                                                                        snapshotDate: "0000-00-00"))
                return try withVersion(built.graph)
            } catch {
                throw CLIError("\(graphFile) is neither a canonical graph nor a buildable Overpass extract (\(error))",
                               fix: "export the graph with the mountain tools, or pass the resort's Overpass JSON")
            }
        }
        do {
            let json = try RawDeflate.decompress(bytes, limit: 128 << 20)
            return try withVersion(try MountainGraph.decodeCanonicalJSON(json))
        } catch {
            throw CLIError("\(graphFile) is not a graph blob, canonical graph JSON or Overpass extract (\(error))",
                           fix: "pass the resort's published graph")
        }
    }

    static func synthetic(seed: UInt64, resortID: String) throws -> MountainGraph {
        let osm = try OSMData(overpassJSON: SyntheticResort(seed: seed, size: 1).overpassJSON())
        return try GraphBuilder.build(osm: osm, parameters: BuildParameters(resortID: resortID, manifestVersion: 1,
                                                                           snapshotDate: "2025-01-01")).graph
    }

    private static func withVersion(_ graph: MountainGraph) throws -> (graph: MountainGraph, datasetVersion: String) {
        (graph, try graph.encodeBlob().datasetVersion)
    }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
