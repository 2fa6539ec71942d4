import Digest
import Foundation
import Postgres

/// `summit resort pack add RESORT FILE`: a resort's 3D pack (USDZ), stored in the
/// private resort-packs bucket at `<resort>/<sha256>.usdz`; the newest one is what
/// `get-resort-3d-pack` hands the apps.
extension ResortCommand {
    static let packCommand = Command(
        name: "pack",
        summary: "A resort's 3D packs (USDZ): add one; the newest is what get-resort-3d-pack serves.",
        subcommands: [packAdd])

    struct PackAdded: Codable, Sendable {
        var resort_id: String
        var sha256: String
        var byte_count: Int
        var storage_name: String
        var status: String
    }

    static let packAdd = Command(
        name: "add",
        summary: "Store FILE (a USDZ pack) as RESORT's newest 3D pack; the same file again changes nothing.",
        arguments: [resortArgument, Command.Argument(name: "FILE", help: "the .usdz file")],
        options: [.flag("--json", "print what was stored as JSON")],
        run: { invocation in
            let resort = invocation.arguments[0], path = invocation.arguments[1]
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
                throw CLIError("cannot read \(path), or it is empty", fix: "give the path of a .usdz file")
            }
            // USDZ is an uncompressed zip archive: it starts with a local file header.
            guard data.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
                throw CLIError("\(path) is not a USDZ pack (not a zip archive)", fix: "export the pack as .usdz")
            }
            let sha = SHA256.hex(Array(data))
            let name = "\(resort)/\(sha).usdz"
            let stored = try await AppSession.with(try invocation.workspace()) { session in
                try await session.connection.acting(as: .serviceRole) { db in
                    guard try await db.query("select exists (select 1 from mountain.resorts where id = \(resort))").scalar(Bool.self) else {
                        throw CLIError("there is no resort \"\(resort)\"", fix: "see the catalog: summit resort list")
                    }
                    let added = try await db.query("""
                        insert into mountain.resort_3d_packs (resort_id, sha256, byte_count, storage_name)
                        values (\(resort), \(sha), \(data.count), \(name)) on conflict do nothing
                        """).rowsAffected == 1
                    if added {
                        try await db.query("""
                            insert into storage.objects (bucket_id, name, content, metadata)
                            values ('resort-packs', \(name), \(data), jsonb_build_object('mimetype', 'model/vnd.usdz+zip', 'size', \(data.count)::bigint))
                            on conflict (bucket_id, name) do nothing
                            """)
                    }
                    return PackAdded(resort_id: resort, sha256: sha, byte_count: data.count, storage_name: name,
                                     status: added ? "added" : "unchanged")
                }
            }
            if invocation.json {
                try invocation.console.json(stored)
            } else {
                invocation.console.out("\(resort): pack \(sha.prefix(12))… (\(stored.byte_count) bytes) \(stored.status == "added" ? "added" : "was already stored")")
            }
            return 0
        })
}
