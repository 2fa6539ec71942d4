import Foundation
import Postgres

/// The published resorts, and a page per resort drawing its graph with the review's
/// figures; and the pictures reports point at. All read as the admin.
extension AdminSite {
    func resortListPage(admin: Admin) async throws(Refusal) -> HTTPResponse {
        let resorts = try await resortCall(admin) { try await $0.list(Caller.user(admin.userID)) }
        let rows = resorts.map { resort -> HTMLText in
            """
            <tr><td><a href="/admin/resorts/\(URLQuery.percentEncode(resort.id))">\(resort.name)</a></td>
            <td><code>\(resort.id)</code></td><td>\(resort.snapshotDate)</td><td>\(Self.time(resort.publishedAt))</td>
            <td><code class="clip">\(resort.identity)</code></td></tr>
            """
        }
        let body: HTMLText = resorts.isEmpty
            ? "<p class=\"empty\">No resort is published yet: <code>summit resort publish RESORT</code> (or <code>summit demo</code>).</p>"
            : """
              <table class="log">
              <thead><tr><th>Resort</th><th>Id</th><th>Snapshot</th><th>Published</th><th>Dataset</th></tr></thead>
              <tbody>\(rows)</tbody>
              </table>
              """
        return Self.page(title: "Resorts", admin: admin, section: .resorts, body)
    }

    func resortPage(_ id: String, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let picture = try await drawn(id, admin: admin)
        let facts = picture.facts.map { fact -> HTMLText in "<dt>\(fact.label)</dt><dd>\(fact.value)</dd>" }
        let figures = picture.figures.map { line -> HTMLText in
            line.hasPrefix("  ") ? "<li>\(line.trimmingCharacters(in: .whitespaces))</li>" : "<li class=\"stage\">\(line)</li>"
        }
        let resort = picture.resort
        return Self.page(title: resort.name, admin: admin, section: .resorts, """
            <dl class="facts">
            <dt>Id</dt><dd><code>\(resort.id)</code></dd>
            <dt>Dataset</dt><dd><code>\(resort.identity)</code></dd>
            <dt>Snapshot</dt><dd>\(resort.snapshotDate)</dd>
            <dt>Published</dt><dd>\(Self.time(resort.publishedAt))</dd>
            \(facts)</dl>
            <section class="panel"><h2>Routability</h2><ul class="figures">\(figures)</ul></section>
            <figure class="graph"><img src="/admin/resorts/\(URLQuery.percentEncode(resort.id))/graph.svg" \
            alt="\(resort.name): lifts and runs by difficulty"><figcaption>Lifts and runs by difficulty, as published.</figcaption></figure>
            """)
    }

    func resortGraph(_ id: String, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let picture = try await drawn(id, admin: admin)
        return HTTPResponse(status: 200, headers: ["content-type": "image/svg+xml; charset=utf-8"], body: Array(picture.svg.utf8))
    }

    private func drawn(_ id: String, admin: Admin) async throws(Refusal) -> AdminResortSource.Picture {
        let picture = try await resortCall(admin) { try await $0.draw(id, Caller.user(admin.userID)) }
        guard let picture else {
            throw Refusal(Self.errorPage(404, "No such resort", "\(id) has no published dataset: see the list of resorts.", admin: admin))
        }
        return picture
    }

    private func resortCall<T: Sendable>(_ admin: Admin, _ body: (AdminResortSource) async throws -> T) async throws(Refusal) -> T {
        guard let resorts else {
            throw Refusal(Self.errorPage(404, "No resort pages", "This gateway was started without the resort pipeline: summit serve draws resorts.",
                                         admin: admin))
        }
        do {
            return try await body(resorts)
        } catch let refusal as Refusal {
            throw refusal
        } catch let error as PostgresError where error.isServerUnavailable {
            throw Refusal(Self.errorPage(503, "Resort not drawn", "The database is not reachable: try again in a moment.", admin: admin))
        } catch {
            // Operators read this page: what failed is theirs to see, with where to look next.
            throw Refusal(Self.errorPage(500, "Resort not drawn", "Its published graph could not be read or drawn (\(error)): "
                                         + "check it with summit resort get RESORT, which verifies it as a client does.", admin: admin))
        }
    }

    /// A photo or avatar a report points at, read as the admin: storage's own policy lets
    /// an admin see those of an open report, and nothing else of anyone's.
    func picture(_ request: HTTPRequest, bucket: String, name: String, admin: Admin) async -> HTTPResponse {
        let missing = HTTPResponse(status: 404, headers: ["content-type": "text/plain; charset=utf-8"],
                                   body: Array("no such picture, or its report is closed\n".utf8))
        guard ["photos", "avatars"].contains(bucket) else { return missing }
        guard var response = try? await storage.download(request, bucket: bucket, name: name, reader: .caller(admin.caller)),
              ["image/webp", "image/jpeg", "image/png"].contains(response.headers["content-type"]?.lowercased() ?? "") else {
            return missing
        }
        response.headers.set("cache-control", "private, no-store")
        response.headers.remove("content-disposition")
        return response
    }
}
