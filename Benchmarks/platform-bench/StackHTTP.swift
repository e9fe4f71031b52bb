import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlatformCore

/// The stack bench's HTTP client: one AsyncHTTPClient whose pool allows as many connections per service as the
/// open-loop load has requests in flight, so requests wait in the services, not in the client's queue.
struct StackHTTP: Sendable {
    let client: HTTPClient

    struct Answer: Sendable {
        var status: Int
        var body: String
        var isSuccess: Bool { (200..<300).contains(status) }
    }

    static func make(connectionsPerService: Int) -> StackHTTP {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerService
        configuration.decompression = .disabled
        return StackHTTP(client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration))
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    /// One request; `from` binds the connection to a loopback source address (each is a client address of its
    /// own to the services' per-address limits, as phones on different networks are).
    func send(
        _ method: HTTPMethod, _ url: String, body: String? = nil, token: String? = nil, headers: [(String, String)] = [],
        from localAddress: String? = nil, timeout: Duration = .seconds(10)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.localAddress = localAddress
        let response = try await client.execute(request, timeout: .milliseconds(timeout.wholeMilliseconds))
        let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
        return Answer(status: Int(response.status.code), body: text)
    }

    /// `send`, failing unless the answer is 2xx; `what` names the step in the error.
    func expect(
        _ what: String, _ method: HTTPMethod, _ url: String, body: String? = nil, token: String? = nil, headers: [(String, String)] = [],
        from localAddress: String? = nil
    ) async throws -> Answer {
        let answer = try await send(method, url, body: body, token: token, headers: headers, from: localAddress)
        guard answer.isSuccess else { throw BenchError("\(what): \(method) \(url) answered \(answer.status): \(answer.body.prefix(300))") }
        return answer
    }

    /// The answer's JSON decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, _ answer: Answer) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(answer.body.utf8))
    }
}
