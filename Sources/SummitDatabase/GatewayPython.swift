import Digest
import Foundation
import PostgresServer

/// The Python the gateway's compatibility suite and load benchmark run: a virtualenv
/// in `.build/gateway-venv` with the hosted platform's client (`supabase`) and
/// `websockets` from PyPI, pinned in Tests/Compatibility/requirements.txt so every
/// run tests the same versions. `scripts/gateway-venv` makes the same one.
public enum GatewayPython {
    /// The virtualenv's python, made (once per requirements file) when missing.
    public static func python(workspace root: URL, note: @Sendable (String) -> Void = { _ in }) async throws -> String {
        let requirements = root.appendingPathComponent("Tests/Compatibility/requirements.txt")
        guard let pins = try? Data(contentsOf: requirements) else {
            throw SetupError("cannot read \(requirements.path)", fix: "run from a complete Summit checkout")
        }
        let venv = root.appendingPathComponent(".build/gateway-venv")
        let python = venv.appendingPathComponent("bin/python").path
        let marker = venv.appendingPathComponent(".installed-" + SHA256.hex(pins).prefix(16)).path
        if FileManager.default.fileExists(atPath: marker) { return python }
        note("creating \(venv.path) with the packages of \(requirements.lastPathComponent) from PyPI (once)…")
        let create = try await Subprocess(executable: "/usr/bin/env", arguments: ["python3", "-m", "venv", venv.path]).run()
        guard create.succeeded else {
            throw SetupError("cannot create a Python virtualenv: \(create.stderr.suffix(400))",
                           fix: "install python3 and python3-venv (scripts/packages --test installs them)")
        }
        let install = try await Subprocess(executable: python, arguments: [
            "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements.path]).run()
        guard install.succeeded else {
            throw SetupError("pip could not install \(requirements.path): \(install.stderr.suffix(400))",
                           fix: "check access to PyPI, or delete .build/gateway-venv and run again")
        }
        FileManager.default.createFile(atPath: marker, contents: Data())
        return python
    }
}
