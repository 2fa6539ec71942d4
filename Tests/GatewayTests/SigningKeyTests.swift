import Digest
import Foundation
import Gateway
import Testing

/// Asymmetric signing keys: ES256 and RS256 keys made, written and read back, their
/// JWKs and thumbprints, access tokens signed with them and verified across a rotation,
/// and the key set the gateway publishes.
@Suite struct SigningKeyTests {
    @Test(arguments: JWSKey.Algorithm.allCases)
    func keysSignVerifyAndRoundTrip(_ algorithm: JWSKey.Algorithm) throws {
        let key = try JWSKey.generate(algorithm)
        #expect(key.algorithm == algorithm && key.isPrivate)
        let message = Array("header.payload".utf8)
        let signature = try key.sign(message)
        if algorithm == .es256 { #expect(signature.count == 64) } else { #expect(signature.count == 256) }
        #expect(key.verify(signature, of: message))
        #expect(!key.verify(signature, of: Array("header.payloae".utf8)))
        var flipped = signature
        flipped[7] ^= 1
        #expect(!key.verify(flipped, of: message))

        // The private PEM reads back as the same key; the JWK carries the public half only.
        let reread = try JWSKey(pem: key.pem)
        #expect(reread.isPrivate && reread.kid == key.kid)
        let jwk = key.publicJWK
        #expect(jwk["d"] == nil && jwk["alg"] as? String == algorithm.rawValue && jwk["kid"] as? String == key.kid)
        let published = try JWSKey(jwk: jwk)
        #expect(!published.isPrivate && published.kid == key.kid)
        #expect(published.verify(signature, of: message))
        #expect(throws: JWSKey.Failure.notPrivate) { try published.sign(message) }
        // Another key of the same kind does not verify it.
        #expect(!(try JWSKey.generate(algorithm)).verify(signature, of: message))
    }

    /// RFC 7638 §3.1: the thumbprint of the RFC's example RSA key.
    @Test func thumbprintMatchesRFC7638() throws {
        let key = try JWSKey(jwk: [
            "kty": "RSA", "e": "AQAB",
            "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
        ])
        #expect(key.kid == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(key.algorithm == .rs256 && !key.isPrivate)
    }

    /// Private JWKs made by Python's cryptography (EC: x, y, d; RSA: n, e, d, p, q, dp, dq, qi),
    /// as GoTrue's GOTRUE_JWT_KEYS holds them, sign what the PEM of their public key, from the
    /// same library, verifies; their kid is kept.
    @Test(arguments: JWSKey.Algorithm.allCases)
    func privateJWKsFromAnotherLibrarySign(_ algorithm: JWSKey.Algorithm) async throws {
        let python = try await CompatibilityEnvironment.python()
        let script = """
            import base64, json, sys
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import ec, rsa
            def b64(value, size=None):
                raw = value.to_bytes(size or (value.bit_length() + 7) // 8, "big")
                return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
            if sys.argv[1] == "ES256":
                key = ec.generate_private_key(ec.SECP256R1())
                numbers = key.private_numbers()
                jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.public_numbers.x, 32), "y": b64(numbers.public_numbers.y, 32),
                       "d": b64(numbers.private_value, 32)}
            else:
                key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
                numbers = key.private_numbers()
                jwk = {"kty": "RSA", "n": b64(numbers.public_numbers.n), "e": b64(numbers.public_numbers.e), "d": b64(numbers.d),
                       "p": b64(numbers.p), "q": b64(numbers.q), "dp": b64(numbers.dmp1), "dq": b64(numbers.dmq1), "qi": b64(numbers.iqmp)}
            jwk["kid"] = "from-python"
            pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
            print(json.dumps({"jwk": jwk, "pem": pem}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, algorithm.rawValue]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let made = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let key = try JWSKey(jwk: try #require(made["jwk"] as? [String: Any]))
        #expect(key.isPrivate && key.kid == "from-python" && key.algorithm == algorithm)
        let message = Array("header.payload".utf8)
        #expect(try JWSKey(pem: try #require(made["pem"] as? String)).verify(try key.sign(message), of: message))
    }

    @Test func keysThatCannotBeUsedAreRefused() throws {
        #expect(throws: JWSKey.Failure.self) { try JWSKey(pem: "not a key") }
        #expect(throws: JWSKey.Failure.self) { try JWSKey(jwk: ["kty": "oct", "k": "c2VjcmV0"]) }
        #expect(throws: JWSKey.Failure.self) { try JWSKey(jwk: ["kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"]) }
        // A point that is not on the curve.
        let zero = Base64URL.encode([UInt8](repeating: 0, count: 32))
        #expect(throws: JWSKey.Failure.self) { try JWSKey(jwk: ["kty": "EC", "crv": "P-256", "x": zero, "y": zero]) }
        // A short RSA key: 1024 bits.
        let short = Base64URL.encode([0xC1] + [UInt8](repeating: 0x5B, count: 127))
        #expect(throws: JWSKey.Failure.self) { try JWSKey(jwk: ["kty": "RSA", "n": short, "e": "AQAB"]) }
    }

    @Test func tokensVerifyAcrossARotationUntilTheOldKeyIsDropped() throws {
        let secret = Array("a secret of thirty-two bytes or more!".utf8)
        let old = try JWSKey.generate(.es256), new = try JWSKey.generate(.rs256)
        let claims: [String: Any] = ["role": "authenticated", "aud": "authenticated",
                                     "sub": UUID().uuidString, "exp": Date().timeIntervalSince1970 + 600]
        let before = TokenKeys(secret: secret, signingKey: old)
        let token = try JWT.sign(claims: claims, keys: before)
        let header = try #require(JSONSerialization.jsonObject(
            with: Data(Base64URL.decode(token.split(separator: ".")[0]) ?? [])) as? [String: Any])
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == old.kid)
        #expect(try JWT.verify(token, keys: before).role == "authenticated")

        let during = TokenKeys(secret: secret, signingKey: new, previousKeys: [old])
        #expect(try JWT.verify(token, keys: during).role == "authenticated")
        let fresh = try JWT.sign(claims: claims, keys: during)
        #expect(try JWT.verify(fresh, keys: during).role == "authenticated")
        #expect((during.keySet["keys"] as? [[String: Any]])?.compactMap { $0["kid"] as? String } == [new.kid, old.kid])

        let after = TokenKeys(secret: secret, signingKey: new)
        #expect(throws: JWT.Failure.badSignature) { try JWT.verify(token, keys: after) }
        // HS256 keeps verifying with the secret (the API keys), and a forged kid does not help.
        #expect(try JWT.verify(JWT.sign(claims: claims, secret: secret), keys: after).role == "authenticated")
        let impostor = try JWSKey(pem: try JWSKey.generate(.rs256).pem, keyID: new.kid)
        #expect(throws: JWT.Failure.badSignature) {
            try JWT.verify(try JWT.sign(claims: claims, keys: TokenKeys(secret: secret, signingKey: impostor)), keys: after)
        }
    }

    @Test func theConfigurationReadsKeyFilesAndSaysWhatIsWrong() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("summit-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let current = try JWSKey.generate(.es256), earlier = try JWSKey.generate(.es256)
        let currentFile = folder.appendingPathComponent("current.pem").path
        let earlierFile = folder.appendingPathComponent("earlier.pub.pem").path
        try current.pem.write(toFile: currentFile, atomically: true, encoding: .utf8)
        try JWSKey(jwk: earlier.publicJWK).pem.write(toFile: earlierFile, atomically: true, encoding: .utf8)
        var values = GatewayConfiguration.parseEnvironmentFile(GatewayConfiguration.generateKeys())
        values[GatewayConfiguration.Key.signingKey] = currentFile
        values[GatewayConfiguration.Key.previousKeys] = earlierFile
        let configuration = try GatewayConfiguration.from(values)
        #expect(configuration.signingKey?.kid == current.kid)
        #expect(configuration.previousKeys.map(\.kid) == [earlier.kid])

        func problem(_ change: ([String: String]) -> [String: String]) -> String {
            do {
                _ = try GatewayConfiguration.from(change(values))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(problem { var v = $0; v[GatewayConfiguration.Key.signingKey] = earlierFile; return v }.contains("public key"))
        #expect(problem { var v = $0; v[GatewayConfiguration.Key.signingKey] = "/nowhere/key.pem"; return v }.contains("cannot read /nowhere/key.pem"))
        #expect(problem { var v = $0; v[GatewayConfiguration.Key.previousKeys] = currentFile; return v }.contains("twice"))
    }

    @Test func accessTokensAreSignedWithTheKeyAndItIsPublished() async throws {
        let key = try JWSKey.generate(.es256)
        try await withGateway(configure: { $0.signingKey = key }) { gateway in
            let ann = try await gateway.signUp("ann")
            let header = try #require(JSONSerialization.jsonObject(
                with: Data(Base64URL.decode(ann.accessToken.split(separator: ".")[0]) ?? [])) as? [String: Any])
            #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == key.kid)
            #expect(try await gateway.http("GET", "/auth/v1/user", token: ann.accessToken).status == 200)
            let rest = try await gateway.http("GET", "/rest/v1/profiles?select=username",
                                              token: ann.accessToken, headers: ["Accept-Profile": "social"])
            #expect(rest.status == 200, "\(rest.text)")

            // Published without a key, as verifiers fetch it.
            let set = try await gateway.http("GET", "/auth/v1/.well-known/jwks.json", apikey: "")
            #expect(set.status == 200)
            let keys = try #require((set.json as? [String: Any])?["keys"] as? [[String: Any]])
            #expect(keys.count == 1 && keys[0]["kid"] as? String == key.kid && keys[0]["d"] == nil)
            let published = try JWSKey(jwk: keys[0])
            let parts = ann.accessToken.split(separator: ".")
            #expect(published.verify(Base64URL.decode(parts[2]) ?? [], of: Array((parts[0] + "." + parts[1]).utf8)))

            // A token signed by another key under the same kid is refused everywhere.
            let impostor = try JWSKey(pem: try JWSKey.generate(.es256).pem, keyID: key.kid)
            let claims = try #require(JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1]) ?? [])) as? [String: Any])
            let forged = try JWT.sign(claims: claims, keys: TokenKeys(secret: gateway.configuration.jwtSecret, signingKey: impostor))
            #expect(try await gateway.http("GET", "/auth/v1/user", token: forged).status == 403)
            #expect(try await gateway.http("GET", "/rest/v1/profiles", token: forged, headers: ["Accept-Profile": "social"]).status == 401)
        }
    }
}
