import Foundation
import Postgres
import Summit
import Testing

/// `summit presence` and `summit worker` against a real server.
@Suite(.serialized) struct PresenceCLITests {
    @Test func aFriendWatchingSeesStoredAndLivePositions() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob", "cat"] { try await cli.ok("users", "add", name) }
            try await cli.ok("friends", "request", "bob", "--as", "ann")
            try await cli.ok("friends", "accept", "ann", "--as", "bob")
            let published = try await cli.ok("presence", "publish", "--as", "ann", "--resort", "vail",
                                             "--lat", "39.6403", "--lon", "-106.3742", "--accuracy", "6", "--json")
            #expect(published.json["status"].string == "published")
            #expect(published.json["geohash6"].string == "9xh3e2")

            // The stored position arrives on entering (nothing else is published meanwhile, so no
            // live packet can overtake it: the relay delivers whichever copy of a sample comes first).
            let stored = try await cli.ok("presence", "watch", "--as", "bob", "--resort", "vail", "--count", "1")
            let first = stored.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
                .filter { $0["type"].string == "position" }
            #expect(first.count == 1)
            #expect(first.first?["source"].string == "stored")
            #expect(first.first?["name"].string == "ann")

            // Then live ones, while ann keeps publishing.
            let finished = Finished()
            let watching = Task {
                let outcome = try await cli.run(["presence", "watch", "--as", "bob", "--resort", "vail", "--count", "2"])
                await finished.set()
                return outcome
            }
            let deadline = ContinuousClock.now + .seconds(30)
            var latitude = 39.64
            while await !finished.value, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(250))
                latitude += 0.0001
                try await cli.ok("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", String(latitude),
                                 "--lon", "-106.3742")
            }
            let outcome = try await watching.value
            #expect(outcome.status == 0, "watch failed: \(outcome.stderr)")
            let positions = outcome.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
                .filter { $0["type"].string == "position" }
            #expect(positions.count == 2)
            #expect(positions.last?["source"].string == "live")
            #expect(positions.allSatisfy { $0["freshness"].string == "live" && $0["name"].string == "ann" })

            // cat, a stranger, sees nothing stored (a bounded watch ends with no position).
            let stranger = try await cli.ok("presence", "watch", "--as", "cat", "--resort", "vail", "--for", "1")
            #expect(!stranger.stdout.contains("\"position\""))
            #expect(stranger.stdout.contains("\"live\""), "the stranger's watch did go live")
        }
    }

    @Test func badSamplesAreRefusedWithWhatToDo() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("users", "add", "ann")
            let future = try await cli.fails("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "39.6",
                                            "--lon", "-106.3", "--captured-at", PostgresTimestamp.format(Date().addingTimeInterval(120)))
            #expect(future.stderr.contains("captured_at_in_future") && future.stderr.contains("check the device clock"))
            let latitude = try await cli.fails("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "north", "--lon", "0")
            #expect(latitude.stderr.contains("--lat takes a number"))
            let resort = try await cli.fails("presence", "publish", "--as", "ann", "--resort", "Vail Resort!", "--lat", "1", "--lon", "0")
            #expect(resort.stderr.contains("is not a resort id"))
            let edge = try await cli.fails("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "1", "--lon", "0",
                                          "--fraction", "0.5")
            #expect(edge.stderr.contains("edge_fraction_invalid"))
            #expect(try await cli.scalar("select count(*) from meet.live_presence", as: Int.self) == 0, "nothing was written")

            let older = try await cli.ok("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "1", "--lon", "0")
            #expect(older.stdout.contains("published ann's position"))
            let stale = try await cli.ok("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "2", "--lon", "0",
                                        "--captured-at", PostgresTimestamp.format(Date().addingTimeInterval(-60)))
            #expect(stale.stdout.contains("ignored"))
            #expect(try await cli.scalar("select lat from meet.live_presence", as: Double.self) == 1)

            #expect(try await cli.ok("presence", "clear", "--as", "ann").stdout.contains("removed ann's stored position"))
            #expect(try await cli.scalar("select count(*) from meet.live_presence", as: Int.self) == 0)
        }
    }

    @Test func theWorkerSweepsExpiredPositions() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            for name in ["ann", "bob"] { try await cli.ok("users", "add", name) }
            try await cli.ok("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "1", "--lon", "0")
            try await cli.ok("presence", "publish", "--as", "bob", "--resort", "vail", "--lat", "1", "--lon", "0")
            // bob's was last heard 16 minutes ago.
            try await cli.execute("""
                update meet.live_presence set received_at = now() - interval '16 minutes'
                where user_id = (select id from social.profiles where username = 'bob')
                """)
            let swept = try await cli.ok("worker", "--once", "--json")
            #expect(swept.json["swept"].int == 1)
            #expect(try await cli.scalar("select count(*) from meet.live_presence", as: Int.self) == 1)
            #expect(try await cli.ok("worker", "--once").stdout.contains("swept 0 expired live positions"))
            try await cli.fails("worker", "--sweep-every", "0")
        }
    }
}

/// Set once a background command has finished.
actor Finished {
    private(set) var value = false
    func set() { value = true }
}

/// The worker's loop in this process: it starts the relay and sweeps on its interval.
@Suite struct WorkerTests {
    @Test func theRunningWorkerSweepsOnItsIntervalAndStopsWhenCancelled() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await cli.ok("users", "add", "ann")
            try await cli.ok("presence", "publish", "--as", "ann", "--resort", "vail", "--lat", "1", "--lon", "0")
            let lines = LogLines()
            let worker = Worker(cli.database, options: Worker.Options(presenceSweepInterval: .milliseconds(200),
                                                                    reportInterval: .seconds(60))) { lines.append($0) }
            let running = Task { try await worker.run() }
            // Fresh, the position stays; once it is 16 minutes old, the next sweep takes it.
            let started = ContinuousClock.now + .seconds(20)
            while await worker.relay == nil, ContinuousClock.now < started {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(await worker.relay != nil, "the worker holds a running relay")
            try await Task.sleep(for: .milliseconds(500))   // at least two sweeps on a fresh row
            #expect(try await cli.scalar("select count(*) from meet.live_presence", as: Int.self) == 1)
            try await cli.execute("update meet.live_presence set received_at = now() - interval '16 minutes'")
            let deadline = ContinuousClock.now + .seconds(20)
            while try await cli.scalar("select count(*) from meet.live_presence", as: Int.self) > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await cli.scalar("select count(*) from meet.live_presence", as: Int.self) == 0)
            running.cancel()
            try await running.value
            #expect(lines.all.contains("worker: swept 1 expired live position"))
            #expect(lines.all.last == "worker: stopped")
            #expect(await worker.relay == nil)
        }
    }
}

/// Log lines collected from another task.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
