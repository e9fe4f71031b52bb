import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A real HTTP server on a free loopback port that stands in for an external provider (weather, places,
/// push). Each test gives it a handler that answers in the provider's real wire format, and can read back
/// every request it received. Plain HTTP/1.1 by default; with a certificate it serves TLS and negotiates
/// HTTP/2 by ALPN, as APNs does.
public final class FakeHTTPServer: Sendable {
    /// One request as the fake saw it.
    public struct Received: Sendable {
        public let method: String
        public let path: String
        /// Query parameters, decoded.
        public let query: [String: String]
        /// Header names in lower case.
        public let headers: [String: String]
        public let body: String
        /// The request came over an HTTP/2 stream.
        public let isHTTP2: Bool
    }

    /// What the handler answers.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: String
        /// Wait this long before answering (to make a client time out).
        public var delay: Duration

        public init(status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"], body: String, delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }
    }

    public typealias Handler = @Sendable (Received) async -> Reply

    public let port: Int
    private let usesTLS: Bool
    private let log = Mutex<[Received]>([])

    fileprivate init(port: Int, usesTLS: Bool) {
        self.port = port
        self.usesTLS = usesTLS
    }

    /// `http://127.0.0.1:<port>`, or `https://localhost:<port>` (the name in the test certificate) with TLS.
    public var baseURL: String { usesTLS ? "https://localhost:\(port)" : "http://127.0.0.1:\(port)" }

    public var requests: [Received] { log.withLock { $0 } }

    fileprivate func record(_ request: Received) { log.withLock { $0.append(request) } }
}

/// Runs a fake server for the duration of `body`, on a free port unless `port` names one (a running stack was
/// configured with the fake's address before the fake started).
public func withFakeHTTPServer<Result: Sendable>(
    port fixedPort: Int = 0, tls certificate: TestCertificate? = nil,
    _ handler: @escaping FakeHTTPServer.Handler, _ body: @Sendable (FakeHTTPServer) async throws -> Result
) async throws -> Result {
    let recorder = Recorder()
    let responder = CallbackResponder<FakeServerContext> { request, context in
        let text = String(buffer: try await request.body.collect(upTo: 16 * 1024 * 1024))
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters {
            query[String(key)] = String(value).removingPercentEncoding ?? String(value)
        }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let received = FakeHTTPServer.Received(
            method: request.method.rawValue, path: request.uri.path, query: query, headers: headers, body: text,
            isHTTP2: context.isHTTP2)
        recorder.server?.record(received)
        let reply = await handler(received)
        if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
        var fields = HTTPFields()
        for (name, value) in reply.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return Response(
            status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: reply.body)))
    }
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "fake-http")
    logger.logLevel = .critical  // a connection cut at the stop deadline logs a harmless error
    let server: HTTPServerBuilder = try certificate.map { try .http2Upgrade(tlsConfiguration: try $0.serverConfiguration()) } ?? .http1()
    let app = Application(
        responder: responder, server: server, configuration: .init(address: .hostname("127.0.0.1", port: fixedPort)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger)
    let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    let serverTask = Task {
        // A port that cannot be bound ends the server before it runs: the wait for its port ends too.
        defer { portContinuation.finish() }
        try await group.run()
    }
    defer { serverTask.cancel() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
        _ = try await serverTask.value
        throw FakeServerError.didNotStart
    }
    let fake = FakeHTTPServer(port: port, usesTLS: certificate != nil)
    recorder.server = fake
    return try await stoppingGracefully(group, running: serverTask) { try await body(fake) }
}

/// Knows whether a request came over HTTP/2: a stream's channel sits under the connection's, which sits
/// under the listening socket's; an HTTP/1 connection is only one level down.
struct FakeServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let isHTTP2: Bool

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        isHTTP2 = source.channel.parent?.parent != nil
    }
}

enum FakeServerError: Error {
    case didNotStart
}

/// Lets the responder, built before the port is known, reach the server object.
private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _server: FakeHTTPServer?
    var server: FakeHTTPServer? {
        get { lock.withLock { _server } }
        set { lock.withLock { _server = newValue } }
    }
}
