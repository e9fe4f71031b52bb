import Foundation
import Hummingbird

/// Words for a request the generated layer could not turn into an operation's input: `invalid_json` when the
/// body is not JSON at all, `invalid_request` when it (or a parameter) does not match the document, naming
/// what did not match. The generated layer's errors do not carry a parameter's name, so it is found by
/// looking at the request's own parameters for the value that failed.
enum RequestMismatch {
    struct Parameters {
        /// Path parameters, then query items, as the request gave them.
        var items: [(name: String, value: String)]

        init(request: HTTPRequest, pathParameters: [String: Substring]) {
            var items = pathParameters.sorted { $0.key < $1.key }.map { ($0.key, String($0.value)) }
            let query = request.path?.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
                items.append((decode(parts[0]), parts.count > 1 ? decode(parts[1]) : ""))
            }
            self.items = items
        }

        /// The one parameter whose value fails `accepts`, if exactly one does.
        func only(failing accepts: (String) -> Bool) -> String? {
            let failing = items.filter { !accepts($0.value) }
            return failing.count == 1 ? failing[0].name : nil
        }
    }

    static func describe(_ error: any Error, parameters: Parameters) -> (code: String, message: String) {
        guard let decoding = error as? DecodingError else {
            return ("invalid_request", "the request does not match the API document: \(String(describing: error).prefix(300))")
        }
        switch decoding {
        case .dataCorrupted(let context)
        where context.codingPath.isEmpty && (context.underlyingError != nil || context.debugDescription.contains("not valid JSON")):
            return ("invalid_json", "the body is not valid JSON")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // "Cannot initialize KindPayload from invalid String value poem": a value outside its enum.
            if let value = context.debugDescription.components(separatedBy: "invalid String value ").last,
                context.debugDescription.contains("invalid String value "),
                let name = parameters.items.first(where: { $0.value == value })?.name
            {
                return ("invalid_request", "\(name) may not be \(value): it is not one of the values the API document lists")
            }
            if context.debugDescription.contains("Double"), let name = parameters.only(failing: { Double($0) != nil }) {
                return ("invalid_request", "\(name) must be a number")
            }
            if let name = parameters.only(failing: { Int($0) != nil }) {
                return ("invalid_request", "\(name) must be an integer in the range the API document gives")
            }
            return ("invalid_request", "a parameter does not match the API document: \(context.debugDescription.prefix(200))")
        case .dataCorrupted(let context):
            return ("invalid_request", "\(path(context.codingPath)): \(context.debugDescription.prefix(200))")
        case .keyNotFound(let key, let context):
            return ("invalid_request", "\(path(context.codingPath + [key])) is required")
        case .typeMismatch(let type, let context) where context.codingPath.isEmpty:
            let name = parameters.only { typeName(type) == "a number" ? Double($0) != nil : Int($0) != nil }
            return ("invalid_request", "\(name ?? "a parameter") must be \(typeName(type))")
        case .typeMismatch(let type, let context):
            return ("invalid_request", "\(path(context.codingPath)) must be \(typeName(type))")
        case .valueNotFound(_, let context) where context.codingPath.isEmpty:
            let given = parameters.items.map(\.name).joined(separator: ", ")
            return ("invalid_request", "a required parameter is missing (given: \(given.isEmpty ? "none" : given))")
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
