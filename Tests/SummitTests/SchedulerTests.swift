import Foundation
import Postgres
import Summit
import SummitTestSupport
import Testing

/// The worker's scheduler against a real PostgreSQL: two schedulers on two
/// connections never run one job at once, a job runs once per interval
/// across workers, a dead worker's lease is free again, and the feed jobs
/// refresh what `summit feeds` configured.
@Suite(.serialized) struct SchedulerTests {
    /// A job body that waits inside until the test lets it out, counting how
    /// many bodies entered and how many were inside at once.
    actor Turnstile {
        private(set) var inside = 0
        private(set) var mostInside = 0
        private(set) var entries = 0
        private var gate: CheckedContinuation<Void, Never>?
        private var holding = true

        func pass() async {
            inside += 1
            entries += 1
            mostInside = max(mostInside, inside)
            // Only the first body is held, so a broken lease fails the test instead of hanging it.
            if holding && entries == 1 { await withCheckedContinuation { gate = $0 } }
            inside -= 1
        }

        func open() {
            holding = false
            gate?.resume()
            gate = nil
        }

        /// Waits (up to a generous deadline) until a body is inside.
        func waitForEntry() async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while entries == 0 {
                guard ContinuousClock.now < deadline else { throw CLIError("no job body started within 60 s") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// How many job bodies run at the same time, at most.
    actor Overlap {
        private var inside = 0
        private(set) var mostInside = 0

        func enter() {
            inside += 1
            mostInside = max(mostInside, inside)
        }

        func leave() { inside -= 1 }
    }

    @Test func twoSchedulersNeverRunOneJobAtOnceAndRunItOncePerInterval() async throws {
        try await withFreshDatabase { configuration in
            let turnstile = Turnstile()
            let job = ScheduledJob(name: "probe", every: .seconds(3600)) { _ in
                await turnstile.pass()
                return "probed"
            }
            try await PostgresConnection.withConnection(configuration) { first in
                try await PostgresConnection.withConnection(configuration) { second in
                    let a = Scheduler(connection: first, jobs: [job], workerName: "worker-a")
                    let b = Scheduler(connection: second, jobs: [job], workerName: "worker-b")
                    let running = Task { await a.runOnce("probe") }
                    try await turnstile.waitForEntry()
                    // A holds the lease while its body runs: B must not start it.
                    #expect(await b.runOnce("probe") == .leaseHeld)
                    #expect(await b.runOnce("probe") == .leaseHeld)
                    await turnstile.open()
                    #expect(await running.value == .ran("probed"))
                    // A finished it a moment ago: within the interval B skips it.
                    #expect(await b.runOnce("probe") == .notDue)
                    #expect(await a.runOnce("probe") == .notDue)
                    let (entries, mostInside) = (await turnstile.entries, await turnstile.mostInside)
                    #expect(entries == 1 && mostInside == 1)
                    let run = try await first.query("""
                        select last_worker || ' ' || last_outcome || ' ' || runs from summit.job_runs where job = 'probe'
                        """).scalar(String.self)
                    #expect(run == "worker-a succeeded 1")
                }
            }
        }
    }

    @Test func manyConcurrentTurnsStillRunOneAtATime() async throws {
        try await withFreshDatabase { configuration in
            let counter = Overlap()
            let job = ScheduledJob(name: "busy", every: .zero) { _ in
                await counter.enter()
                try await Task.sleep(for: .milliseconds(5))
                await counter.leave()
                return ""
            }
            try await PostgresConnection.withConnection(configuration) { first in
                try await PostgresConnection.withConnection(configuration) { second in
                    let schedulers = [Scheduler(connection: first, jobs: [job], workerName: "a"),
                                      Scheduler(connection: second, jobs: [job], workerName: "b")]
                    let outcomes = await withTaskGroup(of: [Scheduler.Outcome].self) { group in
                        for scheduler in schedulers {
                            group.addTask {
                                var outcomes: [Scheduler.Outcome] = []
                                for _ in 0..<15 { outcomes.append(await scheduler.runOnce("busy")) }
                                return outcomes
                            }
                        }
                        return await group.reduce(into: []) { $0 += $1 }
                    }
                    #expect(!outcomes.contains { if case .failed = $0 { true } else { false } }, "\(outcomes)")
                    let ran = outcomes.filter { $0 == .ran("") }.count
                    #expect(ran >= 1 && ran + outcomes.filter { $0 == .leaseHeld }.count == 30)
                    let mostInside = await counter.mostInside
                    #expect(mostInside == 1, "never two bodies at once")
                }
            }
        }
    }

    @Test func aDeadWorkersLeaseIsFreeAgain() async throws {
        try await withFreshDatabase { configuration in
            let job = ScheduledJob(name: "probe", every: .zero) { _ in "probed" }
            try await PostgresConnection.withConnection(configuration) { survivor in
                let scheduler = Scheduler(connection: survivor, jobs: [job], workerName: "survivor")
                let doomed = try await PostgresConnection.connect(configuration)
                #expect(try await doomed.query("select summit.try_job_lease('probe')").scalar(Bool.self))
                #expect(await scheduler.runOnce("probe") == .leaseHeld)
                await doomed.close()
                // The server ends the lock with the session; allow it a moment on a busy machine.
                let deadline = ContinuousClock.now + .seconds(60)
                var outcome = await scheduler.runOnce("probe")
                while outcome == .leaseHeld, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    outcome = await scheduler.runOnce("probe")
                }
                #expect(outcome == .ran("probed"))
            }
        }
    }

    @Test func theFeedJobsRefreshConfiguredResortsWhenDue() async throws {
        try await CLIHarness.withFreshDatabase { cli in
            try await withTemporaryFolder { folder in
                try await cli.ok("demo", "--out", folder.path)
                let server = try LoopbackHTTPServer()
                defer { server.stop() }
                server.answer("/status", body: """
                    {"format": "summit-status/1", "lifts": [{"name": "Lift 6-1", "status": "open", "wait_minutes": 2}]}
                    """)
                let now = try await cli.scalar("select extract(epoch from summit.now())::float8", as: Double.self)
                server.answer("/forecast", body: WeatherFeedCLITests.forecast(t0: (now / 3600).rounded(.down) * 3600, hours: [0, 1], winds: [5, 10]))
                try await cli.fails("feeds", "set", "demo-7", "--status", "gopher://x")
                try await cli.fails("feeds", "set", "nowhere", "--status", server.url("/status"))
                try await cli.ok("feeds", "set", "demo-7", "--status", server.url("/status"), "--weather", server.url("/forecast"))
                #expect(try await cli.ok("feeds", "list", "--json").json.array.count == 2)

                // The demo's status is fresh, so only the forecast is due.
                let first = try await cli.ok("worker", "--once", "--json").json["jobs"]
                #expect(first["status-refresh"].string == "nothing due")
                #expect(first["weather-refresh"].string?.contains("demo-7: merged 2 hourly samples") == true, "\(first)")
                #expect(server.requests(to: "/forecast") == 1 && server.requests(to: "/status") == 0)
                // Within two minutes of the status expiring, it is refreshed; the forecast waits for the hour.
                try await cli.execute("update mountain.resort_status set expires_at = summit.now() + interval '90 seconds'")
                let second = try await cli.ok("worker", "--once", "--json").json["jobs"]
                #expect(second["status-refresh"].string?.contains("demo-7 (status expires within two minutes)") == true, "\(second)")
                #expect(second["weather-refresh"].string == "nothing due")
                #expect(server.requests(to: "/status") == 1 && server.requests(to: "/forecast") == 1)
                #expect(try await cli.ok("worker", "--once", "--json").json["jobs"]["status-refresh"].string == "nothing due")

                // A failing feed is noted; its retry waits five minutes.
                try await cli.execute("update mountain.resort_status set expires_at = summit.now() + interval '60 seconds'")
                server.answer("/status", status: 500, body: "{}")
                let failing = try await cli.ok("worker", "--once", "--json")
                #expect(failing.json["jobs"]["status-refresh"].string == "demo-7 failed")
                #expect(failing.stderr.contains("HTTP 500"))
                #expect(try await cli.ok("worker", "--once", "--json").json["jobs"]["status-refresh"].string == "nothing due")
                #expect(server.requests(to: "/status") == 2)
                #expect(try await cli.ok("feeds", "list").stdout.contains("failing (1×)"))
                try await cli.ok("feeds", "remove", "demo-7", "--status")
                #expect(try await cli.ok("feeds", "list", "--json").json.array.count == 1)
            }
        }
    }
}
