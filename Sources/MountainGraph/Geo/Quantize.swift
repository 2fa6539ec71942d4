/// Fixed precision for derived numbers.
///
/// Lengths, gradients and bearings come out of libm's transcendental functions,
/// which may differ in the last bit between platforms. Rounding every derived
/// value to a fixed number of decimals keeps the blob, and its content hash,
/// identical across machines (and makes it smaller).
enum Quantize {
    /// Metres and seconds: millimetres / milliseconds.
    static func metres(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    /// Degrees and unit-interval values: 1e-4.
    static func degrees(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
    /// Elevations: centimetres.
    static func elevation(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
