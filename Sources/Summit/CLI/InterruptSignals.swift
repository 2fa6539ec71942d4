import Dispatch
import Foundation

/// SIGINT and SIGTERM turned into a call, for the commands that run until
/// stopped (`serve`, `worker`, `push deliver`): the default action would end
/// the process mid-write; with this they drain and close cleanly.
struct InterruptSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { signal in
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops listening (the signals stay ignored until the process ends).
    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
