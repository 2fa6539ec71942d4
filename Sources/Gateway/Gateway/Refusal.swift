/// An answer that ends a request early (bad input, bad credentials), thrown so
/// handlers read straight through.
struct Refusal: Error, Sendable {
    var response: HTTPResponse

    init(_ response: HTTPResponse) {
        self.response = response
    }
}
