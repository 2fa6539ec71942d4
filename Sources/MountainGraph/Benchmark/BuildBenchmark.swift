/// Timing of one OSM input: decoding alone (the floor) against the full
/// pipeline, each the median of several repetitions.
package struct BuildBenchmark: Sendable, CustomStringConvertible {
    package let inputBytes: Int
    package let repetitions: Int
    /// Median seconds to decode the OSM JSON into elements.
    package let decodeSeconds: Double
    /// Median seconds from OSM bytes to a graph (decode + build).
    package let buildSeconds: Double
    /// Median seconds from OSM bytes to a stored blob (decode + build +
    /// canonical JSON + deflate + SHA-256).
    package let publishSeconds: Double
    package let nodeCount: Int
    package let edgeCount: Int
    package let blobBytes: Int

    /// Build time over the decode floor.
    package var buildRatio: Double { buildSeconds / decodeSeconds }
    /// Publish time over the decode floor.
    package var publishRatio: Double { publishSeconds / decodeSeconds }

    package var description: String {
        func ms(_ seconds: Double) -> String {
            let value = (seconds * 10_000).rounded() / 10
            return "\(value) ms"
        }
        func ratio(_ value: Double) -> String { "\((value * 100).rounded() / 100)×" }
        return "\(inputBytes) B in, \(nodeCount) nodes, \(edgeCount) edges: decode \(ms(decodeSeconds)), "
            + "build \(ms(buildSeconds)) (\(ratio(buildRatio))), publish \(ms(publishSeconds)) (\(ratio(publishRatio))), "
            + "blob \(blobBytes) B, median of \(repetitions)"
    }
}

extension BuildBenchmark {
    /// Times decode-only, decode+build and decode+build+encode on `osm` bytes.
    /// No manifest is applied: the figures measure the builder itself.
    package static func measure(
        osm: [UInt8], repetitions: Int = 5, elevation: (any ElevationSource)? = nil,
        options: BuildOptions = BuildOptions(missingElevation: .assumeFlat)
    ) throws -> BuildBenchmark {
        precondition(repetitions >= 1, "at least one repetition")
        let parameters = BuildParameters(resortID: "benchmark", manifestVersion: 0, snapshotDate: "1970-01-01")
        let clock = ContinuousClock()
        var decode: [Double] = []
        var build: [Double] = []
        var publish: [Double] = []
        var nodeCount = 0
        var edgeCount = 0
        var blobBytes = 0
        for _ in 0..<repetitions {
            var start = clock.now
            _ = try OSMData(overpassJSON: osm)
            decode.append(seconds(clock.now - start))

            start = clock.now
            let result = try GraphBuilder.build(osm: OSMData(overpassJSON: osm), parameters: parameters,
                                                elevation: elevation, options: options)
            build.append(seconds(clock.now - start))

            start = clock.now
            let again = try GraphBuilder.build(osm: OSMData(overpassJSON: osm), parameters: parameters,
                                               elevation: elevation, options: options)
            let blob = try again.graph.encodeBlob()
            publish.append(seconds(clock.now - start))

            nodeCount = result.graph.nodes.count
            edgeCount = result.graph.edges.count
            blobBytes = blob.compressed.count
        }
        return BuildBenchmark(
            inputBytes: osm.count, repetitions: repetitions, decodeSeconds: median(decode),
            buildSeconds: median(build), publishSeconds: median(publish),
            nodeCount: nodeCount, edgeCount: edgeCount, blobBytes: blobBytes)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) * 1e-18
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
