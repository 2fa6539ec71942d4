import Foundation
import PostgresServer

/// The Python the gateway's compatibility suite and load benchmark run: a virtualenv
/// in `.build/gateway-venv` with the hosted platform's client (`supabase`) and
/// `websockets` from PyPI, pinned so every run tests the same versions.
public enum GatewayPython {
    public static let packages = ["supabase==2.34.1", "websockets==15.0.1"]

    /// The virtualenv's python, made (once) when missing.
    public static func python(workspace root: URL, note: @Sendable (String) -> Void = { _ in }) async throws -> String {
        let venv = root.appendingPathComponent(".build/gateway-venv")
        let python = venv.appendingPathComponent("bin/python").path
        let marker = venv.appendingPathComponent(".installed-" + packages.joined(separator: "+")).path
        if FileManager.default.fileExists(atPath: marker) { return python }
        note("creating \(venv.path) with \(packages.joined(separator: ", ")) from PyPI (once)…")
        let create = try await Subprocess(executable: "/usr/bin/env", arguments: ["python3", "-m", "venv", venv.path]).run()
        guard create.succeeded else {
            throw CLIError("cannot create a Python virtualenv: \(create.stderr.suffix(400))",
                           fix: "install python3 and python3-venv (scripts/packages --test installs them)")
        }
        let install = try await Subprocess(executable: python, arguments: [
            "-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages).run()
        guard install.succeeded else {
            throw CLIError("pip could not install \(packages.joined(separator: " ")): \(install.stderr.suffix(400))",
                           fix: "check access to PyPI, or delete .build/gateway-venv and run again")
        }
        FileManager.default.createFile(atPath: marker, contents: Data())
        return python
    }
}
