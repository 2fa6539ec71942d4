import Digest
import Foundation

/// Sends notifications to APNs over HTTP/2 with token-based authentication,
/// through libcurl: one long-lived connection per endpoint (TLS with ALPN h2 for
/// `https://`, h2c for an `http://` stand-in), reopened when the server closes
/// it, carrying up to `configuration.concurrency` notifications at once as
/// HTTP/2 streams, and one provider token reused for its refresh interval.
///
/// Any number of tasks may call `send` at once: requests past the concurrency
/// wait their turn inside the client, and curl's loop runs on a thread of its
/// own, never on Swift's cooperative threads.
public final class APNsClient: @unchecked Sendable {
    public let configuration: APNsConfiguration
    private let providerToken: APNsProviderToken
    private let multiplexer: CurlMultiplexer

    public init(_ configuration: APNsConfiguration) throws {
        self.configuration = configuration
        let signer: ES256Signer
        do { signer = try ES256Signer(pem: configuration.privateKeyPEM) } catch { throw APNsConfigurationError(error) }
        providerToken = APNsProviderToken(teamID: configuration.teamID, keyID: configuration.keyID,
                                          signer: signer, refreshInterval: configuration.tokenRefreshInterval)
        multiplexer = try CurlMultiplexer(concurrency: max(1, configuration.concurrency), threadName: "apns curl")
        // A peer closing a TLS socket mid-write must be an error to handle, not the end of the process.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { multiplexer.shutdown() }

    /// How many notifications can be in flight at once on each endpoint's connection.
    public var concurrency: Int { multiplexer.concurrency }

    /// Sends one notification; never throws: a transport failure is an outcome to retry.
    public func send(_ notification: APNsNotification) async -> (outcome: APNsOutcome, response: APNsResponse?) {
        let bearer: String
        do {
            bearer = try providerToken.current()
        } catch {
            return (.retry(reason: "cannot sign the provider token: \(error)", after: nil), nil)
        }
        let origin = Self.origin(of: configuration.url(for: notification.environment))
        let request = notification.request(origin: origin, topic: configuration.topic, bearer: bearer)
        let options = CurlTransfer.Options(timeout: configuration.timeout, caFile: configuration.caFile)
        var result = await exchange(request, origin: origin, options: options)
        // The server ended the connection (GOAWAY) and not a byte of this stream's answer came:
        // by HTTP/2's rules a stream above the GOAWAY's last one was never processed, so one
        // more try on a new connection does not duplicate the notification.
        if case .failure(let error) = result, error.unanswered {
            result = await exchange(request, origin: origin, options: options)
        }
        switch result {
        case .success(let answer):
            let response = APNsResponse(answer)
            if response.status == 403 && response.reason == "ExpiredProviderToken" { providerToken.expire() }
            return (response.outcome, response)
        case .failure(let error):
            return (.retry(reason: describe(error, environment: notification.environment), after: nil), nil)
        }
    }

    private func exchange(_ request: HTTPRequest, origin: String, options: CurlTransfer.Options) async -> Result<HTTPResponse, HTTPTransportError> {
        await withCheckedContinuation { continuation in
            multiplexer.submit(CurlTransfer(request, origin: origin, options: options) { continuation.resume(returning: $0) })
        }
    }

    /// Lets the notifications already sent get their answers, then closes the connections.
    public func close() async {
        await multiplexer.close()
    }

    /// The transport's failure with what to check, naming the setting behind the endpoint.
    func describe(_ error: HTTPTransportError, environment: APNsEnvironment) -> String {
        let setting = environment == .production ? "APNS_PRODUCTION_URL" : "APNS_SANDBOX_URL"
        let fix: String? = switch error.kind {
        case .cannotResolve, .cannotConnect:
            "check \(setting) (\(environment) notifications go there) and that the server is up and reachable from this machine"
        case .timedOut:
            "no answer within \(Self.seconds(configuration.timeout)) (APNS_TIMEOUT_SECONDS): raise it, or check the network to \(error.origin)"
        case .untrustedCertificate:
            "for an endpoint with a private CA, set APNS_CA_FILE to its certificate (PEM); Apple's are in the system's trust store"
        case .wrongHost:
            "check the host in \(setting): the certificate must name it"
        case .cannotReadCAFile:
            "check APNS_CA_FILE: it must be a readable PEM file of certificates"
        case .notHTTP2:
            "\(setting) must be an HTTP/2 endpoint (APNs is; a local stand-in over http:// must accept h2c)"
        case .tlsHandshake, .connectionLost, .closed, .other:
            nil
        }
        return error.description + (fix.map { " — \($0)" } ?? "")
    }

    /// scheme://host[:port] of a configured endpoint, whatever path or trailing slash it was given with.
    static func origin(of url: URL) -> String {
        let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        return "\(url.scheme ?? "https")://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds.formatted(.number.precision(.fractionLength(0...3))) + " s"
    }
}
