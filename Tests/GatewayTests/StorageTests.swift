import Foundation
import Gateway
import Postgres
import Testing

/// `/storage/v1/object` under the storage policies: files are seen exactly while
/// what they belong to is, and a denied read looks like a missing file.
@Suite struct StorageTests {
    /// A tiny WebP-typed payload.
    static let picture = Array("RIFF....WEBPVP8 fake picture bytes".utf8) + (0..<300).map { UInt8($0 & 0xFF) }

    @Test func avatarsAreReadableExactlyWhileTheProfileIs() async throws {
        try await withGateway { gateway in
            let (ann, bob, carl) = try await gateway.annBobAndCarl()
            let name = ann.freshObjectName()
            let upload = try await gateway.store(name, as: ann)
            #expect(upload.status == 200, "\(upload.text)")
            #expect((upload.json as? [String: Any])?["Key"] as? String == "avatars/\(name)")
            let patch = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: ann.accessToken,
                                               headers: ["Content-Profile": "social"], json: ["avatar_path": name])
            #expect(patch.status == 204, "\(patch.text)")

            let own = try await gateway.http("GET", "/storage/v1/object/avatars/\(name)", token: ann.accessToken)
            #expect(own.status == 200)
            #expect(own.body == Self.picture)
            #expect(own.headers["content-type"] == "image/webp")
            let friend = try await gateway.http("GET", "/storage/v1/object/authenticated/avatars/\(name)", token: bob.accessToken)
            #expect(friend.status == 200)
            #expect(friend.body == Self.picture)
            let stranger = try await gateway.http("GET", "/storage/v1/object/avatars/\(name)", token: carl.accessToken)
            #expect(stranger.status == 404)
            let anonymous = try await gateway.http("GET", "/storage/v1/object/avatars/\(name)")
            #expect(anonymous.status == 404)
            #expect(anonymous.text == stranger.text, "a denied read looks like a missing file")
            let missing = try await gateway.http("GET", "/storage/v1/object/avatars/\(ann.id.uuidString.lowercased())/nothing.webp", token: ann.accessToken)
            #expect(missing.text == stranger.text)

            // Unfriended: bob loses it at once.
            _ = try await gateway.rpc("social", "remove_friend", as: ann, ["p_user_id": bob.id.uuidString])
            #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(name)", token: bob.accessToken).status == 404)
        }
    }

    @Test func uploadsFollowTheRules() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let mine = ann.freshObjectName()
            let theirs = bob.freshObjectName()
            func upload(_ bucket: String, _ name: String, _ account: GatewayHarness.Account?, type: String = "image/webp",
                        body: [UInt8] = StorageTests.picture, headers: [String: String] = [:]) async throws -> RawResponse {
                try await gateway.http("POST", "/storage/v1/object/\(bucket)/\(name)", token: account?.accessToken,
                                       headers: headers.merging(["Content-Type": type]) { $1 }, body: body)
            }
            // Multipart, as the storage client sends it.
            let boundary = "summit-test-boundary"
            let form = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n3600\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.webp\"\r\nContent-Type: image/webp\r\n\r\n".utf8)
                + Self.picture + Array("\r\n--\(boundary)--\r\n".utf8)
            let multipart = try await upload("photos", mine, ann, type: "multipart/form-data; boundary=\(boundary)", body: form)
            #expect(multipart.status == 200, "\(multipart.text)")
            let back = try await gateway.http("GET", "/storage/v1/object/photos/\(mine)", token: ann.accessToken)
            #expect(back.body == Self.picture)
            #expect(back.headers["cache-control"] == "max-age=3600")

            #expect(try await upload("photos", mine, ann).status == 409)
            let replaced = try await upload("photos", mine, ann, body: Array("new".utf8), headers: ["x-upsert": "true"])
            #expect(replaced.status == 200)
            #expect(try await gateway.http("GET", "/storage/v1/object/photos/\(mine)", token: ann.accessToken).body == Array("new".utf8))

            let intoBobs = try await upload("photos", theirs, ann)
            #expect(intoBobs.status == 403)
            #expect((intoBobs.json as? [String: Any])?["statusCode"] as? String == "403")
            #expect(try await upload("photos", ann.freshObjectName(), nil).status == 403)
            let png = try await upload("photos", ann.freshObjectName(), ann, type: "image/png")
            #expect(png.status == 415)
            let large = try await upload("avatars", ann.freshObjectName(), ann,
                                         body: [UInt8](repeating: 1, count: 2_100_000))
            #expect(large.status == 413)
            #expect(try await upload("nobucket", mine, ann).status == 404)
            #expect(try await upload("photos", "\(ann.id.uuidString.lowercased())/../x.webp", ann).status == 400)

            // bob cannot delete ann's file; ann can; then it is gone.
            #expect(try await gateway.http("DELETE", "/storage/v1/object/photos/\(mine)", token: bob.accessToken).status == 404)
            #expect(try await gateway.http("DELETE", "/storage/v1/object/photos/\(mine)", token: ann.accessToken).status == 200)
            #expect(try await gateway.http("GET", "/storage/v1/object/photos/\(mine)", token: ann.accessToken).status == 404)
            let rows = try await gateway.sql { try await $0.query("select count(*) from storage.objects").scalar(Int.self) }
            #expect(rows == 0, "the refused uploads wrote nothing")
        }
    }

    // MARK: - Buckets

    /// The service role's bucket verbs do what they say, and their answers are the
    /// platform's shapes (storage3 parses a bucket into BaseBucket).
    @Test func bucketsAreManagedByTheServiceRole() async throws {
        try await withGateway { gateway in
            func service(_ method: String, _ path: String, _ json: Any? = nil) async throws -> RawResponse {
                if let json { return try await gateway.http(method, "/storage/v1" + path, apikey: gateway.serviceKey, json: json) }
                return try await gateway.http(method, "/storage/v1" + path, apikey: gateway.serviceKey)
            }
            let created = try await service("POST", "/bucket", ["id": "docs", "name": "docs", "public": false,
                                                                "file_size_limit": "1KB", "allowed_mime_types": ["text/plain"]])
            #expect(created.status == 200, "\(created.text)")
            #expect((created.json as? [String: Any])?["name"] as? String == "docs")
            let bucket = try #require(try await service("GET", "/bucket/docs").json as? [String: Any])
            #expect(bucket["id"] as? String == "docs" && bucket["public"] as? Bool == false && bucket["file_size_limit"] as? Int == 1024)
            #expect(bucket["allowed_mime_types"] as? [String] == ["text/plain"] && bucket["owner"] as? String == "")
            #expect(bucket["created_at"] is String && bucket["updated_at"] is String)
            let all = try #require(try await service("GET", "/bucket").json as? [[String: Any]])
            #expect(all.map { $0["id"] as? String } == ["avatars", "docs", "photos", "powdermeet-avatars", "resort-packs"])

            #expect(try await service("POST", "/bucket", ["name": "docs"]).status == 409)
            #expect(try await service("POST", "/bucket", ["name": "list"]).status == 400, "a route word is no bucket name")
            #expect(try await service("POST", "/bucket", ["name": "Big Docs"]).status == 400)
            #expect(try await service("POST", "/bucket", ["name": "huge", "file_size_limit": "1GB"]).status == 400)
            #expect(try await service("POST", "/bucket", ["name": "odd", "allowed_mime_types": ["not a type"]]).status == 400)
            #expect(try await service("PUT", "/bucket/docs", ["id": "docs", "name": "docs"]).status == 400, "nothing to change")
            #expect(try await service("PUT", "/bucket/nothere", ["public": true]).status == 404)

            let updated = try await service("PUT", "/bucket/docs", ["public": true, "file_size_limit": 2048, "allowed_mime_types": NSNull()])
            #expect((updated.json as? [String: Any])?["message"] as? String == "Successfully updated", "\(updated.text)")
            let after = try #require(try await service("GET", "/bucket/docs").json as? [String: Any])
            #expect(after["public"] as? Bool == true && after["file_size_limit"] as? Int == 2048 && after["allowed_mime_types"] is NSNull)

            // A file in it; then it cannot be deleted until emptied.
            let stored = try await gateway.http("POST", "/storage/v1/object/docs/readme.txt", apikey: gateway.serviceKey,
                                                headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
            #expect(stored.status == 200, "\(stored.text)")
            let full = try await service("DELETE", "/bucket/docs", [String: Any]())
            #expect(full.status == 409 && (full.json as? [String: Any])?["statusCode"] as? String == "409", "\(full.text)")
            let emptied = try await service("POST", "/bucket/docs/empty", [String: Any]())
            #expect((emptied.json as? [String: Any])?["message"] as? String == "Successfully emptied")
            #expect(try await gateway.sql { try await $0.query("select count(*) from storage.objects where bucket_id = 'docs'").scalar(Int.self) } == 0)
            #expect(try await service("DELETE", "/bucket/docs", [String: Any]()).status == 200)
            let gone = try await service("GET", "/bucket/docs")
            #expect(gone.status == 404 && (gone.json as? [String: Any])?["error"] as? String == "Bucket not found")
            #expect(try await service("POST", "/bucket/docs/empty", [String: Any]()).status == 404)
            #expect(try await service("DELETE", "/bucket/docs", [String: Any]()).status == 404)
        }
    }

    // MARK: - Listing and info

    @Test func listingShowsOneFolderLevelOfWhatTheCallerMaySee() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let folder = ann.id.uuidString.lowercased()
            let files = ["a0000000-0000-4000-8000-000000000001.webp", "b0000000-0000-4000-8000-000000000002.webp",
                         "c0000000-0000-4000-8000-000000000003.webp"]
            for file in files {
                #expect(try await gateway.store("\(folder)/\(file)", as: ann).status == 200)
            }
            try await gateway.sql { try await $0.query("""
                insert into storage.objects (bucket_id, name, content) values
                  ('avatars', 'groups/g1/x.webp', 'x'), ('avatars', 'groups/g2/y.webp', 'y')
                """) }
            func list(_ account: GatewayHarness.Account?, _ body: [String: Any], apikey: String? = nil) async throws -> [[String: Any]] {
                let response = try await gateway.http("POST", "/storage/v1/object/list/avatars", token: account?.accessToken,
                                                      apikey: apikey, json: body)
                #expect(response.status == 200, "\(response.text)")
                return response.json as? [[String: Any]] ?? []
            }
            let mine = try await list(ann, ["prefix": folder, "limit": 100, "offset": 0, "sortBy": ["column": "name", "order": "asc"]])
            #expect(mine.map { $0["name"] as? String } == files, "names are relative to the prefix")
            #expect(mine.allSatisfy { $0["id"] is String && ($0["metadata"] as? [String: Any])?["size"] as? Int == Self.picture.count })
            #expect(try await list(ann, ["prefix": folder + "/", "limit": 2, "offset": 1]).map { $0["name"] as? String } == Array(files[1...2]))
            #expect(try await list(ann, ["prefix": folder, "search": "B0"]).map { $0["name"] as? String } == [files[1]], "search ignores case")
            #expect(try await list(ann, ["prefix": folder, "sortBy": ["column": "name", "order": "desc"]]).map { $0["name"] as? String }
                == files.reversed())
            #expect(try await list(ann, ["prefix": folder, "sortBy": ["column": "created_at", "order": "desc"]]).count == 3)
            // The top: ann sees her own folder only; the service role sees every folder, as folders (null id).
            let top = try await list(ann, ["prefix": ""])
            #expect(top.map { $0["name"] as? String } == [folder] && top.first?["id"] is NSNull)
            let everything = try await list(nil, ["prefix": ""], apikey: gateway.serviceKey)
            #expect(everything.map { $0["name"] as? String } == [folder, "groups"])
            #expect(try await list(nil, ["prefix": "groups"], apikey: gateway.serviceKey).map { $0["name"] as? String } == ["g1", "g2"])
            // Others see nothing of it.
            #expect(try await list(bob, ["prefix": folder]).isEmpty)
            #expect(try await list(nil, ["prefix": folder]).isEmpty)
            // Bad input, and a bucket that is not there.
            for bad in [["prefix": "../x"], ["prefix": folder, "limit": 0], ["prefix": folder, "sortBy": ["column": "size"]],
                        ["prefix": 7], ["prefix": folder, "offset": -1]] as [[String: Any]] {
                #expect(try await gateway.http("POST", "/storage/v1/object/list/avatars", token: ann.accessToken, json: bad).status == 400, "\(bad)")
            }
            let v2 = try await gateway.http("POST", "/storage/v1/object/list-v2/avatars", token: ann.accessToken, json: ["prefix": ""])
            #expect(v2.status == 501 && v2.text.contains("POST /object/list/{bucket}"), "not served, and said so: \(v2.text)")
            let missing = try await gateway.http("POST", "/storage/v1/object/list/nobucket", token: ann.accessToken, json: ["prefix": ""])
            #expect(missing.status == 404 && (missing.json as? [String: Any])?["message"] as? String == "Bucket not found: nobucket")
        }
    }

    /// `GET /object/info/…` (what storage3's exists() reads) and HEAD: the facts of
    /// a file the caller may read, the same 404 for one it may not and for none.
    @Test func infoAndHeadTellWhatDownloadsWould() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let carl = try await gateway.signUp("carl")
            let name = ann.freshObjectName()
            #expect(try await gateway.store(name, as: ann).status == 200)
            for path in ["/storage/v1/object/info/avatars/\(name)", "/storage/v1/object/info/authenticated/avatars/\(name)"] {
                let info = try await gateway.http("GET", path, token: ann.accessToken)
                #expect(info.status == 200, "\(path): \(info.text)")
                let object = try #require(info.json as? [String: Any])
                #expect(object["name"] as? String == name && object["bucket_id"] as? String == "avatars")
                #expect(object["size"] as? Int == Self.picture.count && object["content_type"] as? String == "image/webp")
                #expect(object["id"] is String && object["last_modified"] is String && object["created_at"] is String)
                #expect(info.headers["etag"] == object["etag"] as? String && info.headers["etag"]?.hasPrefix("\"") == true)
            }
            let stranger = try await gateway.http("GET", "/storage/v1/object/info/avatars/\(name)", token: carl.accessToken)
            let missing = try await gateway.http("GET", "/storage/v1/object/info/avatars/\(ann.id.uuidString.lowercased())/none.webp",
                                                 token: ann.accessToken)
            #expect(stranger.status == 404 && (stranger.json as? [String: Any])?["error"] as? String == "not_found")
            #expect(stranger.text == missing.text)
            #expect(try await gateway.http("GET", "/storage/v1/object/info/public/avatars/\(name)", apikey: "").status == 404,
                    "avatars is not a public bucket")

            let head = try await gateway.http("HEAD", "/storage/v1/object/avatars/\(name)", token: ann.accessToken)
            #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(Self.picture.count))
            #expect(try await gateway.http("HEAD", "/storage/v1/object/avatars/\(name)", token: carl.accessToken).status == 404)
        }
    }

    // MARK: - Signed URLs

    @Test func signedURLsServeWhatTheSignerMayReadUntilTheyExpire() async throws {
        try await withGateway { gateway in
            let (ann, bob, carl) = try await gateway.annBobAndCarl()
            let name = ann.freshObjectName()
            let other = ann.freshObjectName()
            for file in [name, other] {
                #expect(try await gateway.store(file, as: ann).status == 200)
            }
            _ = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: ann.accessToken,
                                       headers: ["Content-Profile": "social"], json: ["avatar_path": name])
            // expiresIn as storage3 sends it: text.
            let signed = try await gateway.http("POST", "/storage/v1/object/sign/avatars/\(name)", token: bob.accessToken,
                                                json: ["expiresIn": "60"])
            let url = try #require((signed.json as? [String: Any])?["signedURL"] as? String, "\(signed.text)")
            #expect(url.hasPrefix("/object/sign/avatars/\(name)?token="))
            let token = String(url.split(separator: "=", maxSplits: 1)[1])
            let fetched = try await gateway.http("GET", "/storage/v1" + url, apikey: "")
            #expect(fetched.status == 200 && fetched.body == Self.picture, "no API key needed: the token is the credential")
            #expect(try await gateway.http("GET", "/storage/v1" + url + "&download=me.webp", apikey: "")
                .headers["content-disposition"]?.hasPrefix("attachment; filename=\"me.webp\"") == true)

            // Tampered, moved to another object, missing, or presented as an access token: refused.
            // The signature's first character: its last one carries bits base64url leaves unused.
            let signatureStart = token.index(after: try #require(token.lastIndex(of: ".")))
            let tampered = String(token[..<signatureStart]) + (token[signatureStart] == "A" ? "B" : "A")
                + String(token[token.index(after: signatureStart)...])
            let bad = try await gateway.http("GET", "/storage/v1/object/sign/avatars/\(name)?token=\(tampered)", apikey: "")
            #expect(bad.status == 400 && (bad.json as? [String: Any])?["error"] as? String == "InvalidJWT", "\(bad.text)")
            let moved = try await gateway.http("GET", "/storage/v1/object/sign/avatars/\(other)?token=\(token)", apikey: "")
            #expect(moved.status == 400 && (moved.json as? [String: Any])?["error"] as? String == "InvalidSignature")
            #expect(try await gateway.http("GET", "/storage/v1/object/sign/avatars/\(name)", apikey: "").status == 400)
            #expect(try await gateway.http("GET", "/rest/v1/profiles", token: token, headers: ["Accept-Profile": "social"]).status == 401)

            // Only what the caller can read is signed; bad lifetimes are refused.
            #expect(try await gateway.http("POST", "/storage/v1/object/sign/avatars/\(name)", token: carl.accessToken,
                                           json: ["expiresIn": 60]).status == 404)
            for lifetime in [0, -5, 400 * 24 * 3600] as [Any] + ["soon"] {
                #expect(try await gateway.http("POST", "/storage/v1/object/sign/avatars/\(name)", token: ann.accessToken,
                                               json: ["expiresIn": lifetime]).status == 400, "\(lifetime)")
            }
            let many = try await gateway.http("POST", "/storage/v1/object/sign/avatars", token: bob.accessToken,
                                              json: ["expiresIn": 60, "paths": [name, other, "../x"]])
            let entries = try #require(many.json as? [[String: Any]], "\(many.text)")
            #expect(entries.map { $0["path"] as? String } == [name, other, "../x"])
            #expect(entries[0]["signedURL"] is String && entries[0]["error"] is NSNull)
            #expect(entries[1]["signedURL"] is NSNull && entries[2]["signedURL"] is NSNull, "bob sees ann's avatar, not her other file")
            #expect(entries[1]["error"] as? String == "Either the object does not exist or you do not have access to it")

            // Read through the signer's eyes: unfriended, bob's URL stops working.
            _ = try await gateway.rpc("social", "remove_friend", as: ann, ["p_user_id": bob.id.uuidString])
            #expect(try await gateway.http("GET", "/storage/v1" + url, apikey: "").status == 404)
            // And it runs out.
            let annURL = try #require((try await gateway.http("POST", "/storage/v1/object/sign/avatars/\(name)", token: ann.accessToken,
                                                              json: ["expiresIn": 60]).json as? [String: Any])?["signedURL"] as? String)
            #expect(try await gateway.http("GET", "/storage/v1" + annURL, apikey: "").status == 200)
            gateway.clock.advance(61)
            let expired = try await gateway.http("GET", "/storage/v1" + annURL, apikey: "")
            #expect(expired.status == 400 && ((expired.json as? [String: Any])?["message"] as? String)?.hasPrefix("jwt expired") == true)
        }
    }

    // MARK: - Move and copy

    @Test func moveAndCopyStayWithinWhatTheCallerMayReadAndWrite() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            try await gateway.befriend(ann, bob)
            let folder = ann.id.uuidString.lowercased()
            func fresh() -> String { ann.freshObjectName() }
            let first = fresh(), second = fresh(), third = fresh()
            #expect(try await gateway.store(first, as: ann).status == 200)
            func transfer(_ verb: String, _ account: GatewayHarness.Account?, _ from: String, _ to: String,
                          extra: [String: Any] = [:], headers: [String: String] = [:]) async throws -> RawResponse {
                try await gateway.http("POST", "/storage/v1/object/\(verb)", token: account?.accessToken, headers: headers,
                                       json: ["bucketId": "avatars", "sourceKey": from, "destinationKey": to].merging(extra) { $1 })
            }
            func exists(_ name: String, _ bucket: String = "avatars") async throws -> Bool {
                try await gateway.sql { try await $0.query("select count(*) from storage.objects where bucket_id = \(bucket) and name = \(name)")
                    .scalar(Int.self) } == 1
            }
            let move = try await transfer("move", ann, first, second)
            #expect((move.json as? [String: Any])?["message"] as? String == "Successfully moved", "\(move.text)")
            let firstLeft = try await exists(first), secondThere = try await exists(second)
            #expect(!firstLeft && secondThere)
            #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(second)", token: ann.accessToken).body == Self.picture)

            // Into bob's folder, or by bob (who can read it as a friend would, but it is not his): refused, nothing changed.
            let intoBobs = try await transfer("move", ann, second, bob.freshObjectName())
            #expect(intoBobs.status == 403, "\(intoBobs.text)")
            #expect(try await transfer("move", bob, second, fresh()).status == 404, "bob cannot see ann's unpublished file")
            _ = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: ann.accessToken,
                                       headers: ["Content-Profile": "social"], json: ["avatar_path": second])
            let byFriend = try await transfer("move", bob, second, fresh())
            #expect(byFriend.status == 403 && byFriend.text.contains("your own folder"), "bob sees ann's avatar now, but it is not his: \(byFriend.text)")
            #expect(try await transfer("move", nil, second, fresh()).status == 403, "anonymous callers write nothing")
            #expect(try await transfer("move", ann, "\(folder)/none.webp", fresh()).status == 404)
            #expect(try await transfer("move", ann, second, "../\(second)").status == 400)
            #expect(try await exists(second))

            let copy = try await transfer("copy", ann, second, third)
            #expect((copy.json as? [String: Any])?["Key"] as? String == "avatars/\(third)", "\(copy.text)")
            let sourceKept = try await exists(second), copied = try await exists(third)
            #expect(sourceKept && copied)
            #expect(try await gateway.http("GET", "/storage/v1/object/avatars/\(third)", token: ann.accessToken).body == Self.picture)
            #expect(try await transfer("copy", ann, second, third).status == 409)
            #expect(try await transfer("copy", ann, second, third, headers: ["x-upsert": "true"]).status == 200)
            #expect(try await transfer("copy", nil, second, fresh()).status == 403)
            // Into photos as another type: photos takes image/webp only.
            let png = try await transfer("copy", ann, second, fresh(),
                                         extra: ["destinationBucket": "photos", "copyMetadata": false, "metadata": ["mimetype": "image/png"]])
            #expect(png.status == 415, "\(png.text)")
            let photo = fresh()
            #expect(try await transfer("copy", ann, second, photo, extra: ["destinationBucket": "photos"]).status == 200)
            #expect(try await exists(photo, "photos"))

            // A bucket's size limit holds for copies too (the service role may write anywhere).
            #expect(try await gateway.http("POST", "/storage/v1/bucket", apikey: gateway.serviceKey,
                                           json: ["name": "tiny", "file_size_limit": 10]).status == 200)
            let tooBig = try await gateway.http("POST", "/storage/v1/object/copy", apikey: gateway.serviceKey,
                                                json: ["bucketId": "avatars", "sourceKey": second, "destinationKey": "x.webp",
                                                       "destinationBucket": "tiny"])
            #expect(tooBig.status == 413, "\(tooBig.text)")
            #expect(try await gateway.sql { try await $0.query("select count(*) from storage.objects where bucket_id = 'tiny'").scalar(Int.self) } == 0)
        }
    }
}

