import Foundation

/// The six starter grids, as an app bundles them: the `grids` rows of kind
/// `starter`, in the shape a pull answers, so a shelf can start before any sync.
public enum StarterTemplates {
    /// Fetches them through the protocol (any signed-in person may read them).
    public static func fetch(from server: any GridServer) async throws -> [JSON] {
        var templates: [JSON] = []
        var cursor: (since: Timestamp?, afterID: UUID)?
        repeat {
            let page = try await server.pull("grids", since: cursor?.since, afterID: cursor?.afterID)
            templates += page.rows.filter { $0["kind"].string == "starter" }
            cursor = page.next
        } while cursor != nil
        return templates
    }
}
