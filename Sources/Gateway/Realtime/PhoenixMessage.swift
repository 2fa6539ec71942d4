import Foundation

/// One message of the Phoenix channel protocol the hosted platform's realtime
/// speaks: `{"topic", "event", "payload", "ref", "join_ref"}` with serializer 1.0.0,
/// or the array `[join_ref, ref, topic, event, payload]` with 2.0.0 (text frames).
struct PhoenixMessage: @unchecked Sendable {
    enum Serializer: Sendable {
        case v1, v2
    }

    var topic: String
    var event: String
    /// A JSON object, as Foundation parsed it.
    var payload: [String: Any]
    var ref: String?
    var joinRef: String?

    /// Reads a client's text frame; nil when it is not a Phoenix message.
    static func decode(_ text: String, serializer: Serializer) -> PhoenixMessage? {
        guard let parsed = JSONText.parse(text) else { return nil }
        switch serializer {
        case .v1:
            guard let object = parsed as? [String: Any], let topic = object["topic"] as? String,
                  let event = object["event"] as? String else { return nil }
            return PhoenixMessage(topic: topic, event: event, payload: object["payload"] as? [String: Any] ?? [:],
                                  ref: Self.refText(object["ref"]), joinRef: Self.refText(object["join_ref"]))
        case .v2:
            guard let array = parsed as? [Any], array.count == 5, let topic = array[2] as? String,
                  let event = array[3] as? String else { return nil }
            return PhoenixMessage(topic: topic, event: event, payload: array[4] as? [String: Any] ?? [:],
                                  ref: Self.refText(array[1]), joinRef: Self.refText(array[0]))
        }
    }

    private static func refText(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    /// A server message, its payload already JSON text (built once for many recipients).
    static func encode(topic: String, event: String, payloadJSON: String, ref: String? = nil, joinRef: String? = nil,
                       serializer: Serializer) -> String {
        let refJSON = ref.map(JSONText.quote) ?? "null"
        let joinRefJSON = joinRef.map(JSONText.quote) ?? "null"
        switch serializer {
        case .v1:
            return #"{"event":"# + JSONText.quote(event) + #","payload":"# + payloadJSON + #","ref":"# + refJSON
                + #","topic":"# + JSONText.quote(topic) + #","join_ref":"# + joinRefJSON + "}"
        case .v2:
            return "[" + joinRefJSON + "," + refJSON + "," + JSONText.quote(topic) + "," + JSONText.quote(event) + "," + payloadJSON + "]"
        }
    }

    /// `phx_reply` to a push: ok or error with a response object.
    static func reply(to message: PhoenixMessage, ok: Bool, response: String = "{}", serializer: Serializer) -> String {
        encode(topic: message.topic, event: "phx_reply",
               payloadJSON: #"{"response":"# + response + #","status":"# + (ok ? #""ok""# : #""error""#) + "}",
               ref: message.ref, joinRef: message.joinRef, serializer: serializer)
    }

    /// An error reply whose response carries `reason`, as the hosted realtime words refusals.
    static func refusal(to message: PhoenixMessage, _ reason: String, serializer: Serializer) -> String {
        reply(to: message, ok: false, response: #"{"reason":"# + JSONText.quote(reason) + "}", serializer: serializer)
    }

    /// A `system` message about a channel's extension (postgres_changes, tokens).
    static func system(topic: String, extension name: String, message: String, ok: Bool, serializer: Serializer) -> String {
        let subTopic = topic.hasPrefix("realtime:") ? String(topic.dropFirst("realtime:".count)) : topic
        let payload = #"{"channel":"# + JSONText.quote(subTopic) + #","extension":"# + JSONText.quote(name)
            + #","message":"# + JSONText.quote(message) + #","status":"# + (ok ? #""ok""# : #""error""#) + "}"
        return encode(topic: topic, event: "system", payloadJSON: payload, serializer: serializer)
    }
}
