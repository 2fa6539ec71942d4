import Foundation
import Gateway
import Testing

/// An app's own key pair: made with the project's secret and the app in its claims,
/// read back by the configuration (which exposes the app's face), and refused with
/// what to do when it is half there, another app's, or signed with another secret.
@Suite struct AppKeyTests {
    @Test func anAppsKeysAreReadAndExposeItsFace() throws {
        let project = GatewayConfiguration.generateKeys()
        var values = GatewayConfiguration.parseEnvironmentFile(project)
        let secret = Array(values[GatewayConfiguration.Key.jwtSecret]!.utf8)
        #expect(try GatewayConfiguration.from(values).appKeys.isEmpty, "a project without app keys keeps today's behaviour")
        #expect(!(try GatewayConfiguration.from(values).exposedSchemas.contains("powdermeet")))

        values.merge(GatewayConfiguration.parseEnvironmentFile(GatewayConfiguration.generateKeys(for: .powdermeet, secret: secret))) { $1 }
        let configuration = try GatewayConfiguration.from(values)
        let keys = try #require(configuration.appKeys[.powdermeet])
        #expect(keys.anon == values[AppFace.powdermeet.anonKeyName])
        #expect(configuration.exposedSchemas.first == "public" && configuration.exposedSchemas.contains("powdermeet"),
                "\(configuration.exposedSchemas)")
        let claims = try JWT.verify(keys.anon, secret: secret)
        #expect(claims.role == "anon" && claims.app == "powdermeet")
        #expect(try JWT.verify(keys.serviceRole, secret: secret).role == "service_role")

        func problem(_ change: (inout [String: String]) -> Void) -> String {
            var changed = values
            change(&changed)
            do {
                _ = try GatewayConfiguration.from(changed)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(problem { $0[AppFace.powdermeet.serviceRoleKeyName] = nil }.contains("must both be set"))
        #expect(problem { $0[AppFace.powdermeet.anonKeyName] = $0[GatewayConfiguration.Key.anonKey] }.contains("app none"),
                "the project's own key is not the app's")
        #expect(problem { $0[AppFace.powdermeet.anonKeyName] = $0[AppFace.powdermeet.serviceRoleKeyName] }.contains("role service_role"))
        let foreign = GatewayConfiguration.parseEnvironmentFile(
            GatewayConfiguration.generateKeys(for: .powdermeet, secret: Array("another secret of thirty-two bytes!!".utf8)))
        #expect(problem { $0[AppFace.powdermeet.anonKeyName] = foreign[AppFace.powdermeet.anonKeyName] }.contains("not usable with this secret"))
        #expect(problem { _ in } == "accepted")
    }
}
