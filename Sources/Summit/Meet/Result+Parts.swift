extension Result {
    /// The success value, or nil.
    var value: Success? { if case let .success(value) = self { return value }; return nil }
    /// The failure, or nil.
    var error: Failure? { if case let .failure(error) = self { return error }; return nil }
}
