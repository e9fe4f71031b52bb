import AsyncHTTPClient
import ServiceLifecycle

/// Runs with the service group and shuts the HTTP client down when the service stops (an HTTPClient must
/// not be dropped while running).
public struct HTTPClientService: Service {
    public let client: HTTPClient

    public init(client: HTTPClient) {
        self.client = client
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
