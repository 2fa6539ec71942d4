import Foundation
import Gateway
import MeetSolver
import MountainGraph

/// A meet drawn on its resort: every run (by difficulty), lift and
/// connector, closed edges, both routes, the starts, the meeting point and
/// the alternates — as GeoJSON for map tools and as an SVG picture.
struct MeetPicture: Sendable {
    let graph: MountainGraph
    let result: MeetingResult?
    /// Skier id → name.
    let names: [String: String]
    let title: String

    static let routeColours = ["#ff6a00", "#b000ff"]

    /// The part of each edge a route charges: a directed start's remainder only.
    func routeLine(_ route: MeetRoute) -> [Coordinate] {
        var points: [Coordinate] = []
        for (index, id) in route.edgeIDs.enumerated() {
            guard let edge = edgeByID[id] else { continue }
            var geometry = edge.geometry
            if index == 0, case let .edge(startEdge, fraction) = route.origin, startEdge == id {
                geometry = Self.remainder(of: geometry, after: fraction)
            }
            points += points.isEmpty ? geometry : Array(geometry.dropFirst())
        }
        if points.isEmpty, case let .node(id) = route.origin, let node = graph.node(id: id) { points = [node.coordinate] }
        return points
    }

    private var edgeByID: [String: GraphEdge] { Dictionary(uniqueKeysWithValues: graph.edges.map { ($0.id, $0) }) }

    /// The polyline from `fraction` of its length to its end.
    static func remainder(of line: [Coordinate], after fraction: Double) -> [Coordinate] {
        let lengths = zip(line, line.dropFirst()).map { Geo.distance($0, $1) }
        let total = lengths.reduce(0, +)
        guard total > 0, fraction > 0 else { return line }
        var skip = total * fraction
        for (index, length) in lengths.enumerated() {
            if skip <= length {
                let share = length > 0 ? skip / length : 0
                let a = line[index], b = line[index + 1]
                let cut = Coordinate(lat: a.lat + (b.lat - a.lat) * share, lon: a.lon + (b.lon - a.lon) * share)
                return [cut] + line[(index + 1)...]
            }
            skip -= length
        }
        return [line[line.count - 1]]
    }

    // MARK: GeoJSON

    func geoJSON() throws -> [UInt8] {
        var features: [[String: Any]] = []
        func line(_ coordinates: [Coordinate]) -> [String: Any] {
            ["type": "LineString", "coordinates": coordinates.map { [$0.lon, $0.lat] }]
        }
        func point(_ c: Coordinate) -> [String: Any] { ["type": "Point", "coordinates": [c.lon, c.lat]] }
        for edge in graph.edges {
            var properties: [String: Any] = ["layer": "resort", "id": edge.id, "kind": edge.kind.rawValue, "open": edge.attributes.isOpen]
            if let difficulty = edge.attributes.difficulty { properties["difficulty"] = difficulty.wireName }
            if let name = edge.attributes.trailName { properties["name"] = name }
            features.append(["type": "Feature", "geometry": line(edge.geometry), "properties": properties])
        }
        if let result {
            let options = [result.primary] + result.alternates
            for (rank, option) in options.enumerated() {
                guard let node = graph.node(id: option.nodeID) else { continue }
                features.append(["type": "Feature", "geometry": point(node.coordinate), "properties": [
                    "layer": rank == 0 ? "meeting_point" : "alternate", "rank": rank + 1, "id": option.rendezvousPointID,
                    "name": option.displayName, "kind": option.kind, "score_s": (option.score * 10).rounded() / 10,
                ] as [String: Any]])
            }
            for (index, route) in [result.primary.routeA, result.primary.routeB].enumerated() {
                let coordinates = routeLine(route)
                let name = names[route.skierID] ?? route.skierID
                features.append(["type": "Feature", "geometry": line(coordinates), "properties": [
                    "layer": "route", "skier": name, "eta_s": (route.eta * 10).rounded() / 10,
                    "eta_std_s": (route.etaStd * 10).rounded() / 10, "stroke": Self.routeColours[index], "edges": route.edgeIDs,
                ] as [String: Any]])
                if let first = coordinates.first {
                    features.append(["type": "Feature", "geometry": point(first), "properties": ["layer": "start", "skier": name] as [String: Any]])
                }
            }
        }
        let document: [String: Any] = ["type": "FeatureCollection", "features": features]
        return Array(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
    }

    // MARK: SVG

    func svg(width: Double = 1200) -> String {
        let coordinates = graph.nodes.map(\.coordinate)
        guard let first = coordinates.first else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>" }
        var south = first.lat, north = first.lat, west = first.lon, east = first.lon
        for c in coordinates { south = min(south, c.lat); north = max(north, c.lat); west = min(west, c.lon); east = max(east, c.lon) }
        let xScale = cos((south + north) / 2 * .pi / 180)
        let spanX = max((east - west) * xScale, 1e-6), spanY = max(north - south, 1e-6)
        let margin = 40.0, header = 60.0
        let drawWidth = width - 2 * margin
        let drawHeight = drawWidth * spanY / spanX
        let height = drawHeight + 2 * margin + header + 40
        func x(_ c: Coordinate) -> Double { margin + (c.lon - west) * xScale / spanX * drawWidth }
        func y(_ c: Coordinate) -> Double { header + margin + (north - c.lat) / spanY * drawHeight }
        func path(_ points: [Coordinate]) -> String {
            points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(Self.f(x($0.element))),\(Self.f(y($0.element)))" }.joined(separator: " ")
        }
        var out: [String] = []
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.f(width))\" height=\"\(Self.f(height))\" viewBox=\"0 0 \(Self.f(width)) \(Self.f(height))\" font-family=\"Helvetica, Arial, sans-serif\">")
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"#f4f7fb\"/>")
        out.append("<text x=\"\(Self.f(margin))\" y=\"32\" font-size=\"22\" font-weight=\"bold\" fill=\"#1b2a3a\">\(Self.escape(title))</text>")
        for edge in graph.edges where !edge.isReverseTwin {
            let (colour, widthPx, dash) = Self.style(edge)
            let closed = !edge.attributes.isOpen
            out.append("<path d=\"\(path(edge.geometry))\" fill=\"none\" stroke=\"\(closed ? "#d0021b" : colour)\" stroke-width=\"\(widthPx)\""
                       + (closed || dash != nil ? " stroke-dasharray=\"\(closed ? "6 4" : dash!)\"" : "") + " stroke-linecap=\"round\" opacity=\"0.85\"/>")
        }
        var legend: [(String, String)] = []
        if let result {
            for option in result.alternates {
                guard let node = graph.node(id: option.nodeID) else { continue }
                out.append("<circle cx=\"\(Self.f(x(node.coordinate)))\" cy=\"\(Self.f(y(node.coordinate)))\" r=\"6\" fill=\"#ffffff\" stroke=\"#1b2a3a\" stroke-width=\"2\"/>")
            }
            for (index, route) in [result.primary.routeA, result.primary.routeB].enumerated() {
                let line = routeLine(route)
                let colour = Self.routeColours[index]
                out.append("<path d=\"\(path(line))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"6\" stroke-linejoin=\"round\" stroke-linecap=\"round\" opacity=\"0.9\"/>")
                if let start = line.first {
                    out.append("<circle cx=\"\(Self.f(x(start)))\" cy=\"\(Self.f(y(start)))\" r=\"8\" fill=\"\(colour)\" stroke=\"#ffffff\" stroke-width=\"2\"/>")
                }
                let name = names[route.skierID] ?? route.skierID
                legend.append((colour, "\(name): \(MeetPlanPrintout.duration(route.eta)) ± \(MeetPlanPrintout.duration(route.etaStd))"))
            }
            if let node = graph.node(id: result.primary.nodeID) {
                let cx = x(node.coordinate), cy = y(node.coordinate)
                out.append("<circle cx=\"\(Self.f(cx))\" cy=\"\(Self.f(cy))\" r=\"13\" fill=\"#ffd400\" stroke=\"#1b2a3a\" stroke-width=\"3\"/>")
                out.append("<text x=\"\(Self.f(cx + 16))\" y=\"\(Self.f(cy - 12))\" font-size=\"16\" font-weight=\"bold\" fill=\"#1b2a3a\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\">\(Self.escape(result.primary.displayName))</text>")
            }
        }
        var legendX = margin
        let legendY = height - 24
        for (colour, text) in legend + [("#2e9e44", "green"), ("#1f5fd1", "blue"), ("#111111", "black"), ("#7a7a7a", "lift"), ("#d0021b", "closed")] {
            out.append("<rect x=\"\(Self.f(legendX))\" y=\"\(Self.f(legendY - 12))\" width=\"16\" height=\"6\" fill=\"\(colour)\"/>")
            out.append("<text x=\"\(Self.f(legendX + 22))\" y=\"\(Self.f(legendY - 6))\" font-size=\"14\" fill=\"#1b2a3a\">\(Self.escape(text))</text>")
            legendX += 34 + Double(text.count) * 7.5
        }
        // Without a meet (a resort drawn alone), the note speaks of the map only.
        let note = (result == nil ? "" : "yellow: meeting point · white: alternates · ") + "map data © OpenStreetMap contributors where the resort is real"
        out.append("<text x=\"\(Self.f(width - margin))\" y=\"\(Self.f(height - 8))\" font-size=\"11\" text-anchor=\"end\" fill=\"#5a6b7c\">\(note)</text>")
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    static func style(_ edge: GraphEdge) -> (colour: String, width: Double, dash: String?) {
        switch edge.kind {
        case .lift: return ("#7a7a7a", 2.5, "8 5")
        case .traverse: return ("#9aa7b4", 1.5, "2 3")
        case .run:
            switch edge.attributes.difficulty {
            case .green?: return ("#2e9e44", 2.5, nil)
            case .blue?, nil: return ("#1f5fd1", 2.5, nil)
            case .black?: return ("#111111", 2.5, nil)
            case .doubleBlack?: return ("#111111", 2.5, "10 3")
            case .terrainPark?: return ("#f08c00", 2.5, nil)
            }
        }
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String { Markup.escape(text) }
}
