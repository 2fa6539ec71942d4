import Foundation

/// What the storage tests do over and over: name a file the way the storage
/// policies take them (`{user id}/{uuid}.webp`) and store one.
extension GatewayHarness.Account {
    /// A new name under this account's own folder.
    func freshObjectName() -> String {
        "\(id.uuidString.lowercased())/\(UUID().uuidString.lowercased()).webp"
    }
}

extension GatewayHarness {
    /// `POST /storage/v1/object/{bucket}/{name}` as `account` (anonymous when nil).
    func store(_ name: String, in bucket: String = "avatars", as account: Account?, body: [UInt8] = StorageTests.picture,
               type: String = "image/webp") async throws -> RawResponse {
        try await http("POST", "/storage/v1/object/\(bucket)/\(name)", token: account?.accessToken,
                       headers: ["Content-Type": type], body: body)
    }

    /// Signs up ann, bob and carl; ann and bob are friends, carl is a stranger to both.
    func annBobAndCarl() async throws -> (ann: Account, bob: Account, carl: Account) {
        let ann = try await signUp("ann"), bob = try await signUp("bob"), carl = try await signUp("carl")
        try await befriend(ann, bob)
        return (ann, bob, carl)
    }
}
