import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// The Pareto-label search on synthetic resorts: at most eight labels per
/// node, the fastest always kept, every kept label a real path.
@Suite("Pareto-label search")
struct SearchTests {
    @Test("at most eight labels per node, and each node's fastest label equals a plain fastest-path search", arguments: [UInt64(3), 5])
    func labelCapAndFastestReserved(seed: UInt64) throws {
        let graph = try SyntheticMountain.graph(seed: seed)
        // Timeless (preview) solve: edge times do not depend on the clock, so
        // the plain search's earliest arrivals are exact.
        let solver = SyntheticMountain.solver(graph, canonical: false)
        let context = try #require(solver.makeContext(for: "ann"))
        let (startNode, _) = SyntheticMountain.farApartStarts(graph)
        let start = try #require(solver.resolve(SkierStart(skierID: "ann", origin: .node(startNode)), context: context).value)
        let forest = LabelSearch.run(context, from: start, rules: .strict)
        let (fastest, _) = SingleCriterionDijkstra.fastest(context, start)
        var reached = 0, multiLabel = 0
        for node in 0..<graph.nodes.count {
            let labels = forest.labels(at: Int32(node))
            #expect(labels.count <= 8)
            if labels.count > 1 { multiLabel += 1 }
            guard fastest[node].isFinite else {
                #expect(labels.isEmpty, "a label at a node the plain search cannot reach")
                continue
            }
            reached += 1
            let best = labels.map { forest.labels[Int($0)].time }.min()
            #expect(best.map { abs($0 - fastest[node]) < 1e-6 } == true, "node \(graph.nodes[node].id): \(String(describing: best)) vs \(fastest[node])")
        }
        #expect(reached > graph.nodes.count / 3)
        #expect(multiLabel > 0, "the fixture never exercises more than one label per node")
    }

    @Test("kept labels are mutually non-dominated and re-cost to their own figures")
    func labelsAreHonest() throws {
        let graph = try SyntheticMountain.graph(seed: 5)
        let solver = SyntheticMountain.solver(graph)
        let context = try #require(solver.makeContext(for: "bob"))
        let (startNode, _) = SyntheticMountain.farApartStarts(graph)
        let start = try #require(solver.resolve(SkierStart(skierID: "bob", origin: .node(startNode)), context: context).value)
        let forest = LabelSearch.run(context, from: start, rules: .strict)
        var checked = 0
        for node in stride(from: 0, to: graph.nodes.count, by: 7) {
            let labels = forest.labels(at: Int32(node))
            for a in labels {
                for b in labels where a != b {
                    #expect(!forest.labels[Int(a)].isNoWorse(than: forest.labels[Int(b)]))
                }
                let path = forest.edgePath(to: a).map { graph.edges[Int($0)].id }
                let metrics = try #require(solver.metrics(for: path, skierID: "bob", origin: .node(startNode)))
                let label = forest.labels[Int(a)]
                #expect(abs(metrics.mean - label.time) < 1e-6 && abs(metrics.std - label.variance.squareRoot()) < 1e-6)
                #expect(metrics.actions == Int(label.actions))
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test("a full solve on a synthetic resort is deterministic and its routes re-cost exactly")
    func syntheticSolve() throws {
        let graph = try SyntheticMountain.graph(seed: 7)
        let (a, b) = SyntheticMountain.farApartStarts(graph)
        let starts = (SkierStart(skierID: "ann", origin: .node(a), accuracyMeters: 12), SkierStart(skierID: "bob", origin: .node(b)))
        let result = try #require(SyntheticMountain.solver(graph).solve(starts.0, starts.1).value)
        let again = try #require(SyntheticMountain.solver(graph).solve(starts.0, starts.1).value)
        #expect(result == again)
        #expect(result.alternates.count == 4)
        let solver = SyntheticMountain.solver(graph)
        for option in [result.primary] + result.alternates {
            for (route, accuracy) in [(option.routeA, 12.0), (option.routeB, nil)] {
                let metrics = try #require(solver.metrics(for: route.edgeIDs, skierID: route.skierID, origin: route.origin, accuracyMeters: accuracy))
                #expect(abs(metrics.mean - route.eta) < 1e-6 && abs(metrics.std - route.etaStd) < 1e-6)
                #expect(zip(metrics.legTimes, route.legTimes).allSatisfy { abs($0 - $1) < 1e-6 })
                #expect(zip(metrics.legStds, route.legStds).allSatisfy { abs($0 - $1) < 1e-6 })
                #expect(route.edgeIDs.isEmpty || graph.edges.first { $0.id == route.edgeIDs.last }?.targetID == option.nodeID)
            }
            // The score is the seed's formula over the chosen approaches.
            let expected = max(option.routeA.eta, option.routeB.eta) + option.alpha * abs(option.routeA.eta - option.routeB.eta)
                + 0.5 * (option.routeA.etaStd * option.routeA.etaStd + option.routeB.etaStd * option.routeB.etaStd).squareRoot()
            #expect(abs(option.score - expected) < 1e-6)
            #expect(option.score >= result.primary.score)
        }
        // Alternates: each in its own cluster, spread out.
        let ids = ([result.primary] + result.alternates).map(\.rendezvousPointID)
        #expect(Set(ids).count == ids.count)
    }
}
