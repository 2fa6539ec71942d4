/// Everything the review step proposes for one snapshot and manifest:
/// identities for the ways nobody claims, connectors, and rendezvous points.
public struct ReviewProposals: Sendable, Equatable {
    public var claims: [ClaimProposal]
    public var unclaimable: [UnclaimableWays]
    public var connectors: [ConnectorProposal]
    public var rendezvous: [RendezvousProposal]
}

/// The review step's proposals, each kind computed on the manifest with the
/// kinds before it accepted (identities, then connectors, then rendezvous
/// points on the graph they make), so accepting all of them builds.
public enum ResortReview {
    public static func propose(osm: OSMData, elevation: (any ElevationSource)? = nil, manifest: CanonicalManifest = CanonicalManifest(),
                               options: BuildOptions = BuildOptions(missingElevation: .assumeFlat),
                               limits: ConnectorLimits = ConnectorLimits()) throws(GraphBuildError) -> ReviewProposals {
        let (claims, unclaimable) = ClaimReview.propose(osm: osm, elevation: elevation, manifest: manifest, options: options)
        var claimed = manifest
        claimed.trails += claims.compactMap(\.trail)
        claimed.lifts += claims.compactMap(\.lift)
        let linked = Set(manifest.connectors.map { [min($0.fromOSMNodeID, $0.toOSMNodeID), max($0.fromOSMNodeID, $0.toOSMNodeID)] })
        let connectors = ConnectorReview.propose(osm: osm, elevation: elevation, manifest: claimed, limits: limits).filter {
            !linked.contains([min($0.fromOSMNodeID, $0.toOSMNodeID), max($0.fromOSMNodeID, $0.toOSMNodeID)])
        }
        var everything = claimed
        let firstID = max(CanonicalConnector.reviewedIDBase, (manifest.connectors.map(\.connectorID).max() ?? 0) + 1)
        everything.connectors += ConnectorReview.accept(connectors, firstID: firstID)
        everything.expectedTrailCount = nil
        everything.expectedLiftCount = nil
        let graph = try GraphBuilder.build(osm: osm, manifest: everything,
                                           parameters: BuildParameters(resortID: "review", manifestVersion: 0, snapshotDate: ""),
                                           elevation: elevation, options: options).graph
        let rendezvous = RendezvousReview.propose(for: graph, osm: osm, existing: manifest.rendezvousPoints)
        return ReviewProposals(claims: claims, unclaimable: unclaimable, connectors: connectors, rendezvous: rendezvous)
    }
}
