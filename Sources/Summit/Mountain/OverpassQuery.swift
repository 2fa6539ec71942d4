import CurlClient
import MountainGraph

/// The Overpass QL that selects a resort's ski features in its catalog box,
/// by the rules the shared extracts were cut with: ways tagged `piste:type`,
/// `aerialway` (stations and pylons too), `railway=funicular` or
/// `landuse=winter_sports`; relations tagged `piste:type`, `route=piste|ski`,
/// `site=piste` or `landuse=winter_sports` with their member ways; nodes on
/// their own tagged `aerialway` or `piste:*`; and every node those ways use.
/// `out body` writes nodes, then ways, then relations, each by id.
struct OverpassQuery: Sendable {
    let box: OSMBoundingBox
    /// Overpass stops a query that runs longer (`[timeout:]`).
    let timeoutSeconds: Int
    /// The memory Overpass may use for it (`[maxsize:]`), and the largest answer taken.
    let maximumBytes: Int

    var text: String {
        let b = "(\(box.text))"
        return """
            [out:json][timeout:\(timeoutSeconds)][maxsize:\(maximumBytes)];
            (
              way["piste:type"]\(b);
              way["aerialway"]\(b);
              way["railway"="funicular"]\(b);
              way["landuse"="winter_sports"]\(b);
              relation["piste:type"]\(b);
              relation["route"~"^(piste|ski)$"]\(b);
              relation["site"="piste"]\(b);
              relation["landuse"="winter_sports"]\(b);
              node["aerialway"]\(b);
              node[~"^piste:"~"."]\(b);
            );
            (._; >;);
            out body;
            """
    }

    /// `data=<query>` as an HTML form posts it, which every Overpass interpreter takes.
    var formBody: [UInt8] { Array(FormEncoding.encoded([("data", text)]).utf8) }
}
