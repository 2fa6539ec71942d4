/// How wind stretches a lift ride: 1 up to 40 km/h, then through 1.2 at 60,
/// 1.5 at 80 and 3 at 100 km/h, held at 3 above. Continuous, so ride time
/// never jumps with a small change in wind; it multiplies the ride only,
/// never time spent in the queue.
enum WindRideFactor {
    static let knots: [Double] = [40, 60, 80, 100]

    static func factor(_ wind: Double) -> Double {
        switch wind {
        case ..<40: return 1.0
        case ..<60: return 1.0 + 0.2 * (wind - 40) / 20
        case ..<80: return 1.2 + 0.3 * (wind - 60) / 20
        case ..<100: return 1.5 + 1.5 * (wind - 80) / 20
        default: return 3.0
        }
    }
}
