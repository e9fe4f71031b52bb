import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns every error that reaches the edge into the JSON error shape. Hummingbird's own errors (unknown route,
/// undecodable body, body too large) keep their status with a code derived from it; anything else is logged
/// with the request id and answered as a 500 without internals. Route code throws `APIError`s or a refusal that
/// names its answer (`HTTPRefusal`), so a 500 here is a bug to fix, never an expected answer.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let refusal as any HTTPRefusal {
            return try refusal.answer.response(from: request, context: context)
        } catch let error as ServerError {
            return try Self.translate(error, logger: context.logger).response(from: request, context: context)
        } catch let error as HTTPError {
            return try Self.translate(error).response(from: request, context: context)
        } catch let error as any HTTPResponseError where error.status.code < 500 {
            return try APIError(error.status, code: Self.code(for: error.status), message: error.status.reasonPhrase)
                .response(from: request, context: context)
        } catch {
            context.logger.error(
                "unhandled error",
                metadata: ["error": "\(String(reflecting: error))", "path": "\(RequestLogMiddleware.redacted(path: request.uri.path))"])
            return try APIError(.internalServerError, code: "internal_error", message: "the server could not complete the request")
                .response(from: request, context: context)
        }
    }

    /// A generated handler's error. Before the operation's input exists, the request did not match the
    /// document: 400 (415 for a wrong content type), saying what did not match. After, the handler threw:
    /// its `APIError` as it is, anything else a logged 500.
    static func translate(_ error: ServerError, logger: Logger) -> APIError {
        if let apiError = error.underlyingError as? APIError { return apiError }
        if let refusal = error.underlyingError as? any HTTPRefusal { return refusal.answer }
        if let httpError = error.underlyingError as? HTTPError { return translate(httpError) }
        guard error.operationInput == nil else {
            logger.error(
                "unhandled error", metadata: ["error": "\(String(reflecting: error.underlyingError))", "operation": "\(error.operationID)"])
            return APIError(.internalServerError, code: "internal_error", message: "the server could not complete the request")
        }
        let status = (error.underlyingError as? any HTTPResponseConvertible)?.httpStatus ?? .badRequest
        if status == .unsupportedMediaType {
            return APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "the body must be application/json")
        }
        let reason = RequestMismatch.describe(
            error.underlyingError,
            parameters: .init(request: error.request, pathParameters: error.requestMetadata.pathParameters))
        return APIError(.badRequest, code: reason.code, message: reason.message)
    }

    static func translate(_ error: HTTPError) -> APIError {
        let message = error.body ?? (error.status == .notFound ? "no such route" : error.status.reasonPhrase)
        return APIError(error.status, code: code(for: error.status), message: message, headers: error.headers)
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 413: "payload_too_large"
        case 415: "unsupported_media_type"
        case 422: "unprocessable"
        case 429: "rate_limited"
        default: status.code >= 500 ? "internal_error" : "http_\(status.code)"
        }
    }
}
