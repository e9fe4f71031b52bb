import Foundation
import Hummingbird
import Shared

/// Request bodies: decoding with a clear 400, and 422s that name every bad field.
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: PlatformRequestContext) async throws -> T {
        do {
            return try await request.decode(as: type, context: context)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badRequest("invalid_json", "the body must be a JSON object of the documented shape")
        }
    }

    static func validationError(_ problems: [String: String]) -> APIError {
        let summary = problems.keys.sorted().map { "\($0) \(problems[$0]!)" }.joined(separator: "; ")
        return APIError(.unprocessableContent, code: "validation_failed", message: summary, details: problems)
    }
}
