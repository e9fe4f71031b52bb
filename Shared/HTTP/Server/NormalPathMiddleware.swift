import Hummingbird

/// Refuses, before any other rule reads it, a request whose path is not in normal form (X3). Hummingbird's
/// router skips empty segments, so `//v1/admin/stream` runs the route of `/v1/admin/stream`; a rule that
/// compares the raw path would not see the prefix and wave the request through. With only normal paths
/// admitted, the path every middleware sees is the path the router matches.
///
/// Normal: starts with `/`; no empty segment (`//`, or a trailing `/` on an API path under `/v1`); no `.` or `..`
/// segment; no percent-encoded separator or dot (`%2F`, `%5C`, `%2E`) and no backslash; no upper-case letter in
/// the fixed part every route begins with (`/V1/...`). Answered 400 `path_not_normal` with a JSON error.
public struct NormalPathMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let problem = Self.problem(in: request.uri.path) {
            throw APIError(.badRequest, code: "path_not_normal", message: "the path \(problem); ask for it in its normal form")
        }
        return try await next(request, context)
    }

    /// Why `path` is not in normal form, or nil when it is.
    public static func problem(in path: String) -> String? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return "does not start with /" }
        if bytes.count == 1 { return nil }
        if bytes.contains(UInt8(ascii: "\\")) { return "contains a backslash" }
        if containsEncodedSeparator(bytes) { return "contains an encoded separator or dot (%2F, %5C, %2E)" }
        let segments = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment.isEmpty {
                guard index == segments.count - 1 else { return "contains an empty segment (//)" }
                // The API's documents have no path with a trailing slash; a page (`/dashboard/`) may have one,
                // and its relative links depend on it.
                if segments.first.map({ $0.elementsEqual("v1".utf8) }) ?? false { return "ends with /" }
                continue
            }
            if segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) { return "contains a . or .. segment" }
        }
        // Every route's first segment is a fixed lower-case word (`v1`, `health`, `.well-known`, `dashboard`);
        // path parameters, which may be any case, come later.
        if let first = segments.first, first.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            return "has upper case in its first segment"
        }
        return nil
    }

    static func containsEncodedSeparator(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                let code = (hexValue(bytes[index + 1]), hexValue(bytes[index + 2]))
                // %2F "/", %2E ".", %5C "\"
                if code == (2, 15) || code == (2, 14) || code == (5, 12) { return true }
            }
            index += 1
        }
        return false
    }

    static func hexValue(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: -1
        }
    }
}
