import Foundation
import MountainGraph

/// `summit resort fetch RESORT`: the resort's ski features from an Overpass
/// API server for its catalog box, checked, stored as an ingest stores a file.
extension ResortCommand {
    static let fetchCommand = Command(
        name: "fetch",
        summary: "Ask Overpass for the ski features in the resort's catalog box and store the answer as its snapshot, as ingest does.",
        discussion: """
            The query selects what the shared extracts hold: ways tagged piste:type, aerialway (stations and pylons \
            too), railway=funicular or landuse=winter_sports; relations tagged piste:type, route=piste|ski, \
            site=piste or landuse=winter_sports with their member ways; nodes tagged aerialway or piste:*; and \
            every node those ways use (--print-query shows it). One request at a time, with a User-Agent naming \
            Summit; a 429, 502, 503 or 504 or a broken connection is retried (--retries) after the wait its \
            Retry-After asks for, else 5 s doubling, all within --timeout. The answer is refused, with nothing \
            stored, when it is cut short, carries an Overpass runtime-error remark, lacks a node its ways use, \
            lies outside the box (each way must come within 0.05° of it, unless a relation with a way in the box brought it in) or holds no run or lift a graph could be built from. Otherwise it is \
            stored byte for byte under the date of its data (osm3s.timestamp_osm_base) with the SRTM tiles \
            --dem-dir holds for the box and wherever its ways reach, exactly as summit resort ingest RESORT --osm ANSWER --elevation TILE… \
            would, and the review report follows. An answer with the same nodes and ways as the resort's stored \
            snapshot (and the same elevation) stores nothing.
            """,
        arguments: [Command.Argument(name: "RESORT", help: "the resort's catalog id (or its name or an alias)")],
        options: [
            .value("--overpass", "URL", "the Overpass API interpreter (default \(OverpassClient.defaultEndpoint))"),
            .value("--dem-dir", "DIR", "the folder of SRTM tiles (N42E001.hgt.zip, …); the ones covering the box are stored"),
            .flag("--assume-flat", "no elevation: build ways flat, in drawing direction"),
            .flag("--print-query", "print the Overpass query for the resort's box and ask nothing"),
            .value("--timeout", "SECONDS", "the whole fetch, retries included; the query's [timeout:] is a little less (default 300)"),
            .value("--retries", "N", "attempts after the first when the server is busy (default 3, at most 10)"),
            .value("--max-mib", "N", "the largest answer taken, and the query's [maxsize:] (default 128)"),
            json,
        ],
        run: { invocation in
            let timeout = try invocation.wholeNumber("--timeout", default: 300)
            let retries = try invocation.wholeNumber("--retries", default: 3, minimum: 0)
            guard retries <= 10 else { throw CLIError.usage("--retries goes up to 10", command: invocation.commandPath) }
            let maximumMiB = try invocation.wholeNumber("--max-mib", default: 128)
            guard maximumMiB <= 2048 else { throw CLIError.usage("--max-mib goes up to 2048", command: invocation.commandPath) }
            let text = invocation.value("--overpass") ?? OverpassClient.defaultEndpoint
            guard let endpoint = URL(string: text), ["http", "https"].contains(endpoint.scheme?.lowercased() ?? ""), endpoint.host != nil else {
                throw CLIError.usage("--overpass \(text) is not an http(s) URL", command: invocation.commandPath)
            }
            let demDirectory = invocation.value("--dem-dir").map { URL(fileURLWithPath: $0) }
            let printOnly = invocation.flag("--print-query")
            // Exactly one of the two, so an answer is never fetched only to be refused for want of elevation.
            guard printOnly || (demDirectory != nil) != invocation.flag("--assume-flat") else {
                throw CLIError.usage("\(invocation.commandPath) needs either --dem-dir DIR (elevation from SRTM tiles) or --assume-flat (none)",
                                     command: invocation.commandPath)
            }

            let (resortID, box) = try await pipeline(invocation) { try await $0.catalogResort(invocation.arguments[0]) }
            // The server is asked to give up a little before this side does, so its remark arrives.
            let query = OverpassQuery(box: box, timeoutSeconds: max(1, timeout - max(5, timeout / 10)), maximumBytes: maximumMiB << 20)
            if printOnly {
                invocation.console.out(query.text)
                return 0
            }
            let console = invocation.console
            // The box's tiles are checked before asking, so a missing one costs no download.
            if let demDirectory { _ = try ElevationInput.srtmTileFiles(in: demDirectory, covering: box) }
            let client = OverpassClient(endpoint: endpoint, timeLimit: .seconds(timeout), retries: retries)
            let answer = try await client.ask(query) { console.note($0) }
            console.note("checking the answer…")
            let checked = try CheckedOverpassAnswer(bytes: answer.bytes, box: box, from: endpoint.host ?? text)
            // The ways may reach past the box: their tiles too, or none of it is stored.
            let reach = checked.reach(beyond: box)
            let elevation = try demDirectory.map { try ElevationInput.srtmTiles(in: $0, covering: reach) } ?? []
            if let demDirectory {
                console.note("elevation for \(reach.text): \(elevation.map(\.fileName).joined(separator: ", ")) from \(demDirectory.path)")
            }
            var request = IngestRequest(resortID: resortID, extract: checked.extract)
            request.elevation = elevation
            request.elevationPolicy = demDirectory == nil ? .assumeFlat : .fail
            let (unchangedAs, ingested) = try await pipeline(invocation) { [request] pipeline -> (String?, IngestPrintout?) in
                if let same = try await pipeline.storedSnapshot(like: request) { return (same, nil) }
                return (nil, try await pipeline.ingestAndReport(request) { console.note($0) })
            }
            let printout = FetchPrintout(request: request, endpoint: endpoint.absoluteString, box: box, checked: checked, attempts: answer.attempts,
                                         unchangedAs: unchangedAs, ingest: ingested)
            if invocation.json {
                try console.json(printout)
            } else {
                console.out(printout.text(request))
            }
            return 0
        })
}
