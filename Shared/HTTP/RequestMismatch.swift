import Foundation

/// Words for a request the generated layer could not turn into an operation's input: `invalid_json` when the
/// body is not JSON at all, `invalid_request` when it (or a parameter) does not match the document, with the
/// place that did not match. Never the decoder's internals beyond that.
enum RequestMismatch {
    static func describe(_ error: any Error) -> (code: String, message: String) {
        guard let decoding = error as? DecodingError else {
            return ("invalid_request", "the request does not match the API document: \(String(describing: error).prefix(300))")
        }
        switch decoding {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return ("invalid_json", "the body is not valid JSON")
        case .dataCorrupted(let context):
            return ("invalid_request", "\(path(context.codingPath)): \(context.debugDescription.prefix(200))")
        case .keyNotFound(let key, let context):
            return ("invalid_request", "\(path(context.codingPath + [key])) is required")
        case .typeMismatch(let type, let context):
            return ("invalid_request", "\(path(context.codingPath)) must be \(typeName(type))")
        case .valueNotFound(let type, let context):
            return ("invalid_request", "\(path(context.codingPath)) must be \(typeName(type)), not null")
        @unknown default:
            return ("invalid_request", "the request does not match the API document")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the body" }
        return codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int32.Type, is Int64.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".contains("Array") ? "an array" : "an object of the documented shape"
        }
    }
}
