import Foundation
import Hummingbird

/// Request bodies for the services' routes (X3): decoding that answers a clear 400 instead of the
/// framework's own error, and the 422 that names every bad field.
public enum JSONBody {
    /// The body as `type`, or 400 `invalid_json`.
    public static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: some RequestContext) async throws -> T {
        do {
            return try await request.decode(as: type, context: context)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badRequest("invalid_json", "the body must be a JSON object of the documented shape")
        }
    }

    /// 422 `validation_failed` with each problem in `details` (field → what is wrong) and all of them in the message.
    public static func validationError(_ problems: [String: String]) -> APIError {
        APIError(.unprocessableContent, code: "validation_failed", message: summary(problems), details: problems)
    }

    /// 400 `invalid_request` naming each field whose value the API document does not allow (a range, a
    /// length, a pattern the generated layer does not check). 422 stays for rules beyond the document.
    public static func schemaViolation(_ problems: [String: String]) -> APIError {
        APIError(.badRequest, code: "invalid_request", message: summary(problems), details: problems)
    }

    static func summary(_ problems: [String: String]) -> String {
        problems.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; ")
    }
}

/// Answers the routes build by hand rather than by returning a `ResponseEncodable`.
public enum JSONResponse {
    /// 200 with JSON the route wrote itself (hot routes that skip Codable).
    public static func ok(_ json: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: json))
    }

    /// 201 with `Location`, the body encoded as Hummingbird's own encoder would (ISO 8601 dates).
    public static func created(_ body: some Encodable, location: String) throws -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return Response(
            status: .created, headers: [.contentType: "application/json; charset=utf-8", .location: location],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }
}
