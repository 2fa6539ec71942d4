import Foundation
import JSONDepth

/// Routes requests to the services by path, the way the hosted platform lays them
/// out: `/auth/v1`, `/rest/v1`, `/storage/v1`, `/functions/v1`, `/realtime/v1`. Adds CORS headers
/// (browser apps call from their own origin) and answers preflights. `/admin` is the
/// moderation site, a site of its own: no CORS, no preflights.
struct GatewayResponder: HTTPResponder {
    let context: GatewayContext
    let auth: AuthService
    let admin: AdminSite
    let rest: RestService
    let storage: StorageService
    let functions: FunctionsService
    let realtime: RealtimeService

    static let corsHeaders: HTTPHeaders = [
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
        "access-control-allow-headers": "authorization, apikey, content-type, x-client-info, accept-profile, "
            + "content-profile, prefer, range, range-unit, x-upsert, cache-control, x-supabase-api-version",
        "access-control-expose-headers": "content-range, content-location, location, x-total-count",
        "access-control-max-age": "86400",
    ]

    func bodyLimit(method: HTTPMethod, path: Substring) -> Int {
        path.hasPrefix("/storage/v1/object") ? context.configuration.maxUploadBytes : context.configuration.server.limits.maxBodyBytes
    }

    func respond(to request: HTTPRequest) async -> HTTPReply {
        guard let path = request.path else {
            return .response(withCORS(.json(400, object: ["message": "the path's percent-encoding is broken"])))
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.first == "admin" {
            return .response(await admin.respond(to: request, path: segments.dropFirst()))
        }
        if request.method == .options {
            return .response(withCORS(HTTPResponse(status: 204)))
        }
        let service = segments.prefix(2).joined(separator: "/")
        let rest = segments.dropFirst(2)
        if let tooDeep = Self.bodyTooDeep(request, service: service) {
            return .response(withCORS(.json(400, object: [
                "message": "the request body's JSON is too deep at byte \(tooDeep.offset): arrays and objects nest more than "
                    + "\(tooDeep.limit) levels; send at most \(tooDeep.limit) levels",
            ])))
        }
        // REST tells its reads from its writes statement by statement; elsewhere anything
        // but a read may write as its caller.
        if ![.get, .head].contains(request.method), service != "rest/v1", context.reads != nil {
            context.noteWrite(by: (try? context.credentials.caller(of: request, now: context.clock()))?.userID)
        }
        let response: HTTPResponse
        switch service {
        case "auth/v1":
            response = await auth.respond(to: request, path: rest)
        case "rest/v1":
            response = await self.rest.respond(to: request, path: rest)
        case "storage/v1":
            response = await storage.respond(to: request, path: rest)
        case "functions/v1":
            response = await functions.respond(to: request, path: rest)
        case "realtime/v1":
            if rest.first == "websocket" { return realtime.upgrade(request) }
            response = await realtime.respond(to: request, path: rest)
        case "health", "":
            response = .json(200, object: ["status": "ok", "service": "summit"])
        default:
            response = .json(404, object: [
                "message": "no such endpoint: Summit serves /auth/v1, /rest/v1, /storage/v1, /functions/v1, /realtime/v1 and /admin",
            ])
        }
        return .response(withCORS(response))
    }

    /// Every service reads its JSON bodies through `JSONText.parse`, which would only
    /// call one this deep "not JSON"; here it is refused by name, for all of them.
    /// Storage uploads carry files, so their bodies count only when sent as JSON.
    private static func bodyTooDeep(_ request: HTTPRequest, service: String) -> JSONTooDeep? {
        guard !request.body.isEmpty else { return nil }
        if service == "storage/v1", request.headers["content-type"]?.lowercased().contains("json") != true { return nil }
        do {
            try JSONDepth.check(request.body)
            return nil
        } catch {
            return error
        }
    }

    private func withCORS(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        for (name, value) in Self.corsHeaders where response.headers[name] == nil {
            response.headers.add(name, value)
        }
        return response
    }
}
