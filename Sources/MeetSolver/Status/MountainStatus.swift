import Foundation
import JSONDepth
import MountainGraph

/// The operational status sidecar of one exact dataset identity: which edges
/// are open now and the live queue waits, observed at one instant and valid
/// until it expires. Never part of the dataset.
public struct MountainStatus: Sendable, Equatable {
    public struct EdgeStatus: Sendable, Equatable {
        public var isOpen: Bool
        public var waitMinutes: Double?

        public init(isOpen: Bool, waitMinutes: Double? = nil) {
            self.isOpen = isOpen
            self.waitMinutes = waitMinutes
        }
    }

    public var resortID: String
    public var datasetVersion: DatasetVersion
    /// Unix seconds.
    public var observedAt: Double
    public var expiresAt: Double
    public var source: String
    /// By stable edge id.
    public var edges: [String: EdgeStatus]

    public init(resortID: String, datasetVersion: DatasetVersion, observedAt: Double, expiresAt: Double,
                source: String, edges: [String: EdgeStatus]) {
        self.resortID = resortID
        self.datasetVersion = datasetVersion
        self.observedAt = observedAt
        self.expiresAt = expiresAt
        self.source = source
        self.edges = edges
    }

    /// Status observed up to two minutes in the future is accepted (clock skew).
    public static let futureTolerance = 120.0
}

extension MountainStatus {
    /// Reads the sidecar's JSON form: `resort_id`, `manifest_version`,
    /// `graph_version`, `content_sha256`, `observed_at` and `expires_at`
    /// (ISO-8601 or Unix seconds), `source`, and
    /// `edges: {"<edge id>": {"is_open": bool, "wait_minutes": number|null}}`.
    public init(json bytes: [UInt8]) throws(StatusDecodingError) {
        do {
            try JSONDepth.check(bytes)
        } catch {
            throw StatusDecodingError("the status sidecar is not readable: \(error)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw StatusDecodingError("the status sidecar is not a JSON object")
        }
        func string(_ key: String) throws(StatusDecodingError) -> String {
            guard let value = object[key] as? String, !value.isEmpty else { throw StatusDecodingError("the status sidecar lacks \"\(key)\"") }
            return value
        }
        func instant(_ key: String) throws(StatusDecodingError) -> Double {
            if let number = object[key] as? NSNumber { return number.doubleValue }
            if let text = object[key] as? String, let value = Self.parseInstant(text) { return value }
            throw StatusDecodingError("the status sidecar's \"\(key)\" is not a time (ISO-8601 or Unix seconds)")
        }
        guard let manifest = (object["manifest_version"] as? NSNumber)?.intValue else {
            throw StatusDecodingError("the status sidecar lacks \"manifest_version\"")
        }
        let identity = DatasetVersion(manifestVersion: manifest, graphVersion: try string("graph_version"),
                                      contentSHA256: try string("content_sha256"))
        guard DatasetVersion(identity.description) != nil else {
            throw StatusDecodingError("the status sidecar's identity \(identity) is not a canonical dataset identity")
        }
        guard let edgeObject = object["edges"] as? [String: Any] else {
            throw StatusDecodingError("the status sidecar lacks its \"edges\" object")
        }
        var edges: [String: EdgeStatus] = [:]
        for (id, value) in edgeObject {
            guard let entry = value as? [String: Any], let open = entry["is_open"] as? Bool else {
                throw StatusDecodingError("status entry \"\(id)\" needs {\"is_open\": bool, \"wait_minutes\": number|null}")
            }
            edges[id] = EdgeStatus(isOpen: open, waitMinutes: (entry["wait_minutes"] as? NSNumber)?.doubleValue)
        }
        self.init(resortID: try string("resort_id"), datasetVersion: identity, observedAt: try instant("observed_at"),
                  expiresAt: try instant("expires_at"), source: (object["source"] as? String) ?? "unknown", edges: edges)
    }

    /// ISO-8601 with or without fractional seconds, or a number of Unix seconds.
    public static func parseInstant(_ text: String) -> Double? {
        if let seconds = Double(text) { return seconds }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date.timeIntervalSince1970 }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date.timeIntervalSince1970 }
        return nil
    }
}

public struct StatusDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
