/// What an Overpass API answer says about itself beside its nodes and ways,
/// read before the answer is trusted: the `remark` Overpass appends when a
/// query fails part-way (it still answers 200, with whatever elements it had),
/// the data timestamp, and the ways that are there only as relation members
/// (a query's `way(r)` brings them in wherever they lie).
public struct OverpassAnswer: Sendable {
    /// `"runtime error: Query timed out in \"query\" at line 3 after 181 seconds."`
    public private(set) var remark: String?
    /// `osm3s.timestamp_osm_base`.
    public private(set) var timestampOSMBase: String?
    public private(set) var nodeCount = 0
    public private(set) var wayCount = 0
    public private(set) var relationCount = 0
    /// The ids of the ways some relation of the answer lists as a member.
    public private(set) var relationWayMembers: Set<Int64> = []

    /// Reads the whole document: a cut-short or malformed one throws `.json`
    /// with the byte offset where it stops making sense.
    public init(bytes: [UInt8]) throws(OSMError) {
        var answer = Self()
        try OSMError.reading(other: OSMError.notOverpassJSON) {
            var scanner = try JSONScanner(bytes: bytes)
            guard scanner.peek() == UInt8(ascii: "{") else {
                throw OSMError.notOverpassJSON("the document is not a JSON object")
            }
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                switch key {
                case "remark":
                    answer.remark = try scanner.readNullIfPresent() ? nil : try scanner.readString()
                case "osm3s":
                    try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                        if key == "timestamp_osm_base", !(try scanner.readNullIfPresent()) {
                            answer.timestampOSMBase = try scanner.readString()
                        } else {
                            try scanner.skipValue()
                        }
                    }
                case "elements":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
                        try answer.readElement(&scanner)
                    }
                default:
                    try scanner.skipValue()
                }
            }
            guard scanner.atEnd() else { throw OSMError.json(scanner.error("unexpected content after the document")) }
        }
        self = answer
    }

    private init() {}

    private mutating func readElement(_ scanner: inout JSONScanner) throws(JSONError) {
        var type: String?
        var members: [Int64] = []
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
            switch key {
            case "type":
                type = try scanner.readString()
            case "members":
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONError) in
                    var memberType: String?
                    var ref: Int64?
                    try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                        switch key {
                        case "type": memberType = try scanner.readString()
                        case "ref": ref = try scanner.readInt64()
                        default: try scanner.skipValue()
                        }
                    }
                    if memberType == "way", let ref { members.append(ref) }
                }
            default:
                try scanner.skipValue()
            }
        }
        switch type {
        case "node": nodeCount += 1
        case "way": wayCount += 1
        case "relation":
            relationCount += 1
            relationWayMembers.formUnion(members)
        default: break
        }
    }
}
