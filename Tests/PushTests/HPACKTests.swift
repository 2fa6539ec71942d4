import Testing
@testable import Push

/// HPACK against the examples of RFC 7541 Appendix C, which exercise the static
/// and dynamic tables, literal forms and Huffman-coded strings.
struct HPACKTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    static func pairs(_ headers: [(name: String, value: String)]) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    @Test("C.4: requests with Huffman coding, sharing one dynamic table")
    func huffmanRequests() throws {
        var decoder = HPACKDecoder()
        #expect(Self.pairs(try decoder.decode(Self.bytes("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff")))
                == [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"])
        #expect(Self.pairs(try decoder.decode(Self.bytes("8286 84be 5886 a8eb 1064 9cbf")))
                == [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"])
        #expect(Self.pairs(try decoder.decode(Self.bytes("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf")))
                == [":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"])
    }

    @Test("C.6: responses with Huffman coding and eviction from a 256-byte table")
    func huffmanResponsesWithEviction() throws {
        var decoder = HPACKDecoder(maximumTableSize: 256)
        let first = Self.bytes("""
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718
            63c7 8f0b 97c8 e9ae 82ae 43d3
            """)
        #expect(Self.pairs(try decoder.decode(first)) == [":status: 302", "cache-control: private",
                                                         "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"])
        #expect(Self.pairs(try decoder.decode(Self.bytes("4883 640e ffc1 c0bf")))
                == [":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"])
        let third = Self.bytes("""
            88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7
            b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07
            """)
        #expect(Self.pairs(try decoder.decode(third)) == [
            ":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT",
            "location: https://www.example.com", "content-encoding: gzip",
            "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"])
    }

    @Test("what the encoder writes, the decoder reads back")
    func roundTrip() throws {
        let headers: [(name: String, value: String)] = [
            (":method", "POST"), (":scheme", "https"), (":authority", "api.push.apple.com"),
            (":path", "/3/device/" + String(repeating: "ab", count: 32)), ("authorization", "bearer " + String(repeating: "x", count: 300)),
            ("apns-topic", "com.powdermeet.PowderMeet"), ("apns-push-type", "alert"), ("content-length", "120"),
        ]
        var decoder = HPACKDecoder()
        #expect(Self.pairs(try decoder.decode(HPACKEncoder.encode(headers))) == Self.pairs(headers))
    }

    @Test("malformed blocks are refused, not misread")
    func refusesMalformedBlocks() {
        var decoder = HPACKDecoder()
        #expect(throws: HTTP2Error.self) { try decoder.decode([0xFF]) }            // an integer cut short
        #expect(throws: HTTP2Error.self) { try decoder.decode([0xBE]) }            // index 62: an empty dynamic table
        #expect(throws: HTTP2Error.self) { try decoder.decode([0x40, 0x85, 0x00]) } // a string running past the block
        #expect(throws: HTTP2Error.self) { try decoder.decode([0x00, 0x81, 0x00, 0x00]) } // Huffman padding that is not all ones
        #expect(throws: HTTP2Error.self) { try decoder.decode([0x3F, 0xE2, 0x1F]) } // a table larger than we allow
    }
}
