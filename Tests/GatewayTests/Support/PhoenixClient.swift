import Foundation
import Gateway

/// A minimal realtime client speaking the Phoenix protocol (serializer 1.0.0) over
/// RawClient, so tests can say exactly what is sent and see exactly what comes back.
final class PhoenixClient: @unchecked Sendable {
    let raw: RawClient
    private var ref = 0
    /// Messages read but not yet asked for.
    private var pending: [[String: Any]] = []

    init(port: Int, apikey: String) async throws {
        raw = try RawClient(port: port)
        let response = try await raw.upgrade("/realtime/v1/websocket?apikey=\(apikey)&vsn=1.0.0")
        guard response.status == 101 else {
            throw RawClient.Failure(description: "the upgrade answered \(response.status): \(response.text)")
        }
    }

    /// Sends a message; returns its ref.
    @discardableResult
    func push(_ topic: String, _ event: String, _ payload: [String: Any] = [:], joinRef: String? = nil) async -> String {
        ref += 1
        let message: [String: Any] = ["topic": topic, "event": event, "payload": payload, "ref": "\(ref)",
                                      "join_ref": joinRef ?? NSNull()]
        let data = try! JSONSerialization.data(withJSONObject: message)
        await raw.sendText(String(decoding: data, as: UTF8.self))
        return "\(ref)"
    }

    /// Joins `realtime:{name}` and returns the reply's payload (`status`, `response`).
    func join(_ name: String, config: [String: Any] = [:], accessToken: String? = nil) async throws -> [String: Any] {
        var payload: [String: Any] = ["config": config]
        if let accessToken { payload["access_token"] = accessToken }
        let sent = await push("realtime:" + name, "phx_join", payload, joinRef: "\(ref + 1)")
        let reply = try await next { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == sent }
        return reply["payload"] as? [String: Any] ?? [:]
    }

    /// The next message satisfying `predicate` (others stay queued for later calls).
    func next(timeout: Duration = .seconds(30), _ predicate: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = pending.firstIndex(where: predicate) { return pending.remove(at: index) }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw RawClient.Failure(description: "no matching message within \(timeout); pending: \(pending.suffix(6))")
            }
            let frame = try await raw.readFrame(timeout: left)
            switch frame.opcode {
            case .text:
                guard let message = try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any] else { continue }
                pending.append(message)
            case .close:
                throw RawClient.Failure(description: "the server closed the socket (\(frame.payload.prefix(2).map { $0 }))")
            default:
                continue
            }
        }
    }

    /// Whether a message satisfying `predicate` arrives within `window`.
    func receives(within window: Duration, _ predicate: ([String: Any]) -> Bool) async -> Bool {
        (try? await next(timeout: window, predicate)) != nil
    }

    /// Drops everything read so far.
    func clear() { pending.removeAll() }
}

extension Dictionary where Key == String, Value == Any {
    var event: String? { self["event"] as? String }
    var topic: String? { self["topic"] as? String }
    var body: [String: Any] { self["payload"] as? [String: Any] ?? [:] }
}
