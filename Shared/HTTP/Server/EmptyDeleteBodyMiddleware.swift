import Hummingbird
import NIOCore

/// Reads a DELETE request sent without a body as one with the JSON body `{}`. A DELETE whose document declares an
/// optional body (re-authentication for `DELETE /v1/me`) is most often sent with none, and the generated layer
/// decodes an empty body as broken JSON (400); a DELETE without a declared body never reads it.
public struct EmptyDeleteBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .delete else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard body.readableBytes == 0 else { return try await next(request, context) }
        var head = request.head
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = "2"
        return try await next(Request(head: head, body: .init(buffer: ByteBuffer(string: "{}"))), context)
    }
}
