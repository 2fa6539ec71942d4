import Foundation
import Postgres
import Relay

/// `summit presence …`: PowderMeet's live positions from the command line — publish
/// as a user, and watch a resort through the relay as a user.
enum PresenceCommand {
    static let command = Command(
        name: "presence",
        summary: "Publish live positions and watch friends' positions through the relay, as one user.",
        discussion: """
            publish calls meet.broadcast_position as the user, exactly as the app does; watch runs a relay \
            in this process and streams what it delivers to the user: friends' positions (accepted, unblocked \
            friends only), social changes, meet-request changes and connection gaps.
            """,
        subcommands: [publish, watch, clear])

    static let publish = Command(
        name: "publish",
        summary: "Publish USER's position sample at a resort (stored as the newest, notified to the relay).",
        discussion: """
            The capture time is the GPS fix's own time (default: now); a sample not newer than the stored \
            one is ignored, one more than 10 s ahead of the server's clock or older than 15 minutes is refused. \
            Example:
              summit presence publish --as ann --resort vail --lat 39.6403 --lon -106.3742 --accuracy 6
            """,
        options: [
            AppCommand.asOption,
            .value("--resort", "RESORT", "the selected resort's id (required)"),
            .value("--lat", "DEGREES", "latitude, -90 to 90 (required)"),
            .value("--lon", "DEGREES", "longitude, -180 to 180 (required)"),
            .value("--captured-at", "TIME", "when the fix was taken, ISO 8601 like 2026-02-01T10:00:00Z (default: now)"),
            .value("--accuracy", "METRES", "horizontal accuracy; routing needs 50 m or better"),
            .value("--altitude", "METRES", "altitude"),
            .value("--speed", "M/S", "speed"),
            .value("--heading", "DEGREES", "heading, 0 up to 360"),
            .value("--node", "ID", "the graph node the phone resolved"),
            .value("--edge", "ID", "the directed graph edge the phone resolved"),
            .value("--fraction", "F", "how far along --edge, 0 to 1"),
            .flag("--json", "print the server's answer as JSON"),
        ],
        run: { invocation in
            let sample = try sample(from: invocation)
            let (outcome, person) = try await AppCommand.acting(invocation) { session, me in
                do {
                    return (try await PositionPublisher.publish(sample, as: me.person.id, on: session.connection), me.person)
                } catch let refusal as PositionPublisher.Refusal {
                    throw RPCRefusal(function: "meet.broadcast_position", code: refusal.code, hint: refusal.hint)
                }
            }
            let console = invocation.console
            switch outcome {
            case .published(let cell, let channels, let bytes):
                if invocation.json {
                    try console.json(PublishAnswer(status: "published", geohash6: cell, channels: channels, packetBytes: bytes,
                                                   capturedAt: sample.capturedAt))
                } else {
                    console.out("published \(person.name)'s position at \(sample.resortID) (cell \(cell), captured "
                                + "\(PostgresTimestamp.format(sample.capturedAt))); notified \(channels.joined(separator: ", "))")
                }
            case .ignored(let stored):
                if invocation.json {
                    try console.json(PublishAnswer(status: "ignored", capturedAt: sample.capturedAt, storedCapturedAt: stored))
                } else {
                    console.out("ignored: \(person.name) already has a newer or equal sample (captured "
                                + "\(stored.map(PostgresTimestamp.format) ?? "unknown")); positions never move back in time")
                }
            }
            return 0
        })

    struct PublishAnswer: Encodable {
        var status: String
        var geohash6: String?
        var channels: [String]?
        var packetBytes: Int?
        var capturedAt: Date
        var storedCapturedAt: Date?

        enum CodingKeys: String, CodingKey {
            case status, geohash6, channels, packetBytes = "packet_bytes", capturedAt = "captured_at",
                 storedCapturedAt = "stored_captured_at"
        }
    }

    /// The sample the options describe, checked before anything is sent.
    static func sample(from invocation: Invocation) throws -> PositionSample {
        let path = invocation.commandPath
        let resort = try invocation.required("--resort")
        guard RelayChannel.isValidResortID(resort) else {
            throw CLIError.usage("--resort \"\(resort)\" is not a resort id (1 to 52 characters of A-Z, a-z, 0-9, _ . -)",
                                 command: path)
        }
        func number(_ name: String, _ range: ClosedRange<Double>? = nil, required: Bool = false) throws -> Double? {
            guard let text = invocation.value(name) else {
                if required { throw CLIError.usage("\(path) needs \(name)", command: path) }
                return nil
            }
            guard let value = Double(text), value.isFinite else {
                throw CLIError.usage("\(name) takes a number, not \"\(text)\"", command: path)
            }
            if let range, !range.contains(value) {
                throw CLIError.usage("\(name) \(text) is outside \(range.lowerBound.formatted())…\(range.upperBound.formatted())",
                                     command: path)
            }
            return value
        }
        var capturedAt = Date()
        if let text = invocation.value("--captured-at"), text != "now" {
            guard let parsed = PostgresTimestamp.parse(text) else {
                throw CLIError.usage("--captured-at takes an ISO 8601 time like 2026-02-01T10:00:00Z, not \"\(text)\"",
                                     command: path)
            }
            capturedAt = parsed
        }
        return PositionSample(
            resortID: resort, latitude: try number("--lat", -90...90, required: true)!,
            longitude: try number("--lon", -180...180, required: true)!, capturedAt: capturedAt,
            accuracy: try number("--accuracy"), altitude: try number("--altitude"), speed: try number("--speed"),
            heading: try number("--heading"), nodeID: invocation.value("--node"), edgeID: invocation.value("--edge"),
            edgeFraction: try number("--fraction", 0...1))
    }

    static let watch = Command(
        name: "watch",
        summary: "Stream what the relay delivers to USER at a resort, one JSON object per line.",
        discussion: """
            Runs the relay in this process, enters the resort as USER (social snapshot, channels, stored \
            positions) and prints each event as a line of JSON: {"type":"position",…} with freshness and \
            routing grade, {"type":"social",…} when friendships change, {"type":"meet_request",…}, \
            {"type":"gap",…} after a lost connection, {"type":"phase",…}. Runs until interrupted, or for \
            --for seconds, or until --count positions arrived. Example:
              summit presence watch --as bob --resort vail
            """,
        options: [
            AppCommand.asOption,
            .value("--resort", "RESORT", "the resort to watch (required)"),
            .value("--for", "SECONDS", "stop after this long"),
            .value("--count", "N", "stop after N positions"),
        ],
        run: { invocation in
            let path = invocation.commandPath
            let resort = try invocation.required("--resort")
            guard RelayChannel.isValidResortID(resort) else {
                throw CLIError.usage("--resort \"\(resort)\" is not a resort id (1 to 52 characters of A-Z, a-z, 0-9, _ . -)",
                                     command: path)
            }
            let duration = try invocation.value("--for").map { text -> Duration in
                guard let seconds = Double(text), seconds > 0 else {
                    throw CLIError.usage("--for takes a positive number of seconds, not \"\(text)\"", command: path)
                }
                return .milliseconds(Int64(seconds * 1000))
            }
            let count = try invocation.value("--count").map { text -> Int in
                guard let count = Int(text), count > 0 else {
                    throw CLIError.usage("--count takes a positive whole number, not \"\(text)\"", command: path)
                }
                return count
            }
            let console = invocation.console
            try await AppCommand.acting(invocation) { session, me in
                let relay = try await Relay(session.connection.configuration)
                do {
                    let subscription = try await relay.subscribe(user: me.person.id)
                    console.note("watching \(resort) as \(me.person.name)…")
                    try await subscription.enter(resort: resort)
                    let deadline = duration.map { ContinuousClock.now + $0 }
                    let timer = deadline.map { deadline in
                        Task {
                            try? await Task.sleep(until: deadline)
                            await subscription.close()
                        }
                    }
                    var positions = 0
                    watching: while let batch = await subscription.nextBatch() {
                        for event in batch {
                            console.out(try WatchLine(event).text())
                            if case .position = event { positions += 1 }
                            if let count, positions >= count { break watching }
                        }
                    }
                    timer?.cancel()
                    await relay.close()
                } catch {
                    await relay.close()
                    throw error
                }
            }
            return 0
        })

    static let clear = Command(
        name: "clear",
        summary: "Stop sharing: remove USER's stored position now.",
        options: [AppCommand.asOption, AppCommand.jsonOption],
        run: { invocation in
            let (answer, person) = try await AppCommand.acting(invocation) { session, me in
                (try await session.call("meet.clear_my_position", as: me.caller), me.person)
            }
            if invocation.json { return AppCommand.print(answer, invocation) }
            invocation.console.out(answer.json.bool == true ? "removed \(person.name)'s stored position"
                                                            : "\(person.name) had no stored position")
            return 0
        })
}
