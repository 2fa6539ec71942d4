import Foundation

/// Six-character geohash cells (about 1.2 × 0.6 km), the `pos:cell:{geohash6}`
/// channels' names. Computed on the same 2¹⁵ × 2¹⁵ grid as the database's
/// `private.geohash6`, with the same boundary corrections, so a packet's cell
/// here is the cell the database published it on.
public enum Geohash {
    static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz")
    private static let cellWidth = 360.0 / 32768, cellHeight = 180.0 / 32768

    /// The cell holding (lat, lon); nil outside -90…90, -180…180.
    public static func cell(latitude: Double, longitude: Double) -> String? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        let x = index(longitude, origin: -180, step: cellWidth, span: 360)
        let y = index(latitude, origin: -90, step: cellHeight, span: 180)
        // Thirty bits, longitude first, interleaved; five to a letter.
        var bits = 0
        for bit in (0..<15).reversed() {
            bits = bits << 2 | (x >> bit & 1) << 1 | (y >> bit & 1)
        }
        return String((0..<6).map { alphabet[bits >> (25 - 5 * $0) & 31] })
    }

    /// The centre of a cell; nil for a name that is not six geohash letters.
    public static func center(of cell: String) -> (latitude: Double, longitude: Double)? {
        let letters = Array(cell.lowercased())
        guard letters.count == 6 else { return nil }
        var bits = 0
        for letter in letters {
            guard let value = alphabet.firstIndex(of: letter) else { return nil }
            bits = bits << 5 | value
        }
        var x = 0, y = 0
        for bit in (0..<15).reversed() {
            x = x << 1 | (bits >> (2 * bit + 1) & 1)
            y = y << 1 | (bits >> (2 * bit) & 1)
        }
        return (-90 + (Double(y) + 0.5) * cellHeight, -180 + (Double(x) + 0.5) * cellWidth)
    }

    /// Whether `cell` names a cell (six letters of the geohash alphabet).
    public static func isCell(_ cell: String) -> Bool { center(of: cell) != nil && cell == cell.lowercased() }

    private static func index(_ value: Double, origin: Double, step: Double, span: Double) -> Int {
        var index = min(32767, Int(((value - origin) / span * 32768).rounded(.down)))
        // The division can land one cell off at a boundary; the multiplication decides.
        if value < origin + Double(index) * step { index -= 1 }
        if index < 32767, value >= origin + Double(index + 1) * step { index += 1 }
        return index
    }
}
