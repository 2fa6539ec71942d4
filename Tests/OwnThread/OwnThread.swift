import DedicatedThread
import Testing

/// Runs each test case on an OS thread of its own instead of Swift's cooperative pool.
///
/// The pool has one thread per core (two on the CI machine), and every test in
/// the process shares it. A test that computes for a minute without suspending
/// holds a pool thread the whole time; two of them stall every other test, and
/// a socket test's client then misses the server's timeouts by tens of seconds.
/// Tests that compute heavily take this trait so the pool stays free; tests that
/// keep time against a peer take it so no neighbour can hold them up. The OS
/// shares the cores between the threads fairly, which the pool cannot do.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    /// The threads' name (Linux keeps 15 bytes of it; a longer one is refused, and
    /// the thread would go by its creator's).
    public static let threadName = "own test thread"

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OwnThread? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadTaskExecutor(name: Self.threadName)
        defer { executor.shutdown() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test case on an OS thread of its own: see `OwnThread`.
    public static var ownThread: Self { OwnThread() }
}
