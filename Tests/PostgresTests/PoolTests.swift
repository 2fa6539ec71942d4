import Foundation
import Postgres
import SummitTestSupport
import Synchronization
import Testing

/// The highest count seen, from many tasks at once.
final class Peak: Sendable {
    private let highest = Mutex(0)
    func record(_ count: Int) { highest.withLock { $0 = max($0, count) } }
    var value: Int { highest.withLock { $0 } }
}

@Suite struct PoolTests {
    @Test func thePoolNeverOpensMoreThanItsBound() async throws {
        try await withFreshDatabase { configuration in
            let name = "pool-\(UUID().uuidString.prefix(8))"
            let pool = PostgresPool(configuration, maxConnections: 3, applicationName: name)
            let peak = Peak()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            let open = try await connection.query(
                                "select count(*) from pg_stat_activity where application_name = \(name)").scalar(Int.self)
                            peak.record(open)
                            try await connection.query("select pg_sleep(0.05)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(peak.value <= 3)
            #expect(peak.value >= 2, "the pool should run work in parallel")
            #expect(await pool.openConnections <= 3)
            await pool.close()
        }
    }

    @Test func aConnectionReturnedMidTransactionIsNotReused() async throws {
        try await withFreshDatabase { configuration in
            let pool = PostgresPool(configuration, maxConnections: 1)
            let firstPID = try await pool.withConnection { connection in
                try await connection.simpleQuery("BEGIN")
                return await connection.backendPID
            }
            let (secondPID, idle) = try await pool.withConnection { connection in
                (await connection.backendPID, await connection.isIdle)
            }
            #expect(firstPID != secondPID)
            #expect(idle)
            let same = try await pool.withConnection { await $0.backendPID }
            #expect(same == secondPID)
            await pool.close()
        }
    }

    @Test func poolActsAsUsers() async throws {
        try await withFreshDatabase { configuration in
            let pool = PostgresPool(configuration, maxConnections: 2)
            let ids = (0..<6).map { _ in UUID() }
            let seen = try await withThrowingTaskGroup(of: (UUID, UUID?).self) { group in
                for id in ids {
                    group.addTask { (id, try await pool.acting(as: .user(id)) { try await $0.query("select auth.uid()").scalar(UUID?.self) }) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for id in ids { #expect(seen[id] == id) }
            await pool.close()
        }
    }
}
