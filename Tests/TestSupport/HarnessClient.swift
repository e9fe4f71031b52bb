import HTTPTypes
import HummingbirdTesting
import NIOCore

/// How a harness sends requests to the service it runs: through HummingbirdTesting's client when its live mode
/// started the service (on a free port), or over a connection of its own to the port a test chose.
public struct HarnessClient: Sendable {
    /// What a request answered.
    public struct Response: Sendable {
        public let status: HTTPResponse.Status
        public let headers: HTTPFields
        public let body: ByteBuffer
    }

    private enum Transport: Sendable {
        case framework(any TestClientProtocol)
        case connection(TestClient)
    }

    private let transport: Transport
    /// The port the service listens on.
    public let port: Int?

    init(framework client: any TestClientProtocol) {
        transport = .framework(client)
        port = client.port
    }

    init(connection client: TestClient, port: Int) {
        transport = .connection(client)
        self.port = port
    }

    /// Sends a request and hands its answer to `callback`.
    @discardableResult
    public func execute<Value>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ callback: @escaping (Response) async throws -> Value
    ) async throws -> Value {
        switch transport {
        case .framework(let client):
            return try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                try await callback(Response(status: response.status, headers: response.headers, body: response.body))
            }
        case .connection(let client):
            var headers = headers
            headers[.connection] = "keep-alive"
            let response = try await client.execute(
                TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
            return try await callback(
                Response(status: response.head.status, headers: response.head.headerFields, body: response.body ?? ByteBuffer()))
        }
    }
}
