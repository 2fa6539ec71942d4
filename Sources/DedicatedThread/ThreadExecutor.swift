/// A serial executor that runs every job on one dedicated OS thread.
///
/// libpq's calls block. Giving each connection actor its own thread keeps those
/// calls off Swift's cooperative pool, so a slow query never stalls unrelated tasks.
public final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    private var thread: JobThread!

    public init(name: String) {
        thread = JobThread(name: name, stackSize: 1 << 20) { [self] job in
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) { thread.enqueue(UnownedJob(job)) }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread finish once the queued jobs have run.
    public func shutdown() { thread.shutdown() }
}
