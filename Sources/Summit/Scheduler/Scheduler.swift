import Foundation
import Postgres

/// Runs the worker's periodic jobs so that, however many workers run against
/// one database, a job never runs twice at once and runs once per interval.
///
/// Before running a job the scheduler takes the job's session advisory lock
/// on its own connection (`summit.try_job_lease`); a worker that cannot take
/// it skips the job until its next turn. Holding the lock it asks
/// `summit.start_job_run` whether another worker already finished the job
/// within its interval, and records the outcome with `summit.finish_job_run`.
/// The lock belongs to the connection, so a worker that dies releases it.
public actor Scheduler {
    public enum Outcome: Sendable, Equatable {
        /// Ran; the job's summary.
        case ran(String)
        /// Ran and threw; the error.
        case failed(String)
        /// Another worker holds the job's lease right now.
        case leaseHeld
        /// Another worker finished it less than an interval ago.
        case notDue
    }

    public let jobs: [ScheduledJob]
    public nonisolated let workerName: String
    private let configuration: PostgresConfiguration?
    private var connection: PostgresConnection?
    private let log: @Sendable (String) -> Void

    /// A scheduler on a connection of its own making (reconnecting after a loss).
    public init(_ configuration: PostgresConfiguration, jobs: [ScheduledJob], workerName: String,
                log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.connection = nil
        self.jobs = jobs
        self.workerName = workerName
        self.log = log
    }

    /// A scheduler on a given connection, which its leases then belong to.
    public init(connection: PostgresConnection, jobs: [ScheduledJob], workerName: String,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = nil
        self.connection = connection
        self.jobs = jobs
        self.workerName = workerName
        self.log = log
    }

    /// Runs one job now if its lease is free and it is due.
    public func runOnce(_ name: String) async -> Outcome {
        guard let job = jobs.first(where: { $0.name == name }) else { return .failed("no job named \(name)") }
        return await runOnce(job)
    }

    private func runOnce(_ job: ScheduledJob) async -> Outcome {
        let db: PostgresConnection
        do {
            db = try await leaseConnection()
        } catch {
            return .failed("cannot connect: \(error)")
        }
        do {
            guard try await db.query("select summit.try_job_lease(\(job.name))", as: .serviceRole).scalar(Bool.self) else {
                return .leaseHeld
            }
        } catch {
            forgetConnectionIfLost(error)
            return .failed(String(describing: error))
        }
        let outcome: Outcome
        do {
            let started = try await db.query("""
                select summit.start_job_run(\(job.name), make_interval(secs => \(job.seconds)), \(workerName))
                """, as: .serviceRole).scalar(Bool.self)
            if started {
                do {
                    let summary = try await job.body(db)
                    outcome = .ran(summary)
                } catch {
                    outcome = .failed(String(describing: error))
                }
                let succeeded = if case .ran = outcome { true } else { false }
                let detail: String = switch outcome {
                case let .ran(text), let .failed(text): text
                default: ""
                }
                _ = try await db.query("select summit.finish_job_run(\(job.name), \(succeeded), \(detail))", as: .serviceRole)
            } else {
                outcome = .notDue
            }
        } catch {
            forgetConnectionIfLost(error)
            _ = try? await db.query("select summit.release_job_lease(\(job.name))", as: .serviceRole)
            return .failed(String(describing: error))
        }
        do {
            _ = try await db.query("select summit.release_job_lease(\(job.name))", as: .serviceRole)
        } catch {
            // The lease lives as long as the connection: drop it, and the lock with it.
            forgetConnectionIfLost(error, always: true)
        }
        return outcome
    }

    /// Runs every job at its interval (with jitter) until the task is cancelled.
    public func run() async {
        var random = SystemRandomNumberGenerator()
        let clock = ContinuousClock()
        // Start each job within its jitter of now, not all in the same instant.
        var next: [String: ContinuousClock.Instant] = [:]
        for job in jobs {
            let spread = job.seconds * job.jitter
            next[job.name] = clock.now + .milliseconds(Int64(Double.random(in: 0...max(0, min(spread, 5)), using: &random) * 1000))
        }
        while !Task.isCancelled {
            for job in jobs where clock.now >= next[job.name]! {
                let outcome = await runOnce(job)
                switch outcome {
                case let .ran(summary): if !summary.isEmpty { log("worker: \(summary)") }
                case let .failed(problem): log("worker: \(job.name) failed, trying again in \(Worker.describe(job.every)): \(problem)")
                case .leaseHeld, .notDue: break
                }
                next[job.name] = clock.now + job.nextWait(using: &random)
                if Task.isCancelled { break }
            }
            guard let soonest = next.values.min() else { return }
            try? await Task.sleep(until: soonest)
        }
        await connection?.close()
        connection = nil
    }

    private func leaseConnection() async throws -> PostgresConnection {
        if let connection { return connection }
        guard let configuration else { throw CLIError("the scheduler's connection was lost") }
        let fresh = try await PostgresConnection.connect(configuration, applicationName: "summit-worker-scheduler")
        connection = fresh
        return fresh
    }

    private func forgetConnectionIfLost(_ error: any Error, always: Bool = false) {
        guard configuration != nil else { return }
        if always || (error as? PostgresError)?.code.errorClass == "08" {
            let lost = connection
            connection = nil
            Task { await lost?.close() }
        }
    }
}
