/// A task executor on one dedicated OS thread: the tasks that prefer it
/// (`withTaskExecutorPreference`) run there instead of on the cooperative pool.
///
/// For work that computes without suspending for long stretches, and for work
/// that must keep time while such work runs elsewhere in the process.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private var thread: JobThread!

    /// `stackSize` as the cooperative pool's threads have it, for code written for them.
    public init(name: String, stackSize: Int = 8 << 20) {
        thread = JobThread(name: name, stackSize: stackSize) { [self] job in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) { thread.enqueue(UnownedJob(job)) }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets the thread finish once the queued jobs have run.
    public func shutdown() { thread.shutdown() }
}
