/// What the realtime service borrows from REST to read a changed row with a
/// binding's filter (`Realtime/ChangeBinding.swift`, `RealtimeSession.swift`): one
/// filter's parsing, and the root's plain filters as a `where` clause on
/// `TableTarget.alias`.
extension TableQuery {
    typealias Filter = RowFilter

    static func parseFilter(column: String, _ text: String, lenient: Bool) throws(Refusal) -> Filter? {
        try RowFilter.parse(column: column, text, lenient: lenient)
    }

    /// The root's plain filters; setting them replaces the root's conditions.
    var filters: [Filter] {
        get { root.conditions.compactMap { if case .filter(let filter) = $0 { filter } else { nil } } }
        set { root.conditions = newValue.map { .filter($0) } }
    }

    /// `where …` over `TableTarget.alias` (empty when there are no conditions), values bound.
    func whereClause(_ builder: inout SQLBuilder) -> String {
        guard !root.conditions.isEmpty else { return "" }
        return " where " + root.conditions.map { $0.sql(on: TableTarget.alias, &builder) }.joined(separator: " and ")
    }
}

extension TableTarget {
    /// The alias realtime's row reads give the table.
    static let alias = "summit_target"
}

extension RowFilter {
    init(column: String, negated: Bool, op: Operator, value: Value) {
        self.init(column: column, negated: negated, op: op, quantifier: nil, language: nil, value: value)
    }
}
