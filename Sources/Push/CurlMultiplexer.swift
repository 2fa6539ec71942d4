import CCurl
import CLinux
import Foundation

/// libcurl's multi interface on a thread of its own: one HTTP/2 connection per
/// origin, carrying up to `concurrency` requests at once as streams.
///
/// `submit` may be called from any thread: it queues the transfer and wakes the
/// loop (curl_multi_wakeup), which alone touches the multi handle and the easy
/// handles. A transfer waits in its origin's queue until a stream is free, so
/// its timeout starts when it goes on the connection, not while it waits for a
/// turn. Completions run on the loop's thread and must only hand the result on.
final class CurlMultiplexer: @unchecked Sendable {
    /// curl_global_init once per process, before the first handle.
    private static let curlReady: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    let concurrency: Int
    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    // Guarded by `lock`.
    private var submitted: [CurlTransfer] = []
    private var closing = false
    private var closed = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    // The loop's own.
    private var waiting: [String: [CurlTransfer]] = [:]
    private var inFlight: [String: Int] = [:]
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init(concurrency: Int, threadName: String) throws {
        guard Self.curlReady, let multi = curl_multi_init() else {
            throw APNsConfigurationError("libcurl did not initialise", fix: "check that libcurl4 (with nghttp2) is installed")
        }
        self.concurrency = concurrency
        self.multi = multi
        let options = [
            summit_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)),
            // One connection per host, as APNs asks, and never more streams on it than we allow.
            summit_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1),
            summit_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, concurrency),
        ]
        if let refused = options.first(where: { $0 != CURLM_OK }) {
            curl_multi_cleanup(multi)
            throw APNsConfigurationError("libcurl refused a multi option: " + String(cString: curl_multi_strerror(refused)),
                                         fix: "Summit needs libcurl 7.67 or later, built with nghttp2 (Debian's libcurl4-openssl-dev)")
        }
        // The thread keeps the multiplexer alive until its loop ends.
        let thread = Thread { [self] in
            // Foundation keeps a thread's name to itself on Linux; set here, the OS shows it (top -H, gdb).
            _ = pthread_setname_np(pthread_self(), String(threadName.utf8.prefix(15))!)
            loop()
        }
        thread.name = threadName
        thread.start()
    }

    /// Queues `transfer`; a closing multiplexer finishes it at once as not sent.
    func submit(_ transfer: CurlTransfer) {
        let accepted = lock.withLock {
            if closing { return false }
            submitted.append(transfer)
            return true
        }
        if accepted {
            curl_multi_wakeup(multi)
        } else {
            transfer.fail(HTTPTransportError(kind: .closed, origin: transfer.origin, detail: "the request was not sent"))
        }
    }

    /// Lets what was submitted finish, closes the connections, and returns when the thread is done.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock {
                closing = true
                if closed { return true }
                closeWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() } else { curl_multi_wakeup(multi) }
        }
    }

    /// Asks the loop to end once its work is done, without waiting.
    func shutdown() {
        lock.withLock { closing = true }
        curl_multi_wakeup(multi)
    }

    private func loop() {
        var stillRunning: Int32 = 0
        while true {
            let (arrived, ending) = lock.withLock {
                defer { submitted.removeAll() }
                return (submitted, closing)
            }
            for transfer in arrived { waiting[transfer.origin, default: []].append(transfer) }
            startWaiting()
            curl_multi_perform(multi, &stillRunning)
            if collectFinished() {
                continue // new transfers went on a connection: let curl start them before waiting
            }
            if ending && running.isEmpty && waiting.isEmpty && lock.withLock({ submitted.isEmpty }) { break }
            // Returns on socket activity, curl's next timer, or curl_multi_wakeup; the bound is a safety net.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        curl_multi_cleanup(multi)
        let waiters = lock.withLock {
            closed = true
            defer { closeWaiters.removeAll() }
            return closeWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Puts waiting transfers on their origin's connection while it has streams to spare.
    private func startWaiting() {
        for origin in Array(waiting.keys) {
            while inFlight[origin, default: 0] < concurrency, var queue = waiting[origin], !queue.isEmpty {
                let transfer = queue.removeFirst()
                waiting[origin] = queue.isEmpty ? nil : queue
                guard let handle = transfer.start() else { continue }
                let added = curl_multi_add_handle(multi, handle)
                guard added == CURLM_OK else {
                    transfer.fail(HTTPTransportError(kind: .other, origin: origin,
                                                     detail: "curl_multi_add_handle: " + String(cString: curl_multi_strerror(added))))
                    continue
                }
                running[handle] = transfer
                inFlight[origin, default: 0] += 1
            }
        }
    }

    /// Finishes the transfers curl is done with; true when that let others start.
    private func collectFinished() -> Bool {
        var started = false
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let transfer = running.removeValue(forKey: handle) else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, handle)
            inFlight[transfer.origin, default: 1] -= 1
            transfer.complete(code)
            started = started || waiting[transfer.origin] != nil
        }
        if started { startWaiting() }
        return started
    }
}
