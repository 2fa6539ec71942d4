/// The fields of a form the admin site sent (`application/x-www-form-urlencoded`).
struct AdminForm: Sendable {
    let fields: [(name: String, value: String)]

    /// Nil when the body is not a URL-encoded form.
    init?(_ request: HTTPRequest) {
        let type = request.headers["content-type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded"),
              let fields = URLQuery.parse(Substring(String(decoding: request.body, as: UTF8.self))) else { return nil }
        self.fields = fields
    }

    /// The first value of `name`, nil when absent.
    subscript(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// `name` trimmed, nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}
