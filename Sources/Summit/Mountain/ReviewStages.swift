import MeetSolver
import MountainGraph

/// The review's figures for one stage of a draft: the graph it builds, as it
/// will be routed (open edges only), and a meet sample on it.
package struct ReviewStage: Codable, Sendable {
    package var stage: String
    /// The proposal kinds accepted on top of the draft for this stage.
    var accepted: [String]
    package var routability: Routability
    package var meetSample: MeetSample

    enum CodingKeys: String, CodingKey {
        case stage, accepted, routability
        case meetSample = "meet_sample"
    }

    var lines: [String] {
        let r = routability
        func share(_ part: Int, _ whole: Int) -> String { "\(part)/\(whole) (\(Routability.percent(Routability.share(part, whole))))" }
        return [
            "\(stage):",
            "  open lift tops reaching an open run \(share(r.liftTopsReachingRun, r.liftTops)); open run ends reaching an open lift \(share(r.runEndsReachingLift, r.runEnds))",
            "  largest open strongly connected component: \(share(r.largestStronglyConnectedComponent, r.nodes)) nodes, "
                + "\(share(r.liftEndsInLargestComponent, r.liftEnds)) open lift ends, \(share(r.rendezvousPointsInLargestComponent, r.rendezvousPoints)) rendezvous points",
            "  run edges closed \(share(r.closedRunEdges, r.runEdges)): \(r.closedUnnamedRunEdges) unnamed, \(r.closedNamedRunEdges) named but no identity",
        ] + (meetSample.pairs == 0 ? [] : [
            "  " + meetSample.description + " (seed \(meetSample.seed), \(meetSample.skiers.joined(separator: " and ")), all lifts open, \(meetSample.localTime) local)",
        ])
    }
}

/// Builds a draft as it stands, with each proposal kind accepted alone, and
/// with all of them, and measures each.
package enum ReviewStages {
    static let all: [(name: String, kinds: Set<ManifestDraft.ProposalKind>)] = [
        ("as drafted", []),
        ("with the identity proposals", [.claims]),
        ("with the connector proposals", [.connectors]),
        ("with the rendezvous proposals", [.rendezvous]),
        ("with all proposals", Set(ManifestDraft.ProposalKind.allCases)),
    ]

    package struct Sampling: Sendable {
        package var pairs = 200
        package var seed: UInt64 = 1

        package init(pairs: Int = 200, seed: UInt64 = 1) {
            self.pairs = pairs
            self.seed = seed
        }
    }

    package static func measure(_ draft: ManifestDraft, snapshot: SnapshotInputs, sampling: Sampling,
                        stages: [(name: String, kinds: Set<ManifestDraft.ProposalKind>)] = all,
                        refusal: (GraphBuildError) -> CLIError) throws -> [ReviewStage] {
        let parameters = BuildParameters(resortID: draft.resortID, manifestVersion: 1, snapshotDate: draft.snapshotDate)
        return try stages.compactMap { stage -> ReviewStage? in
            // Kinds with nothing pending would measure the draft's own graph again.
            if !stage.kinds.isEmpty, draft.numbers(of: stage.kinds).isEmpty { return nil }
            var manifest = draft.accepting(stage.kinds).manifest
            manifest.expectedTrailCount = nil
            manifest.expectedLiftCount = nil
            let graph: MountainGraph
            do {
                graph = try GraphBuilder.build(osm: snapshot.osm, manifest: manifest, parameters: parameters,
                                               elevation: snapshot.elevation, options: snapshot.options).graph
            } catch let error as GraphBuildError {
                throw refusal(error)
            }
            return ReviewStage(stage: stage.name, accepted: stage.kinds.map(\.rawValue).sorted(), routability: graph.routability(),
                               meetSample: MeetSample.run(on: graph, pairs: sampling.pairs, seed: sampling.seed))
        }
    }
}
