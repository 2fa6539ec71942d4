import CLinux
import Foundation

/// One OS thread that runs the jobs handed to it, in the order they came.
///
/// The executors built on it keep work that blocks (libpq's calls) or computes
/// for long stretches off Swift's cooperative pool, which has one thread per
/// core: two such jobs on the pool would stall every other task in the process.
final class JobThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Starts the thread; `run` runs each job on it. Linux keeps 15 bytes of `name`. The thread keeps `run`
    /// (and so its executor) alive until `shutdown()`.
    init(name: String, stackSize: Int, run: @escaping @Sendable (UnownedJob) -> Void) {
        let thread = Thread { [self] in
            // Foundation keeps the name to itself on Linux; the OS shows it (top -H, gdb) once set here.
            _ = pthread_setname_np(pthread_self(), String(name.utf8.prefix(15))!)
            loop(run)
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread finish once the queued jobs have run.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func loop(_ run: (UnownedJob) -> Void) {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && stopping {
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { run(job) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
