/// A connected, blocking byte stream: plain TCP or TLS over it. Reads and writes
/// give up after the stream's I/O timeout.
protocol ByteStream: AnyObject {
    func write(_ bytes: [UInt8]) throws
    /// Reads what is available, at least one byte; 0 means the peer closed the stream.
    func read(into buffer: inout [UInt8], maximum: Int) throws -> Int
    /// Whether bytes (or the end of the stream) can be read without waiting.
    func hasPendingInput() -> Bool
    func close()
}
