import Foundation

/// Turns an SVG into a PNG beside it when a converter is installed
/// (rsvg-convert, ImageMagick or Inkscape); nothing otherwise.
enum SVGRasterizer {
    static func convert(_ svg: URL) -> URL? {
        let png = svg.deletingPathExtension().appendingPathExtension("png")
        let candidates: [(String, [String])] = [
            ("rsvg-convert", ["-o", png.path, svg.path]),
            ("magick", [svg.path, png.path]),
            ("convert", [svg.path, png.path]),
            ("inkscape", [svg.path, "--export-filename=\(png.path)"]),
        ]
        for (tool, arguments) in candidates {
            guard let executable = find(tool) else { continue }
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            process.waitUntilExit()
            if process.terminationStatus == 0, FileManager.default.fileExists(atPath: png.path) { return png }
        }
        return nil
    }

    private static func find(_ tool: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(tool)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }
}
