import CZlib

/// Raw DEFLATE (RFC 1951) through zlib: no zlib or gzip wrapper.
///
/// Graph blobs travel as raw deflate so every client decompressor agrees on the
/// bytes, and zip entries use the same encoding; one wrapper keeps the zlib
/// stream handling (and its size caps) in a single place.
public enum RawDeflate {
    /// Compresses `bytes` with zlib's raw deflate (`windowBits = -15`), memLevel 8
    /// and the default strategy. The same input, level and zlib version give the
    /// same output bytes.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(RawDeflateError) -> [UInt8] {
        var stream = z_stream()
        let initStatus = deflateInit2_(
            &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw .zlib(status: initStatus, during: "deflateInit2") }
        defer { deflateEnd(&stream) }

        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound guarantees one Z_FINISH call suffices.
        guard status == Z_STREAM_END else { throw .zlib(status: status, during: "deflate") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Inflates raw deflate data, refusing to produce more than `limit` bytes.
    ///
    /// The cap is enforced while inflating, so a hostile "zip bomb" costs at most
    /// `limit` bytes of memory. `expectedSize`, when known (zip headers), only
    /// sizes the first buffer.
    public static func decompress(
        _ bytes: ArraySlice<UInt8>, limit: Int, expectedSize: Int? = nil
    ) throws(RawDeflateError) -> [UInt8] {
        var stream = z_stream()
        let initStatus = inflateInit2_(
            &stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw .zlib(status: initStatus, during: "inflateInit2") }
        defer { inflateEnd(&stream) }

        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let initialCapacity = min(limit, expectedSize ?? bytes.count * 4)
        output.reserveCapacity(max(0, initialCapacity))

        var input = Array(bytes)
        let result: Result<Void, RawDeflateError> = input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, outBuffer.count - Int(stream.avail_out))
                }
                if output.count + produced > limit { return .failure(.tooLarge(limit: limit)) }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    return .success(())
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.truncated)
                default:
                    return .failure(.zlib(status: status, during: "inflate"))
                }
            }
        }
        try result.get()
        return output
    }

    public static func decompress(_ bytes: [UInt8], limit: Int, expectedSize: Int? = nil) throws(RawDeflateError) -> [UInt8] {
        try decompress(bytes[...], limit: limit, expectedSize: expectedSize)
    }
}

/// Why raw deflate data could not be produced or read.
public enum RawDeflateError: Error, Equatable, CustomStringConvertible {
    case zlib(status: Int32, during: String)
    case tooLarge(limit: Int)
    case truncated

    public var description: String {
        switch self {
        case .zlib(let status, let step):
            return "zlib \(step) failed with status \(status): the data is not valid raw deflate"
        case .tooLarge(let limit):
            return "inflated data exceeds the \(limit)-byte limit; refusing to continue"
        case .truncated:
            return "raw deflate stream ends before its final block: the data is truncated"
        }
    }
}
