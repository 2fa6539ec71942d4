import Foundation
import Postgres

/// Signed download URLs: `POST /object/sign/{bucket}/{path}` (one) and
/// `POST /object/sign/{bucket}` with `paths` (many), for objects the caller can
/// read; `GET /object/sign/{bucket}/{path}?token=` serves them without an API key,
/// to whoever holds the URL, while the signer could still read the object.
extension StorageService {
    var signedURLs: SignedURLToken { SignedURLToken(secret: context.credentials.secret) }

    func signOne(_ request: HTTPRequest, bucket: String, name: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let body = try jsonObject(request, #"{"expiresIn": seconds}"#)
        let expiresIn = try Self.expiresIn(body)
        if body["transform"] != nil && !(body["transform"] is NSNull) {
            throw StorageError.invalid("Summit does not transform images: sign the URL without transform")
        }
        guard try await readable(bucket: bucket, names: [name], caller: caller).contains(name) else { throw StorageError.notFound }
        let token = signedURLs.sign(bucket: bucket, name: name, expiresIn: expiresIn, signer: caller, now: context.clock())
        return .json(200, object: ["signedURL": "/object/sign/\(StorageNames.urlPath(bucket: bucket, name: name))?token=\(token)"])
    }

    /// One entry per path, in order: a signed URL, or why not (as the platform says it).
    func signMany(_ request: HTTPRequest, bucket: String, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        let body = try jsonObject(request, #"{"expiresIn": seconds, "paths": [object names]}"#)
        let expiresIn = try Self.expiresIn(body)
        guard let paths = body["paths"] as? [String], (1...1000).contains(paths.count) else {
            throw StorageError.invalid(#"send {"expiresIn": seconds, "paths": [object names]} with 1 to 1000 names"#)
        }
        let valid = paths.filter { (try? StorageNames.checkObject($0)) != nil }
        let readable = try await readable(bucket: bucket, names: valid, caller: caller)
        let now = context.clock()
        let entries: [[String: Any]] = paths.map { path in
            guard readable.contains(path) else {
                return ["path": path, "signedURL": NSNull(),
                        "error": "Either the object does not exist or you do not have access to it"]
            }
            let token = signedURLs.sign(bucket: bucket, name: path, expiresIn: expiresIn, signer: caller, now: now)
            return ["path": path, "error": NSNull(),
                    "signedURL": "/object/sign/\(StorageNames.urlPath(bucket: bucket, name: path))?token=\(token)"]
        }
        return .json(200, object: entries)
    }

    func signedDownload(_ request: HTTPRequest, bucket: String, name: String) async throws(Refusal) -> HTTPResponse {
        guard let token = request.queryItems?.first(where: { $0.name == "token" })?.value, !token.isEmpty else {
            throw StorageError.invalid("Missing Required Parameter token: use the signedURL exactly as it was given")
        }
        let signer = try signedURLs.verify(token, bucket: bucket, name: name, now: context.clock())
        return try await download(request, bucket: bucket, name: name, reader: .caller(signer))
    }

    /// Which of `names` the caller can read in `bucket`.
    private func readable(bucket: String, names: [String], caller: RequestCaller) async throws(Refusal) -> Set<String> {
        guard !names.isEmpty else { return [] }
        let rows = try await read("""
            select o.name from storage.objects o where o.bucket_id = \(bucket) and o.name = any(\(names))
            """, reader: .caller(caller))
        return rows.map { Set($0.compactMap { try? $0.decode(String.self, at: 0) }) } ?? []
    }

    /// `expiresIn`: whole seconds, 1 to a year (storage3 sends it as text).
    private static func expiresIn(_ body: [String: Any]) throws(Refusal) -> Int {
        guard body["expiresIn"] != nil else {
            throw StorageError.invalid("expiresIn is required: the seconds the URL works, 1 to \(SignedURLToken.maxLifetime)")
        }
        return try integer(body["expiresIn"], "expiresIn (seconds)", default: 0, in: 1...SignedURLToken.maxLifetime)
    }
}
