#if canImport(Glibc)
import Glibc
#endif
import Digest
import Foundation
import Gateway
import Postgres
import SummitDatabase
import SummitTestSupport
import Testing

/// The hosted platform's Python client library (`supabase` from PyPI) against two
/// `summit serve` processes on one fresh database, and through nginx with TLS in
/// front of the first (deploy/nginx/summit.conf): each Tests/Compatibility/compat*.py.
@Suite(.serialized) struct CompatibilitySuiteTests {
    @Test(.timeLimit(.minutes(10)))
    func theSupabasePythonClientWorksAgainstSummitServe() async throws {
        let python = try await CompatibilityEnvironment.python()
        try await withFreshDatabase { database in
            try await withTemporaryFolder { folder in
                let (keys, values) = try CompatibilityEnvironment.configurationFile(in: folder)
                // Mail goes to a local SMTP server (aiosmtpd) whose mailbox the auth suite reads.
                let mailbox = folder.appendingPathComponent("mailbox.jsonl")
                let smtp = try ChildProcess(python, [CompatibilityEnvironment.root.appendingPathComponent("Tests/Compatibility/smtp_standin.py").path,
                                                     mailbox.path], in: folder)
                let smtpPort = try await smtp.line(startingWith: "listening ")
                // Access tokens signed with ES256 after a rotation: the earlier key still verifies its tokens.
                // Apple's and Google's key sets are the test's own: Apple's a file, Google's served over HTTP.
                let keyFiles = try Self.keys(in: folder)
                let jwksServer = try ChildProcess(python, ["-m", "http.server", "--bind", "127.0.0.1", "--directory", keyFiles.folder.path, "0"],
                                                  environment: ["PYTHONUNBUFFERED": "1"], in: keyFiles.folder)
                let served = try await jwksServer.line(startingWith: "Serving HTTP on 127.0.0.1 port ")
                let jwksPort = served.prefix { $0.isNumber }
                let environment = [
                    "DATABASE_URL": database.conninfo, "SUMMIT_GATEWAY_CONFIG": keys.path,
                    "SUMMIT_SMTP_URL": "smtp://127.0.0.1:\(smtpPort)", "SUMMIT_SMTP_SENDER": "auth@summit.test",
                    "SUMMIT_SITE_URL": "https://app.summit.test", "SUMMIT_AUTH_REDIRECT_URLS": "powdermeet://",
                    "SUMMIT_AUTH_ANONYMOUS_SIGN_INS": "on", "SUMMIT_AUTH_MAIL_INTERVAL": "1",
                    AuthSettings.Key.oauthServer: "on", AuthSettings.Key.oauthDynamicRegistration: "on",
                    // Every suite signs in from this machine's one address; the account limit is the one under test,
                    // with a short window so the suite can wait it out.
                    "SUMMIT_AUTH_RATE_LIMITS": "sign_in=100000/300,refresh=100000/300,verify=100000/300,mail=100000/3600,account_failures=20/12",
                    GatewayConfiguration.Key.signingKey: keyFiles.signing.path,
                    GatewayConfiguration.Key.previousKeys: keyFiles.previous.path,
                    IdentityProvider.Key.clientIDs("apple"): "app.summit.test,app.summit.test.web",
                    IdentityProvider.Key.keySet("apple"): keyFiles.appleKeySet.path,
                    IdentityProvider.Key.clientIDs("google"): "summit-test.apps.googleusercontent.com",
                    IdentityProvider.Key.keySet("google"): "http://127.0.0.1:\(jwksPort)/google-jwks.json",
                ]
                let summit = productsDirectory.appendingPathComponent("summit").path
                // A published synthetic resort with a status sidecar, for the apps' graph fetch (the demo's pipeline).
                let demo = try ChildProcess(summit, ["demo", "--resort", "compat-graph", "--out", folder.appendingPathComponent("demo").path],
                                            environment: ["DATABASE_URL": database.conninfo], in: folder)
                let demoStatus = await demo.wait(timeout: .seconds(120))
                try #require(demoStatus == 0, "summit demo: \(demo.stderr.suffix(2000))")
                // A 3D pack for it (a USDZ is a zip: a local file header, then the model).
                let pack = folder.appendingPathComponent("compat-graph.usdz")
                try Data([0x50, 0x4B, 0x03, 0x04] + Array("a resort model, not really".utf8)).write(to: pack)
                let packed = try ChildProcess(summit, ["resort", "pack", "add", "compat-graph", pack.path],
                                              environment: ["DATABASE_URL": database.conninfo], in: folder)
                try #require(await packed.wait(timeout: .seconds(60)) == 0, "summit resort pack add: \(packed.stderr.suffix(2000))")
                let first = try ChildProcess(summit, ["serve", "--port", "0"], environment: environment, in: folder)
                let second = try ChildProcess(summit, ["serve", "--port", "0"], environment: environment, in: folder)
                // The same database with addresses confirmed by mail, and with sign-ups closed (and no OAuth server).
                let confirming = try ChildProcess(summit, ["serve", "--port", "0"],
                                                  environment: environment.merging([AuthSettings.Key.autoconfirm: "off"]) { $1 }, in: folder)
                let closed = try ChildProcess(summit, ["serve", "--port", "0"],
                                              environment: environment.merging([AuthSettings.Key.signUps: "off", AuthSettings.Key.oauthServer: "off"]) { $1 }, in: folder)
                var nginx: ChildProcess?
                do {
                    let a = try await first.line(startingWith: "listening on ")
                    let b = try await second.line(startingWith: "listening on ")
                    let c = try await confirming.line(startingWith: "listening on ")
                    let d = try await closed.line(startingWith: "listening on ")
                    let proxy = try await CompatibilityEnvironment.nginx(in: folder, upstream: a)
                    nginx = proxy.process
                    let config: [String: Any] = [
                        "a": a, "b": b, "confirming": c, "closed": d, "anon": values[GatewayConfiguration.Key.anonKey]!,
                        "service": values[GatewayConfiguration.Key.serviceRoleKey]!, "secret": values[GatewayConfiguration.Key.jwtSecret]!,
                        "powdermeet_anon": values[AppFace.powdermeet.anonKeyName]!, "airstrive_anon": values[AppFace.airstrive.anonKeyName]!,
                        "graph_resort": "compat-graph", "graph_resort_pack": pack.path,
                        "tls": proxy.url,
                        "mailbox": mailbox.path, "previous_key": keyFiles.previous.path,
                        "apple_key": keyFiles.apple.path, "google_key": keyFiles.google.path,
                    ]
                    let configFile = folder.appendingPathComponent("compat.json")
                    try JSONSerialization.data(withJSONObject: config).write(to: configFile)
                    // Each file is a suite of its own on the same servers, in name order.
                    let folderURL = CompatibilityEnvironment.root.appendingPathComponent("Tests/Compatibility")
                    let suites = try FileManager.default.contentsOfDirectory(atPath: folderURL.path)
                        .filter { $0.hasPrefix("compat") && $0.hasSuffix(".py") }.sorted()
                    #expect(suites.contains("compat.py"), "\(suites)")
                    for suite in suites {
                        let run = try ChildProcess(python, [folderURL.appendingPathComponent(suite).path, configFile.path],
                                                   environment: ["SSL_CERT_FILE": proxy.certificate, "PYTHONUNBUFFERED": "1"], in: folder)
                        let status = await run.wait(timeout: .seconds(240))
                        #expect(status == 0, "\(suite) failed:\n\(run.stdout)\n\(run.stderr.suffix(4000))")
                        if suite == "compat.py" {
                            #expect(run.stdout.contains("through nginx (wss): a broadcast comes back"), "\(run.stdout)")
                        }
                        print("# \(suite)\n" + run.stdout)
                    }
                } catch {
                    Issue.record("\(error)\nfirst: \(first.stderr.suffix(1500))\nsecond: \(second.stderr.suffix(1500))")
                }
                await nginx?.stop(SIGQUIT)
                _ = await smtp.stop()
                _ = await jwksServer.stop()
                // A graceful stop: interrupt drains and exits 0.
                #expect(await first.stop() == 0, "first summit serve: \(first.stderr.suffix(1500))")
                #expect(await second.stop() == 0, "second summit serve: \(second.stderr.suffix(1500))")
                #expect(await confirming.stop() == 0, "confirming summit serve: \(confirming.stderr.suffix(1500))")
                #expect(await closed.stop() == 0, "closed summit serve: \(closed.stderr.suffix(1500))")
            }
        }
    }
}

extension CompatibilitySuiteTests {
    /// The signing key and the one it replaced; Apple's and Google's private keys (for the
    /// suite to sign ID tokens with) and their public key sets.
    struct KeyFiles {
        var folder: URL
        var signing: URL
        var previous: URL
        var apple: URL
        var google: URL
        var appleKeySet: URL
    }

    static func keys(in folder: URL) throws -> KeyFiles {
        let keys = folder.appendingPathComponent("keys")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        let files = KeyFiles(folder: keys, signing: keys.appendingPathComponent("signing.pem"),
                             previous: keys.appendingPathComponent("previous.pem"), apple: keys.appendingPathComponent("apple.pem"),
                             google: keys.appendingPathComponent("google.pem"), appleKeySet: keys.appendingPathComponent("apple-jwks.json"))
        for (file, algorithm) in [(files.signing, JWSKey.Algorithm.es256), (files.previous, .es256), (files.apple, .rs256), (files.google, .rs256)] {
            try JWSKey.generate(algorithm).pem.write(to: file, atomically: true, encoding: .utf8)
        }
        for (file, set) in [(files.apple, files.appleKeySet), (files.google, keys.appendingPathComponent("google-jwks.json"))] {
            let key = try JWSKey(pem: String(contentsOf: file, encoding: .utf8))
            try JSONSerialization.data(withJSONObject: ["keys": [key.publicJWK]]).write(to: set)
        }
        return files
    }
}

/// What the suite needs around it: a virtualenv with the client from PyPI, a
/// DATABASE_URL for a test database, and nginx with a self-signed certificate.
enum CompatibilityEnvironment {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `gateway.env` in `folder`: a new secret, the project's keys and each app's own pair
    /// (their requests address their faces); the file and its values.
    static func configurationFile(in folder: URL) throws -> (file: URL, values: [String: String]) {
        let file = folder.appendingPathComponent("gateway.env")
        let project = GatewayConfiguration.generateKeys()
        let secret = GatewayConfiguration.parseEnvironmentFile(project)[GatewayConfiguration.Key.jwtSecret]!
        try (project + AppFace.allCases.map { GatewayConfiguration.generateKeys(for: $0, secret: Array(secret.utf8)) }.joined())
            .write(to: file, atomically: true, encoding: .utf8)
        return (file, GatewayConfiguration.parseEnvironmentFile(try String(contentsOf: file, encoding: .utf8)))
    }

    /// `.build/gateway-venv/bin/python` with the client from PyPI (scripts/test makes it; made here if missing).
    static func python() async throws -> String {
        try await GatewayPython.python(workspace: root)
    }

    struct Proxy {
        var process: ChildProcess
        var url: String
        var certificate: String
    }

    /// nginx on a free port with deploy/nginx/summit.conf (addresses and certificate paths
    /// swapped for local ones), proxying to `upstream` (http://host:port).
    static func nginx(in folder: URL, upstream: String) async throws -> Proxy {
        let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else {
            throw ChildProcess.Failure(description: "nginx is not installed: run scripts/packages --test (it installs nginx)")
        }
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let openssl = try ChildProcess("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                                        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                                                        "-keyout", key, "-out", certificate], in: folder)
        guard await openssl.wait(timeout: .seconds(60)) == 0 else {
            throw ChildProcess.Failure(description: "openssl could not make a certificate: \(openssl.stderr.suffix(800))")
        }
        let tlsPort = try freePort(), plainPort = try freePort()
        var site = try String(contentsOf: root.appendingPathComponent("deploy/nginx/summit.conf"), encoding: .utf8)
        let target = upstream.replacingOccurrences(of: "http://", with: "")
        for (from, to) in [("server 127.0.0.1:8000;", "server \(target);"),
                           ("listen 443 ssl;", "listen 127.0.0.1:\(tlsPort) ssl;"),
                           ("listen 80;", "listen 127.0.0.1:\(plainPort);"),
                           ("/etc/ssl/summit/fullchain.pem", certificate),
                           ("/etc/ssl/summit/privkey.pem", key)] {
            guard site.contains(from) else {
                throw ChildProcess.Failure(description: "deploy/nginx/summit.conf no longer holds \"\(from)\": update this test with it")
            }
            site = site.replacingOccurrences(of: from, with: to)
        }
        try site.write(to: folder.appendingPathComponent("summit.conf"), atomically: true, encoding: .utf8)
        let temp = folder.path
        let main = """
            worker_processes 1;
            pid \(temp)/nginx.pid;
            error_log \(temp)/nginx-error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(temp)/nginx-body;
                proxy_temp_path \(temp)/nginx-proxy;
                fastcgi_temp_path \(temp)/nginx-fastcgi;
                uwsgi_temp_path \(temp)/nginx-uwsgi;
                scgi_temp_path \(temp)/nginx-scgi;
                include \(temp)/summit.conf;
            }
            """
        let conf = folder.appendingPathComponent("nginx.conf").path
        try main.write(toFile: conf, atomically: true, encoding: .utf8)
        let check = try ChildProcess(binary, ["-t", "-p", temp, "-c", conf], in: folder)
        guard await check.wait(timeout: .seconds(30)) == 0 else {
            throw ChildProcess.Failure(description: "nginx -t refused the configuration: \(check.stderr.suffix(1500))")
        }
        let process = try ChildProcess(binary, ["-p", temp, "-c", conf, "-g", "daemon off;"], in: folder)
        // Ready once it accepts connections.
        let deadline = ContinuousClock.now + .seconds(20)
        while (try? RawClient(port: tlsPort)) == nil {
            guard ContinuousClock.now < deadline else {
                throw ChildProcess.Failure(description: "nginx did not listen on \(tlsPort): \(process.stderr.suffix(1500))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return Proxy(process: process, url: "https://localhost:\(tlsPort)", certificate: certificate)
    }

    /// A port nobody listens on right now (bound to port 0, read back, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ChildProcess.Failure(description: "cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
