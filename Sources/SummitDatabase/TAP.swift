/// What one TAP stream says: the plan, each test's verdict, and whether it hangs together.
public struct TAPResult: Sendable, Codable, Equatable {
    public struct Failure: Sendable, Codable, Equatable {
        public var number: Int
        public var description: String
        /// The `#` diagnostic lines that followed the failure.
        public var diagnostics: [String]
    }

    public var planned: Int?
    public var passed = 0
    public var failures: [Failure] = []
    public var skipped = 0
    public var todo = 0
    /// A `Bail out!` line, if the stream gave up.
    public var bailOut: String?

    public var ran: Int { passed + failures.count }

    /// Passing means: a plan, every planned test ran, none failed, no bail out.
    public var ok: Bool {
        guard let planned, bailOut == nil else { return false }
        return failures.isEmpty && ran == planned
    }

    /// Parses TAP version 12/13 output, as pgTAP writes it.
    public static func parse(_ text: String) -> TAPResult {
        var result = TAPResult()
        var lastFailure: Int?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.drop { $0 == " " }
            if line.hasPrefix("1..") {
                result.planned = Int(line.dropFirst(3).prefix { $0.isNumber })
                lastFailure = nil
            } else if line.hasPrefix("ok") || line.hasPrefix("not ok") {
                let failed = line.hasPrefix("not ok")
                let rest = line.dropFirst(failed ? 6 : 2).drop { $0 == " " }
                let number = Int(rest.prefix { $0.isNumber }) ?? (result.ran + 1)
                let description = rest.drop { $0.isNumber }.drop { $0 == " " || $0 == "-" }
                let directive = description.range(of: "# ")
                    .map { description[$0.upperBound...].lowercased() } ?? ""
                if directive.hasPrefix("todo") {
                    result.todo += 1
                    result.passed += 1
                    lastFailure = nil
                } else if directive.hasPrefix("skip") {
                    result.skipped += 1
                    result.passed += 1
                    lastFailure = nil
                } else if failed {
                    result.failures.append(Failure(number: number, description: String(description), diagnostics: []))
                    lastFailure = result.failures.count - 1
                } else {
                    result.passed += 1
                    lastFailure = nil
                }
            } else if line.hasPrefix("#"), let index = lastFailure {
                result.failures[index].diagnostics.append(String(line))
            } else if line.hasPrefix("Bail out!") {
                result.bailOut = String(line)
            }
        }
        return result
    }
}
