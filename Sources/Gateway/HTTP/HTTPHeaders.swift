import Foundation

/// Header fields in the order they came, looked up without regard to case.
///
/// Names are kept lowercased (HTTP field names are case-insensitive), values as sent
/// with surrounding whitespace trimmed.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name.lowercased(), value))
    }

    /// Replaces every field called `name` with one.
    public mutating func set(_ name: String, _ value: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name == lower }
        fields.append((lower, value))
    }

    public mutating func remove(_ name: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name == lower }
    }

    /// The first value of `name`.
    public subscript(_ name: String) -> String? {
        let lower = name.lowercased()
        return fields.first { $0.name == lower }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        let lower = name.lowercased()
        return fields.filter { $0.name == lower }.map(\.value)
    }

    /// The comma-separated tokens of every `name` field, lowercased (`Connection`, `Upgrade`, `Prefer`).
    public func tokens(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}
