import Foundation
import Hummingbird
import NIOCore

/// Refuses a JSON body holding `null` anywhere, 400 `invalid_request` naming where. The API documents declare
/// no field nullable (an optional field is left out), but the generated decoders read an explicit `null` as
/// "left out" and would accept what the document forbids. Bodies are small (`maxUploadSize`) and only
/// bodies that contain the bytes `null` are parsed a second time.
public struct NoNullsMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The generated layer reads a body as JSON without a Content-Type or with a wildcard one, too.
        let contentType = request.headers[.contentType]?.lowercased()
        guard contentType == nil || contentType?.contains("json") == true || contentType?.contains("*") == true else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let bytes = body.readableBytesView
        if bytes.count >= 4, Self.containsNullLiteral(bytes),
            let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
            let path = Self.firstNull(in: json, at: "")
        {
            throw APIError.badRequest("invalid_request", "\(path.isEmpty ? "the body" : path) must not be null; leave an optional field out")
        }
        return try await next(request, context)
    }

    static func containsNullLiteral(_ bytes: ByteBufferView) -> Bool {
        let null: [UInt8] = Array("null".utf8)
        var matched = 0
        for byte in bytes {
            matched = byte == null[matched] ? matched + 1 : (byte == null[0] ? 1 : 0)
            if matched == null.count { return true }
        }
        return false
    }

    /// The path (`rating.notes`, `places[2]`) of the first null, depth-first in key order.
    static func firstNull(in value: Any, at path: String) -> String? {
        switch value {
        case is NSNull:
            return path
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if let found = firstNull(in: object[key] as Any, at: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstNull(in: element, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
