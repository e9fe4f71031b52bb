import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import PlatformClient
import ServiceLifecycle
import Testing

/// The apps' transport (X6, X5) against a service that answers before it reads the request body, as the
/// access check does for a token that no longer counts: each answer is the app's, on a connection kept alive
/// across requests whose bodies the server never read.
///
/// Why the transport sends bodies whole: AsyncHTTPClient streaming a body ended one journey's `POST
/// /v1/poll/answers` with a deleted account's token in `bodyLengthMismatch` instead of the 401 (its state machine
/// fails a streamed request whose answer's head came between the body part and the body's end). The race could
/// not be forced here: 2,000 early answers came back with the stock transport too. A whole body is written with
/// the head, in the same event-loop turn, which leaves it no window.
@Suite("PlatformClient transport")
struct ClientTransportTests {
    static let attempts = 500

    @Test("X6: an answer sent before the body was read (a 401) is the app's answer, not a transport error")
    func earlyAnswer() async throws {
        let router = Router()
        router.post("v1/poll/answers") { _, _ in
            // The body is never read: the answer goes out as soon as the head is in.
            Response(
                status: .unauthorized, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":"invalid_token","message":"spent"}}"#)))
        }
        var logger = Logger(label: "early-answer")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let server = Task { try await group.run() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())

        // Many requests, each as a generated client sends it: every one must come back as the 401.
        let bytes = Array(#"{"answers":[{"questionId":"benefit","answer":true}]}"#.utf8)
        let request = HTTPRequest(
            method: .post, scheme: nil, authority: nil, path: "/v1/poll/answers",
            headerFields: [.contentType: "application/json", .contentLength: "\(bytes.count)"])
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
        var failures: [String] = []
        for _ in 0..<Self.attempts {
            do {
                let (response, answer) = try await PlatformClients.defaultTransport.send(
                    request, body: HTTPBody(bytes), baseURL: baseURL, operationID: "answerPoll")
                let text = try await String(collecting: try #require(answer), upTo: 4_096)
                if response.status != .unauthorized || !text.contains("invalid_token") { failures.append("\(response.status) \(text)") }
            } catch {
                failures.append(String(describing: error).prefix(200).description)
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.attempts): \(failures.prefix(3))")
        await group.triggerGracefulShutdown()
        _ = try? await server.value
    }
}
