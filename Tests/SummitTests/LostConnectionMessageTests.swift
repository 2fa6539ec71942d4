import Postgres
@testable import Summit
import Testing

/// What the CLI says when the database went away under a command (a restart, a failover).
@Suite struct LostConnectionMessageTests {
    @Test func aLostConnectionSaysToRunTheCommandAgain() {
        for code: SQLState in [.connectionFailure, .adminShutdown, "57P03"] {
            let text = SummitCLI.message(for: PostgresError(code: code, message: "terminating connection due to administrator command"))
            #expect(text.contains("the database connection was lost (the server restarted or failed over)") && text.contains("run it again"), "\(text)")
        }
        let other = SummitCLI.message(for: PostgresError(code: "23505", message: "duplicate key"))
        #expect(!other.contains("run it again"))
    }
}
