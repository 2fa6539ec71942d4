/// An Overpass API answer, read in one pass: its nodes and ways, and what it says
/// about itself beside them, read before the answer is trusted — the `remark`
/// Overpass appends when a query fails part-way (it still answers 200, with
/// whatever elements it had), the data timestamp, and the member ways of its
/// relations (a query's `>` brings them in wherever they lie).
public struct OverpassAnswer: Sendable {
    struct Header: Sendable {
        var remark: String?
        var timestampOSMBase: String?
        var relationCount = 0
        var relationWayMembers: [[Int64]] = []
    }

    public let data: OSMData
    private let header: Header

    /// `"runtime error: Query timed out in \"query\" at line 3 after 181 seconds."`
    public var remark: String? { header.remark }
    /// `osm3s.timestamp_osm_base`.
    public var timestampOSMBase: String? { header.timestampOSMBase }
    public var relationCount: Int { header.relationCount }
    /// Each relation's member ways, by id (relations without any left out).
    public var relationWayMembers: [[Int64]] { header.relationWayMembers }

    /// Reads the whole document: a cut-short or malformed one throws `.json`
    /// with the byte offset where it stops making sense.
    public init(bytes: [UInt8]) throws(OSMError) {
        self = try OSMData.readOverpassJSON(bytes)
    }

    init(data: OSMData, header: Header) {
        self.data = data
        self.header = header
    }
}
