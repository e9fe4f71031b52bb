import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the session's token with every request of a client, and when a service answers 401 `invalid_token` (the
/// token expired or was revoked in flight) renews it and sends the request once more. Other 401s (a wrong PIN, a
/// spent refresh token, an unknown app key) go to the caller as they are: sending them again would spend tries.
/// Without a token (signed out, or auth not reachable to start or renew one) requests go without: public
/// operations still work, and a protected one answers the typed 401.
public struct SessionMiddleware: ClientMiddleware {
    public let session: AppSession

    public init(session: AppSession) { self.session = session }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = try? await session.accessTokenIfSignedIn() else { return try await next(request, body, baseURL) }
        var authorized = request
        authorized.headerFields[.authorization] = "Bearer \(token)"
        let (response, answer) = try await next(authorized, body, baseURL)
        // A body that can be read only once cannot be sent again; its 401 goes to the caller.
        guard response.status == .unauthorized, body?.iterationBehavior != .single else { return (response, answer) }
        let errorBody = if let answer { try await Data(collecting: answer, upTo: 64 * 1024) } else { Data() }
        guard Self.errorCode(in: errorBody) == "invalid_token", let renewed = try? await session.accessToken(replacing: token) else {
            return (response, HTTPBody(errorBody))
        }
        authorized.headerFields[.authorization] = "Bearer \(renewed)"
        return try await next(authorized, body, baseURL)
    }

    /// The `error.code` of the documents' error body.
    static func errorCode(in body: Data) -> String? {
        struct ErrorBody: Decodable {
            struct Detail: Decodable { let code: String }
            let error: Detail
        }
        return try? JSONDecoder().decode(ErrorBody.self, from: body).error.code
    }
}
