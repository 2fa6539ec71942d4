import Postgres
import Push

extension Worker {
    /// One pass over the push outbox for the worker's loop: a failure is logged
    /// and the next pass tries again (the claimed rows come back when their lease ends).
    func deliverPush(with client: APNsClient, on pool: PostgresPool) async {
        do {
            let counts = try await pool.withConnection {
                try await PushDelivery.deliverDue(on: $0, client: client, worker: PushDelivery.workerName())
            }
            if counts.claimed > 0 { log("worker: push " + counts.summary) }
        } catch {
            log("worker: push delivery failed, trying again in \(Self.describe(options.pushInterval)): \(error)")
        }
    }
}
