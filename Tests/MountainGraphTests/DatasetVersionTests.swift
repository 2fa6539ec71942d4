import Testing
@testable import MountainGraph

@Suite("dataset_version strings")
struct DatasetVersionTests {
    private let sha = "9f" + String(repeating: "0123456789abcdef", count: 4).dropFirst(2)

    @Test func aCanonicalIdentityRoundTrips() throws {
        let text = "m3-v15-\(sha)"
        let version = try #require(DatasetVersion(text))
        #expect(version.manifestVersion == 3)
        #expect(version.graphVersion == "v15")
        #expect(version.contentSHA256 == sha)
        #expect(version.description == text)
    }

    @Test func previewsShortShasAndOtherShapesNeverParse() {
        for text in [
            "mlegacy-v15-s3-\(sha)",            // preview identity
            "m3-v15-\(sha.dropLast())",         // 63 hex characters
            "m3-v15-\(sha.uppercased())",       // uppercase hex
            "m3-v15-s3-\(sha)",                 // not a canonical graph version
            "m-v15-\(sha)", "m03-v15-\(sha)",   // missing or padded manifest version
            "3-v15-\(sha)", "m3-15-\(sha)", "m3-v-\(sha)",
            "m3-v15-\(sha)x", "", "m3",
        ] {
            #expect(DatasetVersion(text) == nil, "\(text) must not parse")
        }
    }

    @Test func aBlobNamesItsOwnIdentity() throws {
        let graph = try OSMFixture.smallMountain().build(manifest: nil).graph
        let blob = try graph.encodeBlob()
        #expect(blob.datasetIdentity == DatasetVersion(manifestVersion: graph.manifestVersion, graphVersion: "v15",
                                                       contentSHA256: blob.contentSHA256))
    }
}
