import Foundation

/// One lane of an `APNsClient`: a serial queue with its own connection per
/// environment. Requests on a lane go one at a time; lanes run side by side.
final class APNsLane: @unchecked Sendable {
    let queue: DispatchQueue
    /// Touched only on `queue`.
    var connections: [APNsEnvironment: HTTP2ClientConnection] = [:]

    init(index: Int) {
        queue = DispatchQueue(label: "summit.apns.\(index)")
    }

    /// Runs `work` on the lane's queue, off Swift's cooperative threads.
    func run<T: Sendable>(_ work: @escaping @Sendable (APNsLane) -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work(self)) }
        }
    }
}
