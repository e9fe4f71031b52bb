import Hummingbird

/// A refusal of a service's rules that names its HTTP answer (X3). Each service's API declares the answer of each of
/// its refusal types once, and `JSONErrorMiddleware` turns any refusal that reaches the edge into it: routes call
/// their use cases without catching anything. A refusal is an `HTTPResponseError` with its answer's status, so the
/// request metrics count it as that status, not as a fault.
public protocol HTTPRefusal: HTTPResponseError {
    /// The JSON error this refusal is answered with.
    var answer: APIError { get }
}

extension HTTPRefusal {
    public var status: HTTPResponse.Status { answer.status }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try answer.response(from: request, context: context)
    }
}
