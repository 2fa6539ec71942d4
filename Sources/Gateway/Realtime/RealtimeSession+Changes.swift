import Foundation
import Postgres

/// postgres_changes on a session: which bindings a join may have, and delivering
/// each row change, read as the channel's caller, to the bindings it satisfies.
extension RealtimeSession {
    /// The bindings of a join's `postgres_changes`, and, when a table among them sends
    /// no changes, what to say about it. The platform answers such a join ok and then
    /// a `system` message with status error (so clients learn at once, not by
    /// timeout), subscribing none of the channel's bindings; so does Summit. A binding
    /// that cannot be read at all (a bad event or filter) refuses the join.
    func changeBindings(_ requested: [[String: Any]], app: AppFace?) async throws(RealtimeProblem) -> (bindings: [ChangeBinding], unpublished: String?) {
        var bindings: [ChangeBinding] = []
        var unpublished: [ChangeBinding] = []
        do {
            for (index, object) in requested.enumerated() {
                let binding = try ChangeBinding.parse(object, id: Int.random(in: 1...Int(Int32.max)) &+ index, app: app)
                if try await service.catalog.published(schema: binding.source, table: binding.table) == nil { unpublished.append(binding) }
                bindings.append(binding)
            }
        } catch let problem as BindingProblem {
            throw RealtimeProblem(problem.message)
        } catch {
            throw RealtimeProblem("could not check the tables: the database is not reachable; retry")
        }
        guard !unpublished.isEmpty else { return (bindings, nil) }
        let published = (try? await service.catalog.publishedTables()) ?? []
        let names = unpublished.map { "\($0.schema).\($0.table)" }.joined(separator: ", ")
        let message = "Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ["
            + unpublished.map(\.parameters).joined(separator: "; ") + "]: " + names + " send no changes; Summit sends those of "
            + (published.isEmpty ? "no table yet" : published.joined(separator: " and "))
            + " (tables with the realtime_changes trigger, private.realtime_change)"
        return (bindings, message)
    }

    /// A join flag as the platform reads it: true or "true".
    static func flag(_ value: Any?) -> Bool {
        if let text = value as? String { return text.lowercased() == "true" }
        return (value as? NSNumber).map { String(cString: $0.objCType) == "c" && $0.boolValue } ?? false
    }

    /// A row changed: for each channel of this session with a binding for it, read the
    /// row as that channel's caller (RLS decides) and send it to the bindings it satisfies.
    func deliver(_ notice: ChangeNotice) async {
        for channel in Array(channels.values) where channel.changesUser == notice.user {
            let matching = channel.bindings.filter { $0.matches(notice) }
            guard !matching.isEmpty,
                  let table = try? await service.catalog.published(schema: notice.schema, table: notice.table) else { continue }
            var ids: [Int] = []
            var record: String?
            if notice.type == "DELETE" {
                ids = matching.map(\.id)
            } else {
                // One read per distinct filter: bindings without a filter share one.
                var byFilter: [String: [ChangeBinding]] = [:]
                for binding in matching { byFilter[binding.filterText ?? "", default: []].append(binding) }
                for group in byFilter.values {
                    guard let row = await read(notice, filter: group[0].filter, as: channel.caller) else { continue }
                    record = row
                    ids += group.map(\.id)
                }
            }
            guard !ids.isEmpty, channels[channel.topic] === channel else { continue }
            // The schema as the client's binding names it (an app's `public` for its face).
            var data = #"{"columns":"# + table.columnsJSON + #","commit_timestamp":"# + JSONText.quote(notice.commitTimestamp)
                + #","errors":null,"schema":"# + JSONText.quote(matching[0].schema) + #","table":"# + JSONText.quote(notice.table)
                + #","type":"# + JSONText.quote(notice.type)
            if let record { data += #","record":"# + record }
            if notice.type != "INSERT" { data += #","old_record":"# + notice.keyJSON }
            data += "}"
            let payload = #"{"data":"# + data + #","ids":["# + ids.map(String.init).joined(separator: ",") + "]}"
            await socket.waitForRoom()
            socket.send(text: PhoenixMessage.encode(topic: channel.topic, event: "postgres_changes", payloadJSON: payload, serializer: serializer))
        }
    }

    /// The changed row as `caller` sees it (nil when RLS hides it or it no longer matches).
    private func read(_ notice: ChangeNotice, filter: TableQuery.Filter?, as caller: RequestCaller) async -> String? {
        var query = TableQuery()
        for (column, value) in notice.key.sorted(by: { $0.key < $1.key }) {
            query.filters.append(TableQuery.Filter(column: column, negated: false, op: .eq, value: .text(value)))
        }
        if let filter { query.filters.append(filter) }
        var builder = SQLBuilder()
        let condition = query.whereClause(&builder)
        let target = TableTarget(schema: notice.schema, table: notice.table)
        let statement = builder.query("select to_jsonb(\(TableTarget.alias))::text from \(target.qualified) as \(TableTarget.alias)\(condition)")
        guard let rows = try? await context.query(statement, as: caller), let row = rows.first else { return nil }
        return try? row.decode(String.self, at: 0)
    }
}

