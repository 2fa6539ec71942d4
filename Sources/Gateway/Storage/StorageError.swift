import Postgres

/// The storage service's error answers, in the platform's body shape
/// (`{"statusCode": "404", "code": "NoSuchKey", "error": "not_found", "message": …}`):
/// storage3 reads `statusCode` and `error` (its `exists()` is false exactly for a
/// 404 `not_found`), storage-js reads `message`. Unlike the platform, which answers
/// most of these with HTTP 400, the HTTP status is the one the body names.
enum StorageError {
    /// A refusal with the body's `code` (the platform's ErrorCode) defaulting to `error`.
    static func refusal(_ status: Int, _ error: String, _ message: String, code: String? = nil) -> Refusal {
        Refusal(.json(status, object: ["statusCode": String(status), "code": code ?? error, "error": error, "message": message]))
    }

    /// A missing object, and one the caller may not see: the same answer, so a denial tells nothing.
    static let notFound = refusal(404, "not_found", "Object not found", code: "NoSuchKey")

    static func bucketNotFound(_ bucket: String) -> Refusal {
        refusal(404, "Bucket not found", "Bucket not found: \(bucket)", code: "NoSuchBucket")
    }

    static func invalid(_ message: String) -> Refusal {
        refusal(400, "InvalidRequest", message)
    }

    static let duplicate = refusal(409, "Duplicate", "The resource already exists: send x-upsert: true to replace it",
                                   code: "ResourceAlreadyExists")

    /// What a row level security refusal means for a write: Summit's policies take
    /// writes under one's own folder only.
    static let writeRefused = refusal(403, "Unauthorized",
                                      "new row violates row-level security policy: write under your own folder ({your user id}/{uuid}.webp)",
                                      code: "AccessDenied")

    /// Any failure as the answer to send: a refusal as it is, anything else a database failure.
    static func answer(for error: any Error) -> HTTPResponse {
        (error as? Refusal)?.response ?? databaseFailure(error).response
    }

    static func databaseFailure(_ error: any Error) -> Refusal {
        if let error = error as? PostgresError, error.isServerUnavailable {
            return refusal(503, "DatabaseError", "the database is not reachable; retry shortly")
        }
        return refusal(500, "InternalError", "the file could not be stored or read: \(error)")
    }
}
