import CLinux
import Foundation
import OwnThread
import Testing

/// The trait that keeps socket and heavy tests off the cooperative pool.
@Suite struct OwnThreadTests {
    @Test(.ownThread) func aSynchronousTestRunsOnItsOwnThread() {
        #expect(threadName().hasPrefix(OwnThread.threadName), "\(threadName())")
    }

    @Test(.ownThread) func anAsynchronousTestComesBackToItsThreadAfterEachSuspension() async throws {
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(5))
            #expect(threadName().hasPrefix(OwnThread.threadName), "\(threadName())")
        }
    }

    @Test func withoutTheTraitATestRunsOnThePool() {
        #expect(!threadName().hasPrefix(OwnThread.threadName), "\(threadName())")
    }
}

/// The name of the thread running the caller (synchronous, so callable from async code).
private func threadName() -> String {
    var name = [CChar](repeating: 0, count: 16)
    guard pthread_getname_np(pthread_self(), &name, name.count) == 0 else { return "" }
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
