import Foundation
import GridSync
import Postgres
import SummitDatabase

/// The phone `summit phone --device NAME` simulates: a GridSync store in
/// `SUMMIT_HOME/phones/NAME/` (its documents folder), kept between commands,
/// signed in as `--as USER`.
enum PhoneSession {
    /// Runs `body` with the device's phone. Commands that can work offline do so
    /// without the server when the phone is already signed in as `--as`; signing
    /// in, syncing and installing the starter grids need the server.
    static func with(
        _ invocation: Invocation, needsServer: Bool = false, requiresUser: Bool = true, signsIn: Bool = true,
        _ body: (SimulatedPhone, PostgresGridServer?) async throws -> Int32
    ) async throws -> Int32 {
        let device = try deviceName(invocation)
        let workspace = try invocation.workspace()
        let phone = try SimulatedPhone(folder: folder(of: device, in: workspace))
        let me = signsIn ? invocation.value("--as") : nil
        if requiresUser && me == nil {
            throw CLIError.usage("\(invocation.commandPath) needs --as USER (who uses the phone)", command: invocation.commandPath)
        }
        do {
            if !needsServer, let me, case .signedIn(let user, let username) = phone.store.account,
               [user.lowercased, username?.lowercased, username.map { "@" + $0.lowercased() }].contains(me.lowercased()) {
                return try await body(phone, nil)
            }
            if !needsServer && me == nil { return try await body(phone, nil) }
            return try await AppSession.with(workspace) { session in
                var server: PostgresGridServer?
                if let me {
                    let person = try await session.person(me)
                    try signIn(phone, as: person, device: device)
                    server = PostgresGridServer(connection: session.connection, user: person.id)
                } else if let user = phone.store.account.user {
                    server = PostgresGridServer(connection: session.connection, user: user)
                }
                if let server, try phone.store.rows(.grids, where: "kind = 'starter'").isEmpty {
                    // What the app bundles: the starter grids, so a shelf starts offline.
                    try phone.store.installTemplates(try await StarterTemplates.fetch(from: server))
                }
                return try await body(phone, server)
            }
        } catch let error as GridStoreError {
            throw CLIError(error.problem, fix: error.fix)
        } catch GridServerError.transport(let message) where !phone.isOnline {
            throw CLIError("phone \(device) is offline (\(message))", fix: "bring it back with `summit phone --device \(device) online --as USER`")
        } catch let error as GridServerError {
            throw CLIError(error.description, fix: "try again; if it persists, check `summit status`")
        }
    }

    private static func signIn(_ phone: SimulatedPhone, as person: AppSession.Person, device: String) throws {
        if let user = phone.store.account.user, user != person.id {
            throw CLIError("phone \(device) is signed in as someone else (\(phone.store.account))",
                           fix: "sign it out first: summit phone --device \(device) sign-out")
        }
        try phone.store.signIn(user: person.id, username: person.username)
    }

    static func deviceName(_ invocation: Invocation) throws -> String {
        let device = try invocation.required("--device")
        guard device.range(of: "^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$", options: .regularExpression) != nil else {
            throw CLIError.usage("--device \"\(device)\" is not a device name: use 1 to 40 letters, digits, - or _",
                                 command: invocation.commandPath)
        }
        return device
    }

    static func folder(of device: String, in workspace: Workspace) -> URL {
        workspace.home.appendingPathComponent("phones").appendingPathComponent(device)
    }

    /// A board by id, unique id prefix, unique title, or the starter grid's key it was made from.
    static func board(_ text: String, on phone: SimulatedPhone) throws -> Board {
        let boards = try phone.store.boards()
        let wanted = text.lowercased()
        let matches = boards.filter { $0.id.lowercased == wanted }
            + boards.filter { $0.id.lowercased != wanted && wanted.count >= 4 && $0.id.lowercased.hasPrefix(wanted) }
        let byTitle = boards.filter { $0.title.lowercased() == wanted || $0.gridID == DeterministicID.starterGrid(wanted) }
        if let only = matches.first, matches.count == 1 { return only }
        if matches.isEmpty, let only = byTitle.first, byTitle.count == 1 { return only }
        if matches.count + byTitle.count > 1 {
            throw CLIError("\"\(text)\" names more than one board", fix: "give more of the board's id (see `summit phone shelf`)")
        }
        throw CLIError("there is no board \"\(text)\" on this phone", fix: "list the boards with `summit phone shelf`")
    }

    /// A live moment by id or unique id prefix.
    static func moment(_ text: String, on phone: SimulatedPhone) throws -> UUID {
        let wanted = text.lowercased()
        let ids = try phone.store.rows(.moments, where: "deleted = 0 and id like ?", [wanted + "%"]).map(\.id)
        if ids.count == 1, wanted.count >= 4 || ids[0].lowercased == wanted { return ids[0] }
        if ids.count > 1 { throw CLIError("\"\(text)\" names more than one moment", fix: "give more of the moment's id") }
        throw CLIError("there is no moment \"\(text)\" on this phone", fix: "see the moments on a board with `summit phone board BOARD`")
    }
}
