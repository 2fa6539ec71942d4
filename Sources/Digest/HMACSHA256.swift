import CCrypto

/// HMAC-SHA256 through libcrypto, and the comparisons and randomness that go with it.
public enum HMACSHA256 {
    public static func mac(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let bytes = Array(message)
        key.withUnsafeBufferPointer { keyBuffer in
            bytes.withUnsafeBufferPointer { messageBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    _ = HMAC(EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                             messageBuffer.baseAddress, messageBuffer.count, outBuffer.baseAddress, &length)
                }
            }
        }
        return out
    }

    /// Compares without returning early, so timing says nothing about where they differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "libcrypto could not produce random bytes")
        return bytes
    }
}
