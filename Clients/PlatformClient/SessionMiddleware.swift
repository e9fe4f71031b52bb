import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the session's token with every request of a client, and after a 401 renews it and sends the request once
/// more (the token may have been revoked or expired in flight). A signed-out session's requests go without one.
public struct SessionMiddleware: ClientMiddleware {
    public let session: AppSession

    public init(session: AppSession) { self.session = session }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = try await session.accessTokenIfSignedIn() else { return try await next(request, body, baseURL) }
        var authorized = request
        authorized.headerFields[.authorization] = "Bearer \(token)"
        let (response, answer) = try await next(authorized, body, baseURL)
        // A body that can be read only once cannot be sent again; its 401 goes to the caller.
        guard response.status == .unauthorized, body?.iterationBehavior != .single else { return (response, answer) }
        authorized.headerFields[.authorization] = "Bearer \(try await session.accessToken(replacing: token))"
        return try await next(authorized, body, baseURL)
    }
}
