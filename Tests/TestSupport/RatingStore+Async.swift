public import RatingsCore

/// Awaitable forms of the store's callback writes, for tests.
extension RatingStore {
    public func submit(_ request: SubmitRequest) async throws -> SubmitOutcome {
        try await withCheckedThrowingContinuation { continuation in submit(request) { continuation.resume(with: $0) } }
    }

    public func clear(_ request: ClearRequest) async throws -> ClearOutcome {
        try await withCheckedThrowingContinuation { continuation in clear(request) { continuation.resume(with: $0) } }
    }

    public func configure(_ request: ConfigureRequest) async throws -> ConfigureOutcome {
        try await withCheckedThrowingContinuation { continuation in configure(request) { continuation.resume(with: $0) } }
    }
}
