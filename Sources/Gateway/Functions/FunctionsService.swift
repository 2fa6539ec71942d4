import Foundation
import Postgres
import Relay

/// `/functions/v1`: the apps' edge functions, as Swift handlers over the core (no
/// JavaScript runtime). Each is called as the platform's are — `POST /functions/v1/{name}`
/// with the project key, and a session's bearer where the function needs one — and
/// answers in the shape the app decodes. An unknown name answers the platform's 404.
///
/// - `get-resort-graph`: the resort's active canonical graph (or an exact or
///   manifest-only replay), as `cache_valid`, `fetch` with a `blob_url` Summit serves
///   (raw-deflated canonical JSON, whose SHA-256 is `sha256`) and a `live_status_url`,
///   or `not_built` when a manifest is staged but nothing is published; 404 when the
///   resort has no canonical manifest.
///
/// - `delete-account` (AirStrive): the signed-in person's account, rows and auth user.
/// - `get-resort-3d-pack`: the resort's newest USDZ pack as a signed storage URL (an
///   hour) and the SHA-256 to check it against; 404 when the resort has none.
///
/// Functions whose code lives outside the gateway arrive as `EdgeFunction`s.
struct FunctionsService: Sendable {
    let context: GatewayContext
    let registered: [String: EdgeFunction]

    init(context: GatewayContext, functions: [EdgeFunction] = []) {
        self.context = context
        registered = Dictionary(functions.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    }

    /// Keeps these URLs apart from storage's: a storage token opens no function's artifact.
    private var urlTokens: SignedURLToken { SignedURLToken(secret: context.credentials.secret, purpose: "functions") }

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        let parts = path.map(String.init)
        // The URLs `get-resort-graph` hands out are fetched as they are, with no key.
        if request.method == .get, parts.count == 4, parts[0] == "get-resort-graph", ["blob", "live"].contains(parts[1]) {
            return await graphArtifact(parts[1], resort: parts[2], identity: parts[3])
        }
        if let function = registered[parts.first ?? ""] {
            return await call(function, request, path: Array(parts.dropFirst()))
        }
        let caller: RequestCaller
        do {
            caller = try context.credentials.caller(of: request, now: context.clock())
        } catch {
            return Self.error(401, error.message)
        }
        switch (request.method, parts.first ?? "", parts.count) {
        case (.post, "get-resort-graph", 1):
            return await getResortGraph(request)
        case (.post, "delete-account", 1):
            return await deleteAccount(caller)
        case (.post, "get-resort-3d-pack", 1):
            return await resort3DPack(request, caller: caller)
        case (_, "get-resort-graph", 1), (_, "delete-account", 1), (_, "get-resort-3d-pack", 1):
            return Self.error(405, "POST only")
        default:
            // The platform's code and message, then what Summit does serve.
            let served = (["delete-account", "get-resort-3d-pack", "get-resort-graph"] + registered.keys.sorted()).map { "POST /functions/v1/\($0)" }
            return .json(404, object: ["code": "NOT_FOUND",
                                       "message": "Requested function was not found: Summit serves " + served.joined(separator: ", ")])
        }
    }

    /// A registered function: POST with a key (and a session where it needs one), or a
    /// keyless GET of a URL it signed.
    private func call(_ function: EdgeFunction, _ request: HTTPRequest, path: [String]) async -> HTTPResponse {
        let now = context.clock()
        let kind: EdgeFunctionCall.Kind
        switch (request.method, path.isEmpty) {
        case (.post, true):
            do {
                kind = .invoke(try context.credentials.caller(of: request, now: now))
            } catch {
                return Self.error(401, error.message)
            }
        case (.get, false):
            guard let token = request.queryItems?.first(where: { $0.name == "token" })?.value else {
                return Self.error(400, "this URL needs its token: ask \(function.name) for a new one")
            }
            do {
                let signer = try urlTokens.verify(token, url: ([function.name] + path).joined(separator: "/"), now: now) { _, _, message, _ in
                    Refusal(Self.error(400, message))
                }
                kind = .download(path, signer: signer)
            } catch {
                return error.response
            }
        default:
            return Self.error(405, "POST /functions/v1/\(function.name), or GET the URLs it answers")
        }
        let call = EdgeFunctionCall(kind: kind, request: request, baseURL: context.publicURL(request) + "/functions/v1/" + function.name,
                                    token: urlTokens, name: function.name, now: now)
        return await function.handler(call)
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, object: ["error": message])
    }

    // MARK: - delete-account

    /// AirStrive's `delete-account`: `social.delete_account()` as the caller — the
    /// account whole, rows, sessions and auth user at once, files queued for the storage
    /// sweep, what was shared to group grids kept as "a former member".
    private func deleteAccount(_ caller: RequestCaller) async -> HTTPResponse {
        guard let user = caller.userID, caller.role == "authenticated" else {
            return Self.error(401, "sign in: delete-account deletes the signed-in person's own account")
        }
        do {
            let answer = try await context.query("select social.delete_account()::text", as: caller).scalar(String.self)
            var body = JSONText.parse(answer) as? [String: Any] ?? [:]
            body["deleted"] = true
            body["user_id"] = user.uuidString.lowercased()
            return .json(200, object: body)
        } catch let error as PostgresError where error.code == .raiseException {
            return Self.error(400, error.hint ?? error.message)
        } catch {
            return Self.error(500, "the account was not deleted: the database is not reachable; retry")
        }
    }

    // MARK: - get-resort-3d-pack

    private func resort3DPack(_ request: HTTPRequest, caller: RequestCaller) async -> HTTPResponse {
        guard let body = JSONText.parse(request.body) as? [String: Any], let resort = body["resort_id"] as? String, !resort.isEmpty else {
            return Self.error(400, "resort_id is required")
        }
        let text: String?
        do {
            text = try await context.query("select mountain.newest_3d_pack(\(resort))::text", as: caller).first?.decode(String?.self, at: 0)
        } catch {
            return Self.error(500, "the pack could not be read: the database is not reachable; retry")
        }
        guard let text, let pack = JSONText.parse(text) as? [String: Any], let name = pack["storage_name"] as? String else {
            return Self.error(404, "no 3D pack for resort_id=\(resort): an operator adds one with summit resort pack add \(resort) FILE")
        }
        let lifetime = 3600
        // Packs are every app's to fetch: the URL, good for its one object, is signed as the service.
        let token = SignedURLToken(secret: context.credentials.secret)
            .sign(bucket: "resort-packs", name: name, expiresIn: lifetime, signer: context.credentials.serviceRole, now: context.clock())
        let url = context.publicURL(request) + "/storage/v1/object/sign/" + StorageNames.urlPath(bucket: "resort-packs", name: name)
            + "?token=" + token
        return .json(200, object: ["resort_id": resort, "sha256": pack["sha256"] ?? NSNull(), "byte_count": pack["byte_count"] ?? NSNull(),
                                   "created_at": pack["created_at"] ?? NSNull(), "url": url, "expires_in": lifetime])
    }

    // MARK: - get-resort-graph

    private func getResortGraph(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = JSONText.parse(request.body) as? [String: Any] else { return Self.error(400, "invalid JSON body") }
        guard let resort = body["resort_id"] as? String, RelayChannel.isValidResortID(resort) else {
            return Self.error(400, "resort_id is required: a resort id of 1 to 52 letters, digits, _ . -")
        }
        func integer(_ key: String) -> Int? { (body[key] as? NSNumber).map(\.intValue) }
        let graph: [String: Any]
        do {
            // Published graphs are the resorts' public maps: read as the service, published identities only.
            let text = try await context.queryAsService("""
                select mountain.get_resort_graph(\(resort), \(integer("cached_manifest_version")), \(body["cached_content_sha256"] as? String),
                  \(integer("manifest_version")), \(body["graph_version"] as? String), \(body["content_sha256"] as? String))::text
                """, lagTolerant: true).scalar(String.self)
            graph = JSONText.parse(text) as? [String: Any] ?? [:]
        } catch let error as PostgresError where error.code == .raiseException {
            return Self.error(400, error.hint ?? error.message)
        } catch {
            return Self.error(500, "the graph could not be read: the database is not reachable; retry")
        }
        let current = graph["current"] as? [String: Any]
        var answer: [String: Any] = [:]
        if let version = current?["manifest_version"] { answer["current_manifest_version"] = version }
        switch graph["status"] as? String {
        case "fetch", "cache_valid":
            guard let manifest = graph["manifest_version"] as? Int, let version = graph["graph_version"] as? String,
                  let sha = graph["content_sha256"] as? String else {
                return Self.error(500, "published graph metadata is missing or inconsistent")
            }
            let identity = "m\(manifest)-\(version)-\(sha)"
            let base = context.publicURL(request) + "/functions/v1/get-resort-graph"
            answer["status"] = graph["status"]
            answer["manifest_version"] = manifest
            answer["graph_version"] = version
            answer["sha256"] = sha
            answer["snapshot_date"] = graph["snapshot_date"]
            if graph["status"] as? String == "fetch" { answer["blob_url"] = "\(base)/blob/\(resort)/\(identity)" }
            if let reference = graph["status_ref"] as? [String: Any], reference["usable"] as? Bool == true {
                answer["live_status_url"] = "\(base)/live/\(resort)/\(identity)"
            }
            return .json(200, object: answer)
        case "not_found":
            return Self.error(404, "requested canonical dataset was never published")
        default:
            do {
                let staged = try await context.queryAsService(
                    "select exists (select 1 from mountain.resort_canonical_manifest where resort_id = \(resort))").scalar(Bool.self)
                guard staged else { return Self.error(404, "no canonical manifest for resort_id=\(resort)") }
            } catch {
                return Self.error(500, "the manifest could not be read: the database is not reachable; retry")
            }
            answer["status"] = "not_built"
            return .json(200, object: answer)
        }
    }

    /// A published graph's blob (the bytes whose inflated SHA-256 is the identity's), or
    /// its live status in the app's shape: lifts and trails by stable edge id.
    private func graphArtifact(_ kind: String, resort: String, identity: String) async -> HTTPResponse {
        let pieces = identity.split(separator: "-", maxSplits: 2).map(String.init)
        guard RelayChannel.isValidResortID(resort), pieces.count == 3, pieces[0].hasPrefix("m"), let manifest = Int(pieces[0].dropFirst()),
              pieces[1].hasPrefix("v"), pieces[2].range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil else {
            return Self.error(404, "no such graph: the URL names a resort and m<manifest>-<graph version>-<sha256>")
        }
        do {
            if kind == "blob" {
                let blob: PostgresQuery = """
                    select translate(encode(b.blob, 'base64'), E'\\n', '') from mountain.resort_canonical_publication p
                    join mountain.resort_graph_blob b on b.resort_id = p.resort_id and b.manifest_version = p.manifest_version
                     and b.snapshot_date = p.snapshot_date and b.graph_version = p.graph_version and b.sha256 = p.content_sha256
                    where p.resort_id = \(resort) and p.manifest_version = \(manifest) and p.graph_version = \(pieces[1])
                      and p.content_sha256 = \(pieces[2])
                    limit 1
                    """
                // A blob never changes once published, so a standby that has it serves it; one a
                // moment behind the publication leaves it to the primary.
                var rows = try await context.queryAsService(blob, lagTolerant: true)
                if rows.isEmpty, context.reads != nil { rows = try await context.queryAsService(blob) }
                guard let text = try rows.first?.decode(String.self, at: 0), let bytes = Data(base64Encoded: text) else {
                    return Self.error(404, "that graph was never published")
                }
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream",
                                                           "Cache-Control": "public, max-age=31536000, immutable"],
                                    body: Array(bytes))
            }
            let text = try await context.queryAsService(
                "select mountain.get_resort_status(\(resort), \(manifest), \(pieces[1]), \(pieces[2]))::text").scalar(String.self)
            let status = JSONText.parse(text) as? [String: Any] ?? [:]
            guard status["status"] as? String == "ok" else { return Self.error(404, "no live status for this graph yet") }
            var lifts: [String: Any] = [:], trails: [String: Any] = [:]
            for (edge, state) in status["edges"] as? [String: Any] ?? [:] {
                if edge.hasPrefix("l") { lifts[edge] = state } else if edge.hasPrefix("t") { trails[edge] = state }
            }
            return .json(200, object: ["resort_id": resort, "built_at": status["observed_at"] ?? NSNull(),
                                       "expires_at": status["expires_at"] ?? NSNull(), "lifts": lifts, "trails": trails],
                         headers: ["Cache-Control": "no-cache"])
        } catch {
            return Self.error(500, "the graph could not be read: the database is not reachable; retry")
        }
    }
}
