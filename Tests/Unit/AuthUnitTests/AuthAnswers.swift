import PlatformHTTP

@testable import Auth

/// What the routes answer for `error`: the HTTP error its refusal type names (`HTTPRefusal`), nil for an error the
/// edge answers as a fault.
func answer(_ error: any Error) async -> APIError? {
    (error as? any HTTPRefusal)?.answer
}
