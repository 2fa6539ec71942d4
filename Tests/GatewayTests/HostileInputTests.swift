import Foundation
import Gateway
import Testing

/// Hostile input against the whole gateway: broken HTTP, oversized heads and
/// bodies, slowloris, bad WebSocket frames on the realtime socket, forged and
/// expired tokens on every service. Each gets its status; none crashes the server
/// or reaches data (the injection half is in RestTests.sqlInjectionGoesNowhere and
/// the parsers' fuzz target in ParserFuzzTests).
@Suite struct HostileInputTests {
    static func shortTimeouts(_ configuration: inout GatewayConfiguration) {
        configuration.server.limits.headTimeout = .milliseconds(700)
        configuration.server.limits.bodyTimeout = .milliseconds(900)
    }

    @Test func brokenHTTPGetsItsStatusAndTheServerCarriesOn() async throws {
        try await withGateway(configure: Self.shortTimeouts) { gateway in
            let cases: [(String, Int)] = [
                ("GET /rest/v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                ("GET /rest/v1/x HTTP/1.1\nHost: a\n\n", 400),
                ("POST /rest/v1/rpc/f HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\n\r\n", 413),
                ("GET /" + String(repeating: "x", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                ("GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-A: b\r\n", count: 100) + "\r\n", 431),
                ("GET / HTTP/1.1\r\nHost: a\r\nCookie: " + String(repeating: "c", count: 17000) + "\r\n\r\n", 431),
                ("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n", 400),
                ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 501),
            ]
            for (request, status) in cases {
                let client = try RawClient(port: gateway.port)
                await client.send(request)
                let response = try await client.readResponse()
                #expect(response.status == status, "\(request.prefix(60).debugDescription)")
            }
            // A body over the JSON limit, sent for real.
            let big = try await gateway.http("POST", "/rest/v1/rpc/my_profile", headers: ["Content-Type": "application/json"],
                                             body: Array(repeating: UInt8(ascii: " "), count: (1 << 20) + 10))
            #expect(big.status == 413)
            // Slowloris: a head that never ends is cut off at the head timeout.
            let slow = try RawClient(port: gateway.port)
            await slow.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Slow: ")
            for _ in 0..<8 {
                guard await slow.send("z") else { break }
                try await Task.sleep(for: .milliseconds(150))
            }
            #expect(try await slow.readResponse().status == 408)
            // A body that never finishes, likewise.
            let stalled = try RawClient(port: gateway.port)
            await stalled.send("POST /rest/v1/rpc/f HTTP/1.1\r\nHost: a\r\nContent-Length: 50\r\n\r\n{\"a\":")
            #expect(try await stalled.readResponse().status == 408)
            // Still serving.
            #expect(try await gateway.http("GET", "/health").status == 200)
            let statistics = await gateway.gateway.server.statistics
            #expect(statistics.rejected >= cases.count)
            #expect(statistics.timedOut >= 2)
        }
    }

    @Test func badFramesOnTheRealtimeSocketCloseIt() async throws {
        try await withGateway { gateway in
            let path = "/realtime/v1/websocket?apikey=\(gateway.anonKey)&vsn=1.0.0"
            let unmasked = try RawClient(port: gateway.port)
            #expect(try await unmasked.upgrade(path).status == 101)
            await unmasked.send([0x81, 0x05] + Array("hello".utf8))
            #expect(try await unmasked.readFrame().payload.prefix(2) == [0x03, 0xEA])

            let garbage = try RawClient(port: gateway.port)
            _ = try await garbage.upgrade(path)
            await garbage.sendText("this is not a phoenix message")
            #expect(try await garbage.readFrame().payload.prefix(2) == [0x03, 0xEB], "1003: not Phoenix JSON")

            let huge = try RawClient(port: gateway.port)
            _ = try await huge.upgrade(path)
            await huge.send([0x81, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3, 4])
            #expect(try await huge.readFrame().payload.prefix(2) == [0x03, 0xF1], "1009: larger than a message may be")

            let fragmentedPing = try RawClient(port: gateway.port)
            _ = try await fragmentedPing.upgrade(path)
            await fragmentedPing.send(WebSocketFrame(fin: false, opcode: .ping, payload: [1]).encodedMasked(key: [9, 9, 9, 9]))
            #expect(try await fragmentedPing.readFrame().payload.prefix(2) == [0x03, 0xEA])

            // The server still upgrades and answers others.
            let fine = try await PhoenixClient(port: gateway.port, apikey: gateway.anonKey)
            let ref = await fine.push("phoenix", "heartbeat")
            _ = try await fine.next { $0["ref"] as? String == ref }
        }
    }

    /// JSON nested 100,000 deep is refused by depth on every service and on the
    /// realtime socket, saying so; a file of brackets is still only a file.
    @Test func jsonNestedPastTheLimitIsRefusedByDepth() async throws {
        try await withGateway { gateway in
            let deep = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
            let ann = try await gateway.signUp("ann")
            for path in ["/rest/v1/rpc/my_profile", "/rest/v1/profiles", "/auth/v1/signup", "/auth/v1/token?grant_type=password",
                         "/storage/v1/object/list/avatars"] {
                let refused = try await gateway.http("POST", path, token: ann.accessToken,
                                                     headers: ["Content-Type": "application/json"], body: deep)
                #expect(refused.status == 400, "\(path)")
                let message = (refused.json as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("too deep at byte 512") && message.contains("send at most 512 levels"), "\(path): \(refused.text)")
            }
            let name = "\(ann.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp"
            let upload = try await gateway.http("POST", "/storage/v1/object/avatars/\(name)", token: ann.accessToken,
                                                headers: ["Content-Type": "image/webp"], body: deep)
            #expect(upload.status == 200, "\(upload.text)")
            #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(name)", token: ann.accessToken).body == deep)

            let socket = try RawClient(port: gateway.port)
            _ = try await socket.upgrade("/realtime/v1/websocket?apikey=\(gateway.anonKey)&vsn=1.0.0")
            await socket.sendText(String(decoding: deep, as: UTF8.self))
            let close = try await socket.readFrame()
            #expect(close.payload.prefix(2) == [0x03, 0xEB], "1003")
            #expect(String(decoding: close.payload.dropFirst(2), as: UTF8.self)
                == "the message nests JSON more than 512 levels deep; send at most 512")

            // A body within the limit is read as before: 2 objects and 500 arrays.
            let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
            let signUp = try await gateway.http("POST", "/auth/v1/signup", headers: ["Content-Type": "application/json"], body: Array(
                #"{"email":"bob@example.test","password":"correct horse","data":{"username":"bob","nested":\#(nested)}}"#.utf8))
            #expect(signUp.status == 200, "\(signUp.text)")
        }
    }

    /// A NUL or a name over 63 bytes in any identifier position is refused as PostgREST's
    /// PGRST100 before any SQL is built: a NUL would cut libpq's text short (42601) and a
    /// long name would be truncated by PostgreSQL into another one.
    @Test func badIdentifiersAreRefusedBeforeSQL() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            for bad in ["a%00b", String(repeating: "n", count: 64), String(repeating: "%C3%A9", count: 32)] {
                let paths: [(String, String)] = [
                    ("GET", "/rest/v1/\(bad)"),
                    ("GET", "/rest/v1/profiles?\(bad)=eq.1"),
                    ("GET", "/rest/v1/profiles?select=\(bad)"),
                    ("GET", "/rest/v1/profiles?select=\(bad):id"),
                    ("GET", "/rest/v1/profiles?select=id,\(bad)(*)"),
                    ("GET", "/rest/v1/profiles?select=id,friendships!\(bad)(*)"),
                    ("GET", "/rest/v1/profiles?select=id,friendships(\(bad))"),
                    ("GET", "/rest/v1/profiles?select=id,friendships(*)&friendships.\(bad)=eq.1"),
                    ("GET", "/rest/v1/profiles?\(bad).order=id"),
                    ("GET", "/rest/v1/profiles?order=\(bad)"),
                    ("GET", "/rest/v1/profiles?order=\(bad)(id)"),
                    ("GET", "/rest/v1/profiles?or=(\(bad).eq.1,id.eq.2)"),
                    ("GET", "/rest/v1/profiles?body=fts(\(bad)).x"),
                    ("POST", "/rest/v1/rpc/\(bad)"),
                    ("GET", "/rest/v1/rpc/\(bad)"),
                    ("POST", "/rest/v1/profiles?columns=\(bad)"),
                    ("POST", "/rest/v1/profiles?on_conflict=\(bad)"),
                ]
                for (method, path) in paths {
                    let response = try await gateway.http(method, path, token: ann.accessToken, headers: ["Accept-Profile": "social", "Content-Profile": "social",
                                                                                                       "Content-Type": "application/json"],
                                                          body: method == "POST" ? Array("{\"id\":1}".utf8) : [])
                    let error = response.json as? [String: Any]
                    #expect(response.status == 400 && error?["code"] as? String == "PGRST100", "\(method) \(path): \(response.status) \(response.text)")
                    #expect((error?["message"] as? String)?.contains("is not a name") == true, "\(path): \(response.text)")
                }
                // In JSON bodies: a column to insert or set, an argument's name.
                let key = bad.removingPercentEncoding ?? bad
                let insert = try await gateway.http("POST", "/rest/v1/profiles", token: ann.accessToken, headers: ["Content-Profile": "social"],
                                                    json: [key: 1])
                #expect(insert.status == 400 && (insert.json as? [String: Any])?["code"] as? String == "PGRST100", "\(insert.text)")
                let patch = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: ann.accessToken,
                                                   headers: ["Content-Profile": "social"], json: [key: 1])
                #expect(patch.status == 400 && (patch.json as? [String: Any])?["code"] as? String == "PGRST100", "\(patch.text)")
                let rpc = try await gateway.rpc("social", "my_profile", as: ann, [key: 1])
                #expect(rpc.status == 400 && (rpc.json as? [String: Any])?["code"] as? String == "PGRST100", "\(rpc.text)")
            }
            #expect(try await gateway.http("GET", "/health").status == 200)
        }
    }

    @Test func forgedAndExpiredTokensAreRefusedEverywhere() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let claims = try #require(String(ann.accessToken.split(separator: ".")[1]).base64URLDecodedJSON())
            let forged = JWT.sign(claims: claims, secret: Array("an attacker's guess at the secret!".utf8))
            var service = claims
            service["role"] = "service_role"
            let escalated = JWT.sign(claims: service, secret: Array("an attacker's guess at the secret!".utf8))
            let none = "eyJhbGciOiJub25lIn0." + ann.accessToken.split(separator: ".")[1] + "."
            for token in [forged, escalated, none, "not.a.jwt", String(repeating: "a", count: 9000)] {
                let rest = try await gateway.http("GET", "/rest/v1/profiles", token: token, headers: ["Accept-Profile": "social"])
                #expect(rest.status == 401)
                #expect((rest.json as? [String: Any])?["code"] as? String == "PGRST301")
                #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(ann.id.uuidString.lowercased())/x.webp", token: token).status == 403)
                #expect(try await gateway.http("GET", "/auth/v1/user", token: token).status == 403)
            }
            // The service role key is not a user's token, and an API key nobody issued is refused.
            #expect(try await gateway.http("GET", "/rest/v1/profiles", apikey: escalated, headers: ["Accept-Profile": "social"]).status == 401)
            gateway.clock.advance(3601)
            let expired = try await gateway.http("GET", "/rest/v1/profiles", token: ann.accessToken, headers: ["Accept-Profile": "social"])
            #expect(expired.status == 401)
            #expect((expired.json as? [String: Any])?["code"] as? String == "PGRST303")
        }
    }

    /// Every storage verb with every key (anonymous, a user who is not the owner, the
    /// service role): anything but the service role is refused on buckets, nobody
    /// reaches a file the policies hide, and no answer is 200 unless it did its work.
    @Test func noStorageVerbAnswersOKForWhatItDidNotDo() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let file = ann.freshObjectName()
            let picture = StorageTests.picture
            #expect(try await gateway.store(file, as: ann).status == 200)
            func state() async throws -> String {
                try await gateway.sql { try await $0.query("""
                    select (select string_agg(id || ':' || public || ':' || coalesce(file_size_limit, 0), ',' order by id) from storage.buckets)
                      || ' ' || (select string_agg(bucket_id || '/' || name || ':' || md5(content), ',' order by name) from storage.objects)
                    """).scalar(String.self) }
            }
            let before = try await state()
            let other = bob.freshObjectName()
            let transfer: [String: Any] = ["bucketId": "avatars", "sourceKey": file, "destinationKey": other]
            let requests: [(String, String, Any?)] = [
                ("GET", "/bucket", nil), ("GET", "/bucket/avatars", nil), ("POST", "/bucket", ["name": "evil", "public": true]),
                ("PUT", "/bucket/avatars", ["public": true, "file_size_limit": 1]), ("POST", "/bucket/avatars/empty", [String: Any]()),
                ("DELETE", "/bucket/avatars", [String: Any]()),
                ("GET", "/object/avatars/\(file)", nil), ("GET", "/object/authenticated/avatars/\(file)", nil),
                ("HEAD", "/object/avatars/\(file)", nil), ("GET", "/object/info/avatars/\(file)", nil),
                ("POST", "/object/sign/avatars/\(file)", ["expiresIn": 60]), ("PUT", "/object/avatars/\(file)", nil),
                ("DELETE", "/object/avatars/\(file)", nil), ("POST", "/object/move", transfer), ("POST", "/object/copy", transfer),
                ("POST", "/object/avatars/\(file)", nil),
            ]
            for (who, token) in [("anonymous", nil), ("bob", bob.accessToken)] as [(String, String?)] {
                for (method, path, json) in requests {
                    let response = json.map { json in { try await gateway.http(method, "/storage/v1" + path, token: token, json: json) } }
                        ?? { try await gateway.http(method, "/storage/v1" + path, token: token, headers: ["Content-Type": "image/webp"],
                                                    body: method == "PUT" || method == "POST" ? Array("overwrite".utf8) : []) }
                    let answer = try await response()
                    #expect([403, 404].contains(answer.status), "\(who) \(method) \(path): \(answer.status) \(answer.text)")
                    if method != "HEAD" {
                        let body = answer.json as? [String: Any]
                        #expect(body?["statusCode"] as? String == String(answer.status) && body?["message"] is String,
                                "\(who) \(method) \(path): the platform's error shape, not \(answer.text)")
                    }
                }
                // What answers 200 for them answers with nothing of ann's.
                let listed = try await gateway.http("POST", "/storage/v1/object/list/avatars", token: token,
                                                    json: ["prefix": ann.id.uuidString.lowercased()])
                #expect(listed.status == 200 && listed.text == "[]", "\(who): \(listed.text)")
                let removed = try await gateway.http("DELETE", "/storage/v1/object/avatars", token: token, json: ["prefixes": [file]])
                #expect(removed.status == 200 && removed.text == "[]", "\(who): \(removed.text)")
                let signed = try await gateway.http("POST", "/storage/v1/object/sign/avatars", token: token, json: ["expiresIn": 60, "paths": [file]])
                #expect((signed.json as? [[String: Any]])?.first?["signedURL"] is NSNull, "\(who): \(signed.text)")
                let after = try await state()
                #expect(after == before, "\(who) changed nothing")
            }
            // The service role: the same verbs do what they say.
            #expect(try await gateway.http("GET", "/storage/v1/bucket/avatars", apikey: gateway.serviceKey).status == 200)
            #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(file)", apikey: gateway.serviceKey).body == picture)
            #expect(try await gateway.http("POST", "/storage/v1/bucket", apikey: gateway.serviceKey, json: ["name": "scratch"]).status == 200)
            #expect(try await gateway.sql { try await $0.query("select count(*) from storage.buckets where id = 'scratch'").scalar(Int.self) } == 1)
            #expect(try await gateway.http("DELETE", "/storage/v1/bucket/scratch", apikey: gateway.serviceKey, json: [String: Any]()).status == 200)
            #expect(try await gateway.http("DELETE", "/storage/v1/object/avatars/\(file)", apikey: gateway.serviceKey).status == 200)
            #expect(try await gateway.sql { try await $0.query("select count(*) from storage.objects").scalar(Int.self) } == 0)
        }
    }

    /// Path traversal and NUL in bucket and object names, on every route that takes
    /// one (path, list prefix, move and copy keys, removal prefixes): 400 before
    /// anything is read or written.
    @Test func traversalAndNULInStorageNamesAreRefused() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let folder = ann.id.uuidString.lowercased()
            let names = ["\(folder)/../x.webp", "\(folder)/./x.webp", "..", "%2e%2e/\(folder)/x.webp", "\(folder)//x.webp",
                         "\(folder)/x%00.webp", "\(folder)/%00", "\(folder)/..%2Fx.webp", "\(folder)/x%0A.webp"]
            let buckets = ["..", "avatars%00", ".", "AVATARS", "ava%20tars", "%2e%2e"]
            var paths: [(String, String)] = []
            for name in names {
                for (method, prefix) in [("POST", "/object/avatars/"), ("PUT", "/object/avatars/"), ("GET", "/object/avatars/"),
                                         ("DELETE", "/object/avatars/"), ("GET", "/object/info/avatars/"), ("POST", "/object/sign/avatars/"),
                                         ("GET", "/object/sign/avatars/"), ("GET", "/object/public/avatars/")] {
                    paths.append((method, prefix + name))
                }
            }
            for bucket in buckets {
                paths += [("POST", "/object/\(bucket)/\(folder)/x.webp"), ("GET", "/object/\(bucket)/\(folder)/x.webp"),
                          ("POST", "/object/list/\(bucket)"), ("GET", "/bucket/\(bucket)"), ("DELETE", "/object/\(bucket)")]
            }
            for (method, path) in paths {
                let response = try await gateway.http(method, "/storage/v1" + path + (path.contains("/sign/") && method == "GET" ? "?token=x" : ""),
                                                      token: ann.accessToken, headers: ["Content-Type": "application/json"],
                                                      body: Array(#"{"expiresIn": 60, "prefixes": ["a"], "prefix": ""}"#.utf8))
                #expect(response.status == 400, "\(method) \(path): \(response.status) \(response.text)")
            }
            let decoded = names.map { $0.removingPercentEncoding ?? $0 }
            for name in decoded {
                for body in [["prefix": name], ["bucketId": "avatars", "sourceKey": "\(folder)/a.webp", "destinationKey": name],
                             ["bucketId": "avatars", "sourceKey": name, "destinationKey": "\(folder)/a.webp"], ["prefixes": [name]]] as [[String: Any]] {
                    let route = body["prefix"] != nil ? "/object/list/avatars" : body["prefixes"] != nil ? "/object/avatars" : "/object/move"
                    let response = try await gateway.http(route == "/object/avatars" ? "DELETE" : "POST", "/storage/v1" + route,
                                                          token: ann.accessToken, json: body)
                    #expect(response.status == 400, "\(route) \(body): \(response.status) \(response.text)")
                }
            }
            #expect(try await gateway.sql { try await $0.query("select count(*) from storage.objects").scalar(Int.self) } == 0)
            #expect(try await gateway.http("GET", "/health").status == 200)
        }
    }
}

