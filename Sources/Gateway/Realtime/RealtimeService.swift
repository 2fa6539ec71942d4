import Foundation

final class RealtimeService: Sendable {
    let context: GatewayContext

    init(context: GatewayContext) async throws {
        self.context = context
    }

    func upgrade(_ request: HTTPRequest) -> HTTPReply {
        .response(.text(501, "realtime is not ready"))
    }

    func respond(to request: HTTPRequest, path: ArraySlice<Substring>) async -> HTTPResponse {
        .text(404, "no such realtime endpoint")
    }

    func close() async {}
}
