extension MountainGraph {
    /// `<nodeCount>:<edgeCount>:<hex16>`, the cross-language graph fingerprint.
    ///
    /// Hashes, per edge in id order, exactly the fields routing depends on (open
    /// flag, difficulty, moguls, glades, grooming, wait, ride time, max gradient,
    /// capacity); nodes contribute only their count. All 64 bits are printed.
    public var fingerprint: String {
        Self.fingerprint(nodeCount: nodes.count, edges: edges)
    }

    /// The fingerprint of any node count and edge list (edges need not be sorted).
    public static func fingerprint(nodeCount: Int, edges: [GraphEdge]) -> String {
        var h: UInt64 = 0
        @inline(__always) func mix(_ value: UInt64) { h = h &* 31 &+ value }
        func mixDouble(_ value: Double?) {
            guard let value else { return mix(0xFFFF_FFFF_FFFF_FFFF) }
            mix(UInt64(bitPattern: Int64((value * 100).rounded())))
        }
        let sorted = edges.sorted { utf8Less($0.id, $1.id) }
        for edge in sorted {
            for byte in edge.id.utf8 { mix(UInt64(byte)) }
            let a = edge.attributes
            mix(a.isOpen ? 1 : 0)
            mix(UInt64(a.difficulty?.rawValue ?? 255))
            mix(a.hasMoguls ? 1 : 0)
            mix(a.isGladed ? 1 : 0)
            mix(a.isGroomed == true ? 2 : a.isGroomed == false ? 1 : 0)
            mixDouble(a.waitTimeMinutes)
            mixDouble(a.rideTimeSeconds)
            mixDouble(a.maxGradient)
            mix(UInt64(UInt16(truncatingIfNeeded: a.liftCapacity ?? 65535)))
        }
        let hex = String(h, radix: 16)
        return "\(nodeCount):\(edges.count):" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
