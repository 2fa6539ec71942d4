import Foundation
import MountainGraph

extension MeetSolver {
    static let alternateCount = 4
    /// Alternates must lie at least this far (metres) from the primary and each other, relaxed step by step.
    static let alternateSpacings: [Double] = [350, 200, 100, 0]

    /// Up to four more stops, in rank order, each in a cluster of its own
    /// and as far from the others as the spacing ladder allows.
    func alternates(to primary: JointChoice, from ranked: some Collection<JointChoice>, forestA: LabelForest) -> [JointChoice] {
        var chosen: [JointChoice] = []
        var clusters: Set<String> = [clusterKey(primary, forestA)]
        var taken: Set<Int> = [primary.candidate]
        for spacing in Self.alternateSpacings {
            for choice in ranked.dropFirst() where chosen.count < Self.alternateCount && !taken.contains(choice.candidate) {
                let cluster = clusterKey(choice, forestA)
                guard !clusters.contains(cluster) else { continue }
                let farEnough = ([primary] + chosen).allSatisfy { distance(choice.candidate, $0.candidate) >= spacing }
                guard farEnough else { continue }
                chosen.append(choice)
                clusters.insert(cluster)
                taken.insert(choice.candidate)
            }
        }
        for choice in ranked.dropFirst() where chosen.count < Self.alternateCount && !taken.contains(choice.candidate) {
            chosen.append(choice)
            taken.insert(choice.candidate)
        }
        return chosen
    }

    /// Stops served by the same lift count as one place; otherwise places
    /// are grouped on a grid of about 100 m.
    func clusterKey(_ choice: JointChoice, _ forestA: LabelForest) -> String {
        let graph = environment.graph
        let node = graph.rendezvous[choice.candidate].node
        let kind = graph.nodeKinds[Int(node)]
        if kind == .liftBase || kind == .liftTop, graph.lowestLiftEdge[Int(node)] >= 0 {
            return "lift:\(graph.edgeIDs[Int(graph.lowestLiftEdge[Int(node)])])"
        }
        if let lastLift = forestA.edgePath(to: choice.labelA).last(where: { graph.edges[Int($0)].kind == .lift }) {
            return "lift:\(graph.edgeIDs[Int(lastLift)])"
        }
        let c = graph.nodeCoordinates[Int(node)]
        return "euc:\((c.lat * 1000).rounded() / 10):\((c.lon * 1000).rounded() / 10)"
    }

    /// Great-circle metres between two candidates' nodes.
    func distance(_ a: Int, _ b: Int) -> Double {
        let graph = environment.graph
        return Geo.distance(graph.nodeCoordinates[Int(graph.rendezvous[a].node)], graph.nodeCoordinates[Int(graph.rendezvous[b].node)])
    }
}
