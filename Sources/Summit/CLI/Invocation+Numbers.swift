import Foundation

extension Invocation {
    /// `--name N`: a whole number of at least `minimum` (underscores allowed, as in 100_000), or `fallback`.
    package func wholeNumber(_ name: String, default fallback: Int, minimum: Int = 1) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= minimum else {
            throw CLIError.usage("\(name) takes a whole number of at least \(minimum), not \"\(text)\"", command: commandPath)
        }
        return number
    }

    /// `--name X`: a number of at least `minimum`, or `fallback`.
    package func number(_ name: String, default fallback: Double, minimum: Double) throws -> Double {
        guard let text = value(name) else { return fallback }
        guard let number = Double(text), number >= minimum else {
            throw CLIError.usage("\(name) takes a number of at least \(minimum.formatted()), not \"\(text)\"", command: commandPath)
        }
        return number
    }
}
