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
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let carl = try await gateway.signUp("carl")
            try await gateway.befriend(ann, bob)
            let name = "\(ann.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp"
            let upload = try await gateway.http("POST", "/storage/v1/object/avatars/\(name)", token: ann.accessToken,
                                                headers: ["Content-Type": "image/webp"], body: Self.picture)
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
            let mine = "\(ann.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp"
            let theirs = "\(bob.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp"
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
            #expect(try await upload("photos", "\(ann.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp", nil).status == 403)
            let png = try await upload("photos", "\(ann.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp", ann, type: "image/png")
            #expect(png.status == 415)
            let large = try await upload("avatars", "\(ann.id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp", ann,
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
}
