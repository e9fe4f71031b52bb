import PlatformHTTP

@testable import Auth

/// What the routes answer for `error`: the HTTP error `AuthErrors.answering` makes of it, nil if it lets it through.
func answer(_ error: any Error) async -> APIError? {
    do {
        try await AuthErrors.answering { () async throws -> Void in throw error }
        return nil
    } catch {
        return error as? APIError
    }
}
