import AuthContract
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the session's token with every request of a client, and when a service answers 401 `invalid_token` (the
/// token expired or was revoked in flight) renews it and sends the request once more. Other 401s (a wrong PIN, a
/// spent refresh token, an unknown app key) go to the caller as they are: sending them again would spend tries.
/// Without a token (signed out, or auth not reachable to start or renew one) requests go without: public
/// operations still work, and a protected one answers the typed 401. An ended account (auth no longer takes the
/// refresh token) is the one session failure the caller hears, once, as the runtime's `ClientError` wrapping
/// `SessionError.accountEnded`: the app must know its account is gone before a new install account replaces it.
public struct SessionMiddleware: ClientMiddleware {
    public let session: AppSession

    public init(session: AppSession) { self.session = session }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = try await tokenOrNone({ try await session.accessTokenIfSignedIn() }) else {
            return try await next(request, body, baseURL)
        }
        var authorized = request
        authorized.headerFields[.authorization] = "Bearer \(token)"
        let (response, answer) = try await next(authorized, body, baseURL)
        // A body that can be read only once cannot be sent again; its 401 goes to the caller.
        guard response.status == .unauthorized, body?.iterationBehavior != .single else { return (response, answer) }
        let errorBody = if let answer { try await Data(collecting: answer, upTo: 64 * 1024) } else { Data() }
        guard Self.errorCode(in: errorBody) == "invalid_token",
            let renewed = try await tokenOrNone({ try await session.accessToken(replacing: token) })
        else { return (response, HTTPBody(errorBody)) }
        authorized.headerFields[.authorization] = "Bearer \(renewed)"
        return try await next(authorized, body, baseURL)
    }

    /// The token `obtain` gives, or nil when none can be had now; only an ended account is thrown.
    private func tokenOrNone(_ obtain: () async throws -> String?) async throws -> String? {
        do {
            return try await obtain()
        } catch let error as SessionError {
            guard case .accountEnded = error else { return nil }
            throw error
        } catch {
            return nil
        }
    }

    /// The `error.code` of the documents' error body (the same in all six documents: a shared component).
    static func errorCode(in body: Data) -> String? {
        try? JSONDecoder().decode(Components.Schemas.ErrorBody.self, from: body).error.code
    }
}
