import Foundation
import Postgres

/// `/storage/v1`: buckets and the files kept in `storage.objects`, every object
/// statement as the caller, so the policies there decide: a photo is readable
/// exactly while its moment is, an avatar while its profile is, and writes go
/// under one's own folder. A read the caller may not make answers 404, as if the
/// file were not there. Buckets are the backend's to manage: the service role only.
///
/// The operations live beside this file, one concept each: objects
/// (StorageObjects), buckets (StorageBuckets), listing and info (StorageListing),
/// signed URLs (StorageSignedURLs), move and copy (StorageMoveCopy).
struct StorageService: Sendable {
    let context: GatewayContext

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        do {
            let route = try StorageRoute.parse(request.method, Array(path))
            guard route.needsCredentials else {
                // A keyless read names no app: an object's own shape says whose bucket it is.
                return try await respondWithoutCredentials(request, route.rebucketed { bucket in
                    switch route {
                    case .download(_, let name, _), .info(_, let name, _): AppFace.publicBucket(bucket, name: name)
                    default: bucket
                    }
                })
            }
            let caller: RequestCaller
            do {
                caller = try context.credentials.caller(of: request, now: context.clock())
            } catch {
                throw StorageError.refusal(error.isExpired ? 400 : 403, error.isExpired ? "InvalidJWT" : "Unauthorized", error.message)
            }
            // An app's key means the app's own buckets where it shares a name with the core.
            return try await respond(request, caller.app.map { app in route.rebucketed(app.bucket) } ?? route, caller: caller)
        } catch {
            return StorageError.answer(for: error)
        }
    }

    private func respond(_ request: HTTPRequest, _ route: StorageRoute, caller: RequestCaller) async throws(Refusal) -> HTTPResponse {
        switch route {
        case .listBuckets: return try await listBuckets(caller)
        case .createBucket: return try await createBucket(request, caller)
        case .getBucket(let id): return try await getBucket(id, caller)
        case .updateBucket(let id): return try await updateBucket(id, request, caller)
        case .deleteBucket(let id): return try await deleteBucket(id, caller)
        case .emptyBucket(let id): return try await emptyBucket(id, caller)
        case .listObjects(let bucket): return try await listObjects(request, bucket: bucket, caller: caller)
        case .info(let bucket, let name, _): return try await info(bucket: bucket, name: name, reader: .caller(caller))
        case .signOne(let bucket, let name): return try await signOne(request, bucket: bucket, name: name, caller: caller)
        case .signMany(let bucket): return try await signMany(request, bucket: bucket, caller: caller)
        case .move: return try await move(request, caller: caller)
        case .copy: return try await copy(request, caller: caller)
        case .upload(let bucket, let name, let replacing):
            return try await upload(request, bucket: bucket, name: name, caller: caller, replacing: replacing)
        case .download(let bucket, let name, _):
            return try await download(request, bucket: bucket, name: name, reader: .caller(caller))
        case .remove(let bucket, let name): return try await remove(bucket: bucket, name: name, caller: caller)
        case .removeMany(let bucket): return try await removeMany(request, bucket: bucket, caller: caller)
        case .signedDownload: throw StorageError.invalid("a signed URL carries its own token")
        }
    }

    /// Public buckets and signed URLs: the token in the query, or nothing at all.
    private func respondWithoutCredentials(_ request: HTTPRequest, _ route: StorageRoute) async throws(Refusal) -> HTTPResponse {
        switch route {
        case .signedDownload(let bucket, let name):
            return try await signedDownload(request, bucket: bucket, name: name)
        case .download(let bucket, let name, _):
            return try await download(request, bucket: bucket, name: name, reader: .publicBucket)
        case .info(let bucket, let name, _):
            return try await info(bucket: bucket, name: name, reader: .publicBucket)
        default:
            throw StorageError.invalid("this route needs credentials")
        }
    }

    /// A JSON object body, or why not.
    func jsonObject(_ request: HTTPRequest, _ expected: String) throws(Refusal) -> [String: Any] {
        if request.body.isEmpty { return [:] }
        guard let object = JSONText.parse(request.body) as? [String: Any] else {
            throw StorageError.invalid("the body must be a JSON object: \(expected)")
        }
        return object
    }
}

/// Whose eyes a read goes through.
enum StorageReader: Sendable {
    /// The request's caller: row level security decides.
    case caller(RequestCaller)
    /// No caller: only objects of public buckets, read by the service role.
    case publicBucket

    /// What a statement over `storage.objects o` adds for this reader (constant SQL).
    var condition: String {
        switch self {
        case .caller: ""
        case .publicBucket: " and exists (select 1 from storage.buckets b where b.id = o.bucket_id and b.public)"
        }
    }
}

extension CredentialProblem {
    var isExpired: Bool {
        if case .badToken(.expired) = self { return true }
        return false
    }
}
