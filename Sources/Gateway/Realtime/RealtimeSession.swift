import Foundation
import JSONDepth
import Postgres
import Relay

/// One realtime socket: its channels, the messages it reads, and what it sends.
///
/// Replies go straight to the socket; what the hub and the change feed deliver goes
/// through the outbox, written by one writer that waits for room on the socket, and
/// each position channel has a pump that takes batches from its relay subscription
/// only when the socket has room (the relay's mailbox keeps the newest sample per
/// friend meanwhile). So a slow reader holds back only itself.
actor RealtimeSession {
    let id: Int
    let socket: WebSocket
    let service: RealtimeService
    let serializer: PhoenixMessage.Serializer
    /// Who the socket's API key makes the caller, for channels joined without a token.
    let socketCaller: RequestCaller
    let outbox = Outbox()
    private(set) var channels: [String: RealtimeChannel] = [:]
    /// Channels of this session following each user's change feed.
    private var feedUsers: [UUID: Int] = [:]
    private var closed = false

    static let maxChannels = 100

    init(id: Int, socket: WebSocket, service: RealtimeService, caller: RequestCaller, serializer: PhoenixMessage.Serializer) {
        self.id = id
        self.socket = socket
        self.service = service
        self.socketCaller = caller
        self.serializer = serializer
    }

    var context: GatewayContext { service.context }

    /// Serves the socket until it closes, then leaves every channel.
    func run() async {
        let writer = Task { await self.writeLoop() }
        let watchdog = Task { await self.watchTokens() }
        while let message = await socket.receive() {
            switch message {
            case .text(let text):
                if (try? JSONDepth.check(text.utf8)) == nil {
                    socket.close(.unsupportedData, reason: "the message nests JSON more than \(JSONDepth.limit) levels deep; send at most \(JSONDepth.limit)")
                    continue
                }
                guard let phoenix = PhoenixMessage.decode(text, serializer: serializer) else {
                    socket.close(.unsupportedData, reason: "expected Phoenix channel messages (JSON, serializer \(serializer == .v1 ? "1.0.0" : "2.0.0"))")
                    continue
                }
                await handle(phoenix)
            case .binary:
                socket.close(.unsupportedData, reason: "Summit's realtime reads text frames")
            default:
                continue
            }
        }
        closed = true
        watchdog.cancel()
        for channel in Array(channels.values) { await leave(channel) }
        outbox.finish()
        await writer.value
    }

    // MARK: - Reading

    private func handle(_ message: PhoenixMessage) async {
        if message.topic == "phoenix" {
            if message.event == "heartbeat" { send(PhoenixMessage.reply(to: message, ok: true, serializer: serializer)) }
            return
        }
        if message.event == "phx_join" { return await join(message) }
        guard let channel = channels[message.topic] else {
            if message.event == "phx_leave" {
                send(PhoenixMessage.reply(to: message, ok: true, serializer: serializer))
            } else {
                send(PhoenixMessage.refusal(to: message, "unmatched topic: join \(message.topic) first", serializer: serializer))
            }
            return
        }
        switch message.event {
        case "phx_leave":
            await leave(channel)
            send(PhoenixMessage.reply(to: message, ok: true, serializer: serializer))
            sendClose(channel)
        case "access_token":
            await updateToken(channel, message)
        case "broadcast":
            await broadcast(channel, message)
        case "presence":
            await presence(channel, message)
        default:
            send(PhoenixMessage.refusal(to: message, "unknown event \(message.event)", serializer: serializer))
        }
    }

    // MARK: - Joining and leaving

    private func join(_ message: PhoenixMessage) async {
        let topic = message.topic
        guard topic.hasPrefix("realtime:"), topic.count > "realtime:".count, topic.utf8.count <= 512 else {
            return send(PhoenixMessage.refusal(to: message, "topics are realtime:{name}, at most 512 bytes", serializer: serializer))
        }
        // Joining again (a client's rejoin) replaces the old channel.
        if let existing = channels[topic] {
            await leave(existing)
        }
        guard channels.count < Self.maxChannels else {
            return send(PhoenixMessage.refusal(to: message, "a socket may join at most \(Self.maxChannels) channels", serializer: serializer))
        }
        let config = message.payload["config"] as? [String: Any] ?? [:]
        let caller: RequestCaller
        do {
            caller = try await self.caller(for: message.payload["access_token"])
        } catch {
            return send(PhoenixMessage.refusal(to: message, error.message, serializer: serializer))
        }
        if config["private"] as? Bool == true {
            return send(PhoenixMessage.refusal(to: message,
                "private channels are not supported by Summit: join with private false (position channels filter by friendship on the server)",
                serializer: serializer))
        }
        let subTopic = String(topic.dropFirst("realtime:".count))
        let kind = RealtimeChannel.kind(of: subTopic)
        if kind != .plain, caller.userID == nil {
            return send(PhoenixMessage.refusal(to: message, "sign in to follow friends' positions", serializer: serializer))
        }
        if case .resortPositions(let resort) = kind, !RelayChannel.isValidResortID(resort) {
            return send(PhoenixMessage.refusal(to: message, "\(resort) is not a resort id (1–52 letters, digits, _ . -)", serializer: serializer))
        }
        if case .cellPositions(let cell) = kind, !Geohash.isCell(cell) {
            return send(PhoenixMessage.refusal(to: message, "\(cell) is not a geohash cell (six letters of 0-9, b-h, j, k, m, n, p-z)", serializer: serializer))
        }
        let presence = config["presence"] as? [String: Any]
        let key = (presence?["key"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString.lowercased()
        let origin = "\(service.nodeID.uuidString.lowercased()):\(id):\(message.joinRef ?? message.ref ?? "0")"
        let channel = RealtimeChannel(topic: topic, joinRef: message.joinRef ?? message.ref, kind: kind, origin: origin,
                                      caller: caller, presenceKey: key)
        let broadcastConfig = config["broadcast"] as? [String: Any]
        channel.broadcastSelf = broadcastConfig?["self"] as? Bool ?? false
        channel.broadcastAck = broadcastConfig?["ack"] as? Bool ?? false

        // postgres_changes: bindings that cannot be read refuse the join; a table that
        // sends no changes is told after the join, as the platform does (see RealtimeSession+Changes).
        let requested = config["postgres_changes"] as? [[String: Any]] ?? []
        var unpublished: String?
        if !requested.isEmpty {
            guard let user = caller.userID else {
                return send(PhoenixMessage.refusal(to: message, "sign in to receive postgres_changes", serializer: serializer))
            }
            do {
                let resolved = try await changeBindings(requested, app: caller.app)
                channel.bindings = resolved.bindings
                unpublished = resolved.unpublished
            } catch {
                return send(PhoenixMessage.refusal(to: message, error.message, serializer: serializer))
            }
            if unpublished == nil { channel.changesUser = user }
        }
        // Presence is on when the join says so (the platform's presence.enabled, true or "true"); a track turns it on too.
        channel.presenceEnabled = Self.flag(presence?["enabled"])

        // Listen before answering, so nothing said after the answer is missed.
        do {
            try await service.hub.join(topic, TopicHub.Member(
                outbox: outbox, origin: origin, receivesOwnBroadcasts: channel.broadcastSelf, serializer: serializer,
                overflow: { [socket] in socket.close(.policyViolation, reason: "too slow: messages piled up unread") }))
            if let user = channel.changesUser {
                if feedUsers[user, default: 0] == 0 {
                    try await service.feed.join(user, session: id, ChangeFeed.Member(
                        outbox: outbox, overflow: { [socket] in socket.close(.policyViolation, reason: "too slow: changes piled up unread") }))
                }
                feedUsers[user, default: 0] += 1
            }
        } catch {
            await leave(channel)
            return send(PhoenixMessage.refusal(to: message, "could not subscribe: the database is not reachable; retry", serializer: serializer))
        }
        guard !closed else { return await leave(channel) }
        channels[topic] = channel

        let changes = channel.bindings.isEmpty ? "" : #""postgres_changes":["# + channel.bindings.map(\.replyJSON).joined(separator: ",") + "]"
        send(PhoenixMessage.reply(to: message, ok: true, response: "{" + changes + "}", serializer: serializer))
        if let unpublished {
            send(PhoenixMessage.system(topic: topic, extension: "postgres_changes", message: unpublished, ok: false, serializer: serializer))
        } else if !channel.bindings.isEmpty {
            send(PhoenixMessage.system(topic: topic, extension: "postgres_changes", message: "Subscribed to PostgreSQL", ok: true, serializer: serializer))
        }
        if channel.presenceEnabled {
            await sendPresenceState(topic)
        }
        guard let user = caller.userID else { return }
        switch kind {
        case .resortPositions(let resort):
            await startPositions(channel, user: user, resort: resort, cell: nil)
        case .cellPositions(let cell):
            // A cell follows the resort it lies in; away from every resort there are no positions to follow.
            if let resort = await resort(of: cell) {
                await startPositions(channel, user: user, resort: resort, cell: cell)
            }
        case .plain:
            break
        }
    }

    /// The resort a cell's centre lies at (`mountain.resolve_resort_id`), if any.
    private func resort(of cell: String) async -> String? {
        guard let centre = Geohash.center(of: cell) else { return nil }
        return try? await context.pool.withConnection { connection in
            try await connection.query("select mountain.resolve_resort_id(\(centre.latitude), \(centre.longitude))", as: .serviceRole)
                .first?.decode(String?.self, at: 0)
        } ?? nil
    }

    /// Follows friends' positions at `resort` through the relay, streamed to the socket;
    /// on a cell's channel, only positions in the cell (and the relay's gap notices).
    private func startPositions(_ channel: RealtimeChannel, user: UUID, resort: String, cell: String?) async {
        let subscription: RelaySubscription
        do {
            subscription = try await service.relay.subscribe(user: user)
        } catch {
            return close(channel, system: "positions are not available: the relay is closed; rejoin")
        }
        channel.positions = subscription
        channel.positionsResort = resort
        let socket = socket, serializer = serializer, topic = channel.topic
        let positionEvent = channel.caller.app == .powdermeet ? "pos" : "position"
        channel.pump = Task {
            while let batch = await subscription.nextBatch() {
                await socket.waitForRoom()
                guard !socket.isClosed else { break }
                for event in batch {
                    if let cell, !Self.belongs(event, to: cell) { continue }
                    if let text = PositionWire.message(for: event, topic: topic, serializer: serializer, positionEvent: positionEvent) {
                        socket.send(text: text)
                    }
                }
            }
        }
        let entering = Task { try await subscription.enter(resort: resort) }
        if case .failure = await entering.result, channels[channel.topic] === channel {
            close(channel, system: "could not follow positions at \(resort): the database is not reachable; rejoin")
        }
    }

    /// Whether a relay event goes to a cell's channel: positions in the cell, and gaps.
    private static func belongs(_ event: RelayEvent, to cell: String) -> Bool {
        switch event {
        case .position(let position):
            Geohash.cell(latitude: position.packet.latitude, longitude: position.packet.longitude) == cell
        case .gap:
            true
        case .social, .meetRequest, .phase:
            false
        }
    }

    /// Releases everything a channel holds.
    private func leave(_ channel: RealtimeChannel) async {
        if channels[channel.topic] === channel { channels[channel.topic] = nil }
        if let subscription = channel.positions {
            channel.positions = nil
            await subscription.close()
        }
        channel.pump?.cancel()
        await service.hub.leave(channel.topic, origin: channel.origin)
        if let user = channel.changesUser {
            channel.changesUser = nil
            feedUsers[user, default: 1] -= 1
            if feedUsers[user] == 0 {
                feedUsers[user] = nil
                await service.feed.leave(user, session: id)
            }
        }
        if channel.tracked {
            channel.tracked = false
            let topic = channel.topic, origin = channel.origin
            _ = try? await context.pool.withConnection { connection in
                try await connection.query("select realtime.gateway_untrack(\(topic), \(origin))", as: .serviceRole)
            }
        }
    }

    /// Ends a channel from the server's side: a system error, then phx_close.
    private func close(_ channel: RealtimeChannel, system message: String) {
        send(PhoenixMessage.system(topic: channel.topic, extension: "system", message: message, ok: false, serializer: serializer))
        sendClose(channel)
        Task { await self.leave(channel) }
    }

    private func sendClose(_ channel: RealtimeChannel) {
        send(PhoenixMessage.encode(topic: channel.topic, event: "phx_close", payloadJSON: "{}", ref: channel.joinRef,
                                   joinRef: channel.joinRef, serializer: serializer))
    }

    // MARK: - Tokens

    /// The caller a join's `access_token` names (the socket's key when there is none).
    private func caller(for token: Any?) async throws(RealtimeProblem) -> RequestCaller {
        guard let text = token as? String, !text.isEmpty else { return socketCaller }
        var caller: RequestCaller
        do {
            caller = try context.credentials.verify(text, now: context.clock())
            caller.app = socketCaller.app
        } catch .badToken(.expired) {
            throw RealtimeProblem("Token has expired: refresh the session and join again with the new access token")
        } catch {
            throw RealtimeProblem("Invalid JWT: \(error.message)")
        }
        try await checkSession(caller)
        return caller
    }

    /// A signed-out session's tokens stop working in realtime at once, not when they expire.
    private func checkSession(_ caller: RequestCaller) async throws(RealtimeProblem) {
        guard let session = caller.sessionID else { return }
        let active: Bool
        do {
            active = try await context.pool.withConnection { connection in
                try await connection.query("select auth.gateway_session_active(\(session))", as: .serviceRole).scalar(Bool.self)
            }
        } catch {
            throw RealtimeProblem("could not check the session: the database is not reachable; retry")
        }
        guard active else { throw RealtimeProblem("the session was signed out: sign in again") }
    }

    /// `access_token`: the channel goes on as the new token's caller, at once. A token
    /// that does not verify, or names someone else, ends the channel.
    private func updateToken(_ channel: RealtimeChannel, _ message: PhoenixMessage) async {
        guard let text = message.payload["access_token"] as? String, !text.isEmpty else { return }
        let caller: RequestCaller
        do {
            caller = try await self.caller(for: text)
        } catch {
            return close(channel, system: error.message)
        }
        guard caller.userID == channel.caller.userID else {
            return close(channel, system: "the new token is for another user: join again")
        }
        channel.caller = caller
    }

    /// Ends channels whose token runs out without a new one.
    private func watchTokens() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = context.clock().timeIntervalSince1970
            for channel in Array(channels.values) where channel.caller.expiresAt <= now {
                let ago = Int(now - channel.caller.expiresAt)
                close(channel, system: "Token has expired \(ago) seconds ago: send access_token with a fresh one")
            }
        }
    }

    // MARK: - Broadcast and presence

    private func broadcast(_ channel: RealtimeChannel, _ message: PhoenixMessage) async {
        let event = message.payload["event"] as? String ?? ""
        let body = message.payload["payload"] ?? [String: Any]()
        var failure: String?
        switch channel.kind {
        case .resortPositions, .cellPositions:
            // The PowderMeet app sends its packets as event pos, on its resort's channel and its own cell's.
            guard event == "position" || (event == "pos" && channel.caller.app == .powdermeet),
                  let user = channel.caller.userID, let sample = body as? [String: Any] else {
                failure = "position channels carry event position with {lat, lon, at, acc…}; the server relays them to friends"
                break
            }
            // A cell's packet names its resort (r); the same packet sent on both channels is stored once (newest wins).
            let named = (sample["r"] as? String).flatMap { RelayChannel.isValidResortID($0) ? $0 : nil }
            if case .resortPositions(let resort) = channel.kind {
                failure = await publishPosition(sample, resort: resort, user: user, caller: channel.caller)
            } else if let resort = named ?? channel.positionsResort {
                failure = await publishPosition(sample, resort: resort, user: user, caller: channel.caller)
            } else {
                failure = "this cell is at no resort Summit knows: name the resort in r, or send on realtime:pos:resort:{id}"
            }
        case .plain:
            do {
                try await service.hub.broadcast(channel.topic, event: event, payloadJSON: JSONText.serialize(body), origin: channel.origin)
            } catch let tooLarge as TopicHub.BroadcastTooLarge {
                failure = tooLarge.description
            } catch {
                failure = Self.failure("the broadcast was not sent", error)
            }
        }
        if let failure {
            send(PhoenixMessage.refusal(to: message, failure, serializer: serializer))
        } else if channel.broadcastAck {
            send(PhoenixMessage.reply(to: message, ok: true, serializer: serializer))
        }
    }

    /// A position sent on `pos:resort:{id}`: `meet.broadcast_position` as the sender, which
    /// stores it and notifies the relays; each friend's relay delivers it.
    private func publishPosition(_ sample: [String: Any], resort: String, user: UUID, caller: RequestCaller) async -> String? {
        func number(_ key: String) -> Double? { (sample[key] as? NSNumber)?.doubleValue }
        guard let lat = number("lat"), let lon = number("lon") else { return "a position needs lat and lon" }
        let captured = number("at").map { Date(timeIntervalSince1970: $0) } ?? context.clock()
        let statement: PostgresQuery = """
            select meet.broadcast_position(
              p_resort_id => \(resort), p_lat => \(lat), p_lon => \(lon), p_captured_at => \(captured),
              p_accuracy_m => \(number("acc")), p_altitude_m => \(number("alt")), p_speed_mps => \(number("spd")),
              p_heading_deg => \(number("hdg")), p_node_id => \(sample["node"] as? String),
              p_edge_id => \(sample["edge"] as? String), p_edge_fraction => \(number("frac")))::text
            """
        do {
            _ = try await context.query(statement, as: caller)
            return nil
        } catch let error as PostgresError where error.code == .raiseException {
            return "position refused: \(error.message)" + (error.hint.map { " (\($0))" } ?? "")
        } catch {
            return Self.failure("the position was not stored", error)
        }
    }

    private func presence(_ channel: RealtimeChannel, _ message: PhoenixMessage) async {
        let event = message.payload["event"] as? String
        let topic = channel.topic, origin = channel.origin
        do {
            switch event {
            case "track":
                let meta = JSONText.serialize(message.payload["payload"] ?? [String: Any]())
                let key = channel.presenceKey, user = channel.caller.userID, node = service.nodeID
                _ = try await context.pool.withConnection { connection in
                    try await connection.query("""
                        select realtime.gateway_track(\(topic), \(origin), \(key), \(node), \(user), \(meta)::jsonb)
                        """, as: .serviceRole)
                }
                channel.tracked = true
                channel.presenceEnabled = true
            case "untrack":
                _ = try await context.pool.withConnection { connection in
                    try await connection.query("select realtime.gateway_untrack(\(topic), \(origin))", as: .serviceRole)
                }
                channel.tracked = false
            default:
                return send(PhoenixMessage.refusal(to: message, "presence events are track and untrack", serializer: serializer))
            }
            send(PhoenixMessage.reply(to: message, ok: true, serializer: serializer))
        } catch let error as PostgresError where error.code == .raiseException {
            send(PhoenixMessage.refusal(to: message, error.hint ?? error.message, serializer: serializer))
        } catch {
            send(PhoenixMessage.refusal(to: message, Self.failure("presence was not updated", error), serializer: serializer))
        }
    }

    private func sendPresenceState(_ topic: String) async {
        guard let state = try? await context.pool.withConnection({ connection in
            try await connection.query("select realtime.gateway_presence_state(\(topic))::text", as: .serviceRole).scalar(String.self)
        }) else { return }
        send(PhoenixMessage.encode(topic: topic, event: "presence_state", payloadJSON: state, serializer: serializer))
    }

    // MARK: - Writing

    /// Sends a reply or notice now (replies are few; they skip the outbox).
    private func send(_ text: String) {
        socket.send(text: text)
    }

    private func writeLoop() async {
        while let item = await outbox.next() {
            switch item {
            case .text(let text, _):
                if let topic = PresenceResync.topic(of: text) {
                    if channels[topic]?.presenceEnabled == true { await sendPresenceState(topic) }
                    continue
                }
                await socket.waitForRoom()
                socket.send(text: text)
            case .change(let notice):
                await deliver(notice)
            }
        }
    }
}

extension RealtimeSession {
    /// What went wrong, for a refusal: the database's own message, or that it is unreachable.
    static func failure(_ what: String, _ error: any Error) -> String {
        guard let error = error as? PostgresError, !error.isConnectionFailure else {
            return what + ": the database is not reachable; retry"
        }
        return what + ": " + error.message + (error.hint.map { " (\($0))" } ?? "")
    }
}

/// A realtime refusal's reason, as the client shows it.
struct RealtimeProblem: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
