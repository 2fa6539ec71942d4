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
        // Read from sign bits rather than branched on: a fraction is above or
        // below a half about as often, so a branch would be mispredicted half
        // the time. `fraction − 0.5` is negative exactly when the fraction is
        // below a half (never a rounded zero: IEEE differences of distinct
        // values are not zero), and `−0.5 − fraction` when it is above −½.
        let up = 1 &- Int64(bitPattern: (fraction - 0.5).bitPattern >> 63)
        let down = 1 &- Int64(bitPattern: (-0.5 - fraction).bitPattern >> 63)
        return whole &+ up &- down
    }
}
