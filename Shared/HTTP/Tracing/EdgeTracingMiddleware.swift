import HTTPTypes
import Hummingbird
import ServiceContextModule
import Tracing

/// A server span per request (X3, X4), built for the edge of the platform:
/// - the query and path are recorded as the request log writes them (`RequestLogMiddleware.redacted`): a reset
///   link's `token`, an invitation code, a device token or a share id never reaches a span, whatever exporter or
///   retention stands behind it;
/// - an incoming `traceparent` is continued only from callers in `TRACE_TRUSTED_CALLERS`. Anyone on the
///   internet could otherwise join an internal trace, or force sampling of every request they send.
/// Replaces Hummingbird's `TracingMiddleware`, which records the raw query and trusts every caller.
public struct EdgeTracingMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext

    let trustedCallers: [IPNetwork]

    public init(trustedCallers: [IPNetwork]) {
        self.trustedCallers = trustedCallers
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.current ?? .topLevel
        if trusts(context.remoteAddress) {
            InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: FieldsExtractor())
        }
        let span = startSpan("HTTP \(request.method.rawValue)", context: parent, ofKind: .server)
        // With tracing off every span is a no-op: its attributes are not worth the redaction's work.
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = request.method.rawValue
                attributes["url.path"] = RequestLogMiddleware.redacted(path: request.uri.path)
                if let query = request.uri.query, !query.isEmpty {
                    attributes["url.query"] = RequestLogMiddleware.redacted(query: query)
                }
            }
        }
        do {
            var response = try await ServiceContext.$current.withValue(span.context) {
                try await next(request, context)
            }
            record(status: Int(response.status.code), route: context.endpointPath, on: span)
            let (ending, body) = (SpanEnding(span), response.body)
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { ending.end() }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError).map { Int($0.status.code) } ?? 500
            record(status: status, route: context.endpointPath, on: span)
            if status >= 500 { span.setStatus(.init(code: .error)) }
            span.recordError(error)
            span.end()
            throw error
        }
    }

    func trusts(_ address: String) -> Bool {
        trustedCallers.contains { $0.contains(address) }
    }

    func record(status: Int, route: String?, on span: any Span) {
        if let route { span.operationName = route }
        guard span.isRecording else { return }
        span.updateAttributes { attributes in
            attributes["http.route"] = route
            attributes["http.response.status_code"] = status
        }
    }

    struct FieldsExtractor: Extractor {
        func extract(key: String, from fields: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { fields[$0] }
        }
    }

    /// Ends the span once the body is written (a stream's span lasts as long as the stream).
    final class SpanEnding: @unchecked Sendable {
        let span: any Span
        init(_ span: any Span) { self.span = span }
        func end() { span.end() }
    }
}
