import Foundation

/// One postgres_changes binding of a channel: which table, which events, which rows.
struct ChangeBinding: Sendable {
    /// Assigned by the server; change messages name the bindings they satisfy.
    var id: Int
    /// `*`, `INSERT`, `UPDATE` or `DELETE`, echoed as sent.
    var event: String
    /// The schema as the client named it, echoed in replies and changes.
    var schema: String
    var table: String
    /// The schema the changes come from: the app's face where an app's key names `public`.
    var source: String
    /// The filter as sent (`column=op.value`), echoed in the join reply.
    var filterText: String?
    var filter: TableQuery.Filter?

    /// Reads one binding from a join's config; nil with the reason when it cannot be served.
    /// `app`: the socket's key is an app's, whose client means its face by `public`.
    static func parse(_ object: [String: Any], id: Int, app: AppFace? = nil) throws(BindingProblem) -> ChangeBinding {
        let event = (object["event"] as? String) ?? "*"
        guard ["*", "INSERT", "UPDATE", "DELETE"].contains(event) else {
            throw BindingProblem("event must be *, INSERT, UPDATE or DELETE, not \(event)")
        }
        let schema = (object["schema"] as? String) ?? "public"
        guard let table = object["table"] as? String, !table.isEmpty, table != "*" else {
            throw BindingProblem("name the table: Summit sends changes of one table per binding")
        }
        var binding = ChangeBinding(id: id, event: event, schema: schema, table: table,
                                    source: schema == "public" ? app?.schema ?? schema : schema)
        if let text = object["filter"] as? String, !text.isEmpty {
            binding.filterText = text
            guard let equals = text.firstIndex(of: "=") else {
                throw BindingProblem("filter must look like column=eq.value, not \(text)")
            }
            do {
                binding.filter = try TableQuery.parseFilter(column: String(text[..<equals]), String(text[text.index(after: equals)...]),
                                                            lenient: false)
            } catch {
                throw BindingProblem("filter \(text) cannot be read: column=op.value with op one of eq, neq, lt, lte, gt, gte, in, is, like, ilike")
            }
        }
        return binding
    }

    func matches(_ notice: ChangeNotice) -> Bool {
        source == notice.schema && table == notice.table && (event == "*" || event == notice.type)
    }

    /// The binding as the platform names it when it cannot subscribe it.
    var parameters: String {
        "event: \(event), schema: \(schema), table: \(table), filters: [\(filterText ?? "")]"
    }

    /// The binding as the join reply states it.
    var replyJSON: String {
        var object: [String: Any] = ["id": id, "event": event, "schema": schema, "table": table]
        if let filterText { object["filter"] = filterText }
        return JSONText.serialize(object)
    }
}

struct BindingProblem: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
