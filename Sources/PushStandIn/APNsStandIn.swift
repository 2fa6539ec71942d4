import Foundation
import SummitDatabase
import Push

/// Tests/APNsStandIn/apns_standin.py — an HTTP/2 server on loopback built on the
/// `h2` library, verifying each provider token with the public key — running in
/// the gateway's virtualenv, with a fresh ES256 key pair made by openssl. The
/// push tests and `summit bench push` talk to it as APNs.
public final class APNsStandIn: @unchecked Sendable {
    public static let teamID = "TEAM123456"
    public static let keyID = "KEY1234567"
    public static let topic = "com.powdermeet.PowderMeet"

    let process: Process
    public let port: Int
    public let logPath: String
    public let keyPEM: String
    /// The certificate it serves, when it speaks TLS.
    public let certificate: String?

    /// Starts the stand-in in `folder` of the checkout at `root`: cleartext h2c, or TLS with
    /// ALPN h2 when `tls` (its certificate names `certificateHost`, and 127.0.0.1 when that is
    /// localhost), answering each request `delayMilliseconds` after it came, as a far server does.
    public init(in folder: URL, workspace root: URL, tls: Bool = false, certificateHost: String = "localhost",
                delayMilliseconds: Double = 0, note: @Sendable (String) -> Void = { _ in }) async throws {
        let python = try await GatewayPython.python(workspace: root, note: note)
        let key = folder.appendingPathComponent("AuthKey.p8").path
        let publicKey = folder.appendingPathComponent("public.pem").path
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        try Self.openssl(["pkey", "-in", key, "-pubout", "-out", publicKey])
        keyPEM = try String(contentsOfFile: key, encoding: .utf8)
        logPath = folder.appendingPathComponent("standin-\(UUID().uuidString.prefix(6)).jsonl").path
        var arguments = [root.appendingPathComponent("Tests/APNsStandIn/apns_standin.py").path,
                         "--public-key", publicKey, "--team-id", Self.teamID, "--key-id", Self.keyID,
                         "--topic", Self.topic, "--log", logPath, "--delay-ms", String(delayMilliseconds)]
        if tls {
            let cert = folder.appendingPathComponent("standin-cert-\(UUID().uuidString.prefix(6)).pem").path
            let certKey = folder.appendingPathComponent("standin-key-\(UUID().uuidString.prefix(6)).pem").path
            let names = "DNS:\(certificateHost)" + (certificateHost == "localhost" ? ",IP:127.0.0.1" : "")
            try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                              "-subj", "/CN=\(certificateHost)", "-addext", "subjectAltName=\(names)",
                              "-keyout", certKey, "-out", cert])
            arguments += ["--cert", cert, "--key", certKey]
            certificate = cert
        } else {
            certificate = nil
        }
        let output = folder.appendingPathComponent("standin-\(UUID().uuidString.prefix(6)).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        self.process = process
        // It prints "listening PORT" once it accepts connections (python and h2 may
        // take a few seconds to import on a busy machine).
        let deadline = Date().addingTimeInterval(60)
        var port: Int?
        while port == nil {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening ") }) {
                port = Int(line.dropFirst("listening ".count))
            } else if !process.isRunning || Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                throw SetupError("the APNs stand-in did not start: \(text.suffix(2000))",
                               fix: "run scripts/gateway-venv (it installs h2 and cryptography from PyPI)")
            } else {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        self.port = port!
    }

    /// Where it listens: http://127.0.0.1:PORT, or https://localhost:PORT with TLS.
    public var url: URL {
        URL(string: certificate == nil ? "http://127.0.0.1:\(port)" : "https://localhost:\(port)")!
    }

    /// An APNs configuration aimed at this stand-in for both environments
    /// (or, for `sandbox`, at another address), trusting its certificate.
    public func configuration(sandbox: URL? = nil) -> APNsConfiguration {
        APNsConfiguration(teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: keyPEM, topic: Self.topic,
                          productionURL: url, sandboxURL: sandbox ?? url, caFile: certificate, timeout: .seconds(20))
    }

    /// What it received so far, one record per request it answered.
    public func records() -> [[String: Any]] {
        Self.jsonLines(logPath)
    }

    /// The requests it has received so far, answered or not (connection, stream, token), in order of arrival.
    public func arrivals() -> [[String: Any]] {
        Self.jsonLines(logPath + ".arrivals")
    }

    /// Waits until a request for a token starting with `prefix` has arrived, for at most `limit`.
    public func waitForArrival(ofTokenStartingWith prefix: String, within limit: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + limit
        while !arrivals().contains(where: { ($0["token"] as? String)?.hasPrefix(prefix) == true }) {
            guard ContinuousClock.now < deadline else {
                throw SetupError("no request for a token starting with \(prefix) reached the APNs stand-in within \(limit)",
                                 fix: "see the stand-in's log \(logPath) and the client's errors")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func jsonLines(_ path: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Kills it (SIGKILL: a test process may have left SIGTERM ignored for its children).
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
    }

    static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SetupError("openssl \(arguments.prefix(2).joined(separator: " ")) failed", fix: "install openssl (scripts/packages --test)")
        }
    }

    /// A closed loopback port: a stand-in that is down.
    public static func closedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
