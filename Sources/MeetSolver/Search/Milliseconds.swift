/// Seconds as whole milliseconds, the unit labels and choices are compared in.
enum Milliseconds {
    /// `Int64((seconds * 1000).rounded())` bit for bit (half away from zero),
    /// without the call into the C library's `round` that the standard
    /// rounding makes on this target: the search rounds several times per
    /// label offered. Truncation leaves the fraction exactly (below 2⁵³;
    /// above it every double is whole and the fraction is 0).
    @inline(__always)
    static func rounded(_ seconds: Double) -> Int64 {
        let scaled = seconds * 1000
        let whole = Int64(scaled)
        let fraction = scaled - Double(whole)
        if fraction >= 0.5 { return whole + 1 }
        if fraction <= -0.5 { return whole - 1 }
        return whole
    }
}
