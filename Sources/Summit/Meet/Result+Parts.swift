extension Result {
    /// The success value, or nil.
    package var value: Success? { if case let .success(value) = self { return value }; return nil }
    /// The failure, or nil.
    package var error: Failure? { if case let .failure(error) = self { return error }; return nil }
}
