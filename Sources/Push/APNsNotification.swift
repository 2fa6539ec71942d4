import Foundation

/// One push to one device: `POST /3/device/{token}` with the JSON payload.
public struct APNsNotification: Sendable {
    public enum PushType: String, Sendable {
        case alert, background
    }

    public var deviceToken: String
    public var environment: APNsEnvironment
    /// The JSON body: `{"aps": {…}, …}`, at most 4 KB.
    public var payload: Data
    public var pushType: PushType
    /// 10: deliver now; 5: when convenient for the device's power.
    public var priority: Int
    /// Notifications with the same collapse id replace each other on the device.
    public var collapseID: String?
    /// Our id for the notification; APNs echoes it.
    public var id: UUID?
    /// After this APNs stops trying to reach a device that is offline.
    public var expiration: Date?

    public init(deviceToken: String, environment: APNsEnvironment, payload: Data, pushType: PushType = .alert,
                priority: Int = 10, collapseID: String? = nil, id: UUID? = nil, expiration: Date? = nil) {
        self.deviceToken = deviceToken
        self.environment = environment
        self.payload = payload
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.id = id
        self.expiration = expiration
    }

    func request(origin: String, topic: String, bearer: String) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [
            ("authorization", "bearer " + bearer),
            ("apns-topic", topic),
            ("apns-push-type", pushType.rawValue),
            ("apns-priority", String(priority)),
            ("content-type", "application/json"),
        ]
        if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
        if let id { headers.append(("apns-id", id.uuidString.lowercased())) }
        if let expiration { headers.append(("apns-expiration", String(max(0, Int(expiration.timeIntervalSince1970))))) }
        return HTTPRequest(url: origin + "/3/device/" + deviceToken, headers: headers, body: Array(payload))
    }
}
