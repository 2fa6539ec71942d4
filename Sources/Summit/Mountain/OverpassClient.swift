import CurlClient
import Foundation

/// Asks an Overpass API interpreter one query, politely: a User-Agent naming
/// Summit, one request at a time, a few retries only where the server says
/// it is busy (429, 502, 503, 504) or the connection broke, each after the
/// wait its `Retry-After` asks for (else a doubling back-off), all within one
/// time limit, and an answer no larger than the query's `[maxsize:]`.
struct OverpassClient: Sendable {
    static let defaultEndpoint = "https://overpass-api.de/api/interpreter"
    static let userAgent = "Summit/1 (summit resort fetch: OpenStreetMap ski features of one resort for its lift-and-trail graph)"

    var endpoint: URL
    /// The whole fetch: every attempt and every wait between them.
    var timeLimit: Duration
    var retries: Int
    /// The first wait when the server names none; each next one doubles.
    var backOff: Duration = .seconds(5)

    struct Answer: Sendable {
        var bytes: [UInt8]
        var attempts: Int
        var seconds: Double
    }

    /// The body of a 200 answer. Anything else throws what happened and what to do; nothing is kept.
    func ask(_ query: OverpassQuery, progress: @Sendable (String) -> Void) async throws -> Answer {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + timeLimit
        let attempts = retries + 1
        let host = endpoint.host ?? endpoint.absoluteString
        let limitText = "the \(Self.secondsText(timeLimit)) s it may take (--timeout)"
        for attempt in 1...attempts {
            let remaining = deadline - clock.now
            progress("asking \(endpoint.absoluteString) for the ski features of \(query.box.text)"
                     + (attempt > 1 ? " (attempt \(attempt) of \(attempts))" : "") + "…")
            let request = CurlClient.Request(
                url: endpoint, body: ("application/x-www-form-urlencoded", query.formBody),
                headers: [("user-agent", Self.userAgent), ("accept", "application/json")],
                timeout: remaining, connectTimeout: min(remaining, .seconds(20)), maximumBody: query.maximumBytes)
            let wait: Duration
            let why: String
            switch await CurlClient.send(request, threadName: "overpass") {
            case .success(let response) where response.status == 200:
                let seconds = Self.seconds(clock.now - start)
                progress("received \(response.body.count) bytes from \(host) in \(String(format: "%.1f", seconds)) s")
                return Answer(bytes: response.body, attempts: attempt, seconds: seconds)
            case .success(let response) where [429, 502, 503, 504].contains(response.status):
                why = "answered \(response.status) (\(Self.reason(response.status)))"
                if let asked = response.header("retry-after").flatMap(Self.retryAfter) {
                    wait = asked
                } else {
                    wait = backOff * (1 << (attempt - 1))
                }
                guard attempt < attempts else {
                    throw CLIError("\(host) \(why) to all \(attempts) attempts; nothing was stored",
                                   fix: "the server is busy: try again later (it asked to wait \(Self.secondsText(wait)) s), or ask another Overpass server with --overpass URL")
                }
            case .success(let response):
                throw CLIError("\(host) answered \(response.status) (\(Self.reason(response.status)))"
                               + (Self.said(response.body).map { ": \"\($0)\"" } ?? "") + "; nothing was stored",
                               fix: response.status == 400 ? "the server refused the query: show it with --print-query and check it"
                                                           : "check --overpass \(endpoint.absoluteString) is an Overpass API interpreter, or try again later")
            case .failure(let failure) where failure.kind == .timedOut:
                throw CLIError("\(host) did not answer within \(limitText) (\(failure.detail)); nothing was stored",
                               fix: "try again later, or allow longer with --timeout SECONDS")
            case .failure(let failure) where failure.kind == .tooLarge:
                throw CLIError("the answer from \(host) is larger than \(query.maximumBytes >> 20) MiB (--max-mib); nothing was stored",
                               fix: "check the resort's catalog box \(query.box.text) is the resort's own, or allow more with --max-mib")
            case .failure(let failure) where failure.kind == .cannotResolve || failure.kind == .cannotConnect:
                throw CLIError("cannot reach \(endpoint.absoluteString) (\(failure.detail)); nothing was stored",
                               fix: "check --overpass URL and that this machine can reach it")
            case .failure(let failure) where failure.kind == .connectionLost:
                why = "broke the connection after \(failure.bytesReceived) bytes (\(failure.detail))"
                wait = backOff * (1 << (attempt - 1))
                guard attempt < attempts else {
                    throw CLIError("\(host) \(why), at all \(attempts) attempts; nothing was stored", fix: "try again later, or ask another Overpass server with --overpass URL")
                }
            case .failure(let failure):
                throw CLIError("asking \(endpoint.absoluteString) failed (\(failure.detail)); nothing was stored",
                               fix: "check --overpass URL, or try again later")
            }
            guard clock.now + wait < deadline else {
                throw CLIError("\(host) \(why), and waiting \(Self.secondsText(wait)) s before asking again would pass \(limitText); nothing was stored",
                               fix: "try again later, or allow longer with --timeout SECONDS")
            }
            progress("\(host) \(why); waiting \(Self.secondsText(wait)) s before attempt \(attempt + 1) of \(attempts)")
            try await Task.sleep(for: wait)
        }
        preconditionFailure("the loop returns or throws at its last attempt")
    }

    /// `Retry-After`: whole seconds or an HTTP date.
    static func retryAfter(_ value: String) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: text) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }

    /// What an error page says: Overpass writes its errors into HTML, `<strong>Error</strong>: …`.
    static func said(_ body: [UInt8]) -> String? {
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
            .replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
            .replacingOccurrences(of: " :", with: ":")
            .trimmingCharacters(in: .whitespaces)
        if let error = text.range(of: "Error: ") {
            return String(text[error.lowerBound...].prefix(300))
        }
        return text.isEmpty ? nil : String(text.prefix(300))
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 429: "Too Many Requests"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(status)"
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `5`, `1.5`: seconds as a person writes them.
    static func secondsText(_ duration: Duration) -> String {
        let value = seconds(duration)
        return value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
    }
}

