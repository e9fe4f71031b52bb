import Foundation
import Hummingbird
import PlatformCore

/// The one error shape of every HTTP API: `{"error": {"code": "...", "message": "..."}}` with a stable code.
public struct APIError: Error, HTTPResponseError, Sendable, Equatable {
    public let status: HTTPResponse.Status
    /// Stable, machine-readable code clients may switch on (`snake_case`).
    public let code: String
    /// Human-readable explanation.
    public let message: String
    /// Extra headers, e.g. `Retry-After` on 429.
    public let headers: HTTPFields
    /// Machine-readable context for the client, e.g. `attemptsLeft` or the `next` step of a flow.
    public let details: [String: String]?

    public init(
        _ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], details: [String: String]? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.details = details
    }

    public static func badRequest(_ code: String = "bad_request", _ message: String) -> APIError {
        APIError(.badRequest, code: code, message: message)
    }

    public static func notFound(_ message: String = "no such resource") -> APIError {
        APIError(.notFound, code: "not_found", message: message)
    }

    /// 429 `code` with `Retry-After` in whole seconds: rounded up, and at least one (a client told 0 comes straight
    /// back).
    public static func tooManyRequests(code: String, message: String, retryAfterSeconds seconds: Double) -> APIError {
        APIError(.tooManyRequests, code: code, message: message, headers: [.retryAfter: String(max(1, seconds.rounded(.up).roundedClampedInt))])
    }

    public static let unauthorized = APIError(.unauthorized, code: "unauthorized", message: "a valid access token is required")
    public static let forbidden = APIError(.forbidden, code: "forbidden", message: "this account may not do that")
    public static let guestsNotAllowed = APIError(
        .forbidden, code: "guests_not_allowed", message: "a guest session may not do this; sign in with an account")
    /// An action that costs others, asked by an account not trusted with it yet (`AuthenticatedUser.trusted`).
    public static let accountNotTrusted = APIError(
        .forbidden, code: "account_not_trusted",
        message: "this install's account is too new for this: attest the install, sign in with an account, or try again later")
    public static let unsupportedMediaType = APIError(
        .unsupportedMediaType, code: "unsupported_media_type", message: "the body must be application/json")

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let body = try JSONEncoder().encode(ErrorBody(error: .init(code: code, message: message, details: details)))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// The JSON body of an error response.
public struct ErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
        public var details: [String: String]?
    }

    public var error: Detail
}
