import Foundation

/// Sends notifications to APNs over HTTP/2 with token-based authentication:
/// long-lived connections (TLS with ALPN h2 for `https://`, prior-knowledge h2c
/// for an `http://` stand-in), reopened when the server closes them, and one
/// provider token reused for its refresh interval.
///
/// The client has `configuration.connections` lanes, each a serial queue with
/// its own connection per environment: a request waits for the one before it on
/// its lane (one round trip each), lanes go side by side, and the blocking
/// socket calls never hold up Swift's cooperative threads.
public final class APNsClient: @unchecked Sendable {
    public let configuration: APNsConfiguration
    private let providerToken: APNsProviderToken
    private let lanes: [APNsLane]

    public init(_ configuration: APNsConfiguration) throws {
        self.configuration = configuration
        providerToken = APNsProviderToken(teamID: configuration.teamID, keyID: configuration.keyID,
                                          signer: try ES256Signer(pem: configuration.privateKeyPEM),
                                          refreshInterval: configuration.tokenRefreshInterval)
        lanes = (0..<max(1, configuration.connections)).map(APNsLane.init)
        // A peer closing a TLS socket mid-write must be an error to handle, not the end of the process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// How many requests can be in flight at once.
    public var laneCount: Int { lanes.count }

    /// Sends one notification on `lane` (taken modulo the lane count); never throws:
    /// a transport failure is an outcome to retry.
    public func send(_ notification: APNsNotification, lane: Int = 0) async -> (outcome: APNsOutcome, response: APNsResponse?) {
        await lanes[lane % lanes.count].run { self.sendBlocking(notification, on: $0) }
    }

    /// Closes the connections (after the requests already queued).
    public func close() async {
        for lane in lanes {
            await lane.run { lane in
                lane.connections.values.forEach { $0.close() }
                lane.connections = [:]
            }
        }
    }

    private func sendBlocking(_ notification: APNsNotification, on lane: APNsLane) -> (outcome: APNsOutcome, response: APNsResponse?) {
        // A server that said GOAWAY before reading our stream never processed it, so
        // one more try on a new connection cannot duplicate the notification.
        for attempt in 0..<2 {
            do {
                let connection = try connection(for: notification.environment, on: lane)
                let request = notification.request(topic: configuration.topic, bearer: try providerToken.current())
                let response = APNsResponse(try connection.send(request))
                if response.status == 403 && response.reason == "ExpiredProviderToken" { providerToken.expire() }
                return (response.outcome, response)
            } catch let error as HTTP2Error {
                if lane.connections[notification.environment]?.isUsable != true {
                    lane.connections[notification.environment]?.close()
                    lane.connections[notification.environment] = nil
                }
                if case .requestNotProcessed = error, attempt == 0 { continue }
                return (.retry(reason: error.description, after: nil), nil)
            } catch {
                return (.retry(reason: String(describing: error), after: nil), nil)
            }
        }
        return (.retry(reason: "the server kept closing the connection before reading the request", after: nil), nil)
    }

    private func connection(for environment: APNsEnvironment, on lane: APNsLane) throws -> HTTP2ClientConnection {
        if let open = lane.connections[environment] {
            open.absorbIdleInput()
            if open.isUsable { return open }
            open.close()
            lane.connections[environment] = nil
        }
        let url = configuration.url(for: environment)
        guard let host = url.host else { throw HTTP2Error.connectionLost("\(url) has no host") }
        let secure = url.scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let tcp = try TCPStream(host: host, port: port, timeout: configuration.timeout)
        let stream: ByteStream = secure ? try TLSStream(tcp: tcp, host: host, caFile: configuration.caFile) : tcp
        let connection = try HTTP2ClientConnection(stream: stream, authority: url.port.map { "\(host):\($0)" } ?? host,
                                                   scheme: secure ? "https" : "http")
        lane.connections[environment] = connection
        return connection
    }
}
