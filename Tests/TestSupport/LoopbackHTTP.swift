import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// HTTP to the services and servers a test started, with a deadline on every request. Foundation's URLSession on
/// Linux can leave a request unanswered for good, its timeout never firing, with its socket in CLOSE-WAIT and
/// watched by nothing: the whole suite would then wait on that one test. AsyncHTTPClient's deadline does fire.
public enum LoopbackHTTP {
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
        public var headers: HTTPHeaders

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One request. `newConnection`: sent with `Connection: close`, so the connection ends with the answer (a
    /// probe of a restarted server must not reuse a connection the old one accepted).
    public static func send(
        _ method: String = "GET", _ url: String, headers: [String: String] = [:], body: Data? = nil,
        timeout: Duration = .seconds(30), newConnection: Bool = false
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if newConnection { request.headers.replaceOrAdd(name: "Connection", value: "close") }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: TimeAmount.nanoseconds(nanoseconds(timeout)))
        let collected = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Answer(status: Int(response.status.code), body: Data(buffer: collected), headers: response.headers)
    }

    /// The status of a GET, or nil when it could not be had within `timeout` (not listening yet, say).
    public static func status(_ url: String, timeout: Duration = .seconds(5), newConnection: Bool = false) async -> Int? {
        try? await send("GET", url, timeout: timeout, newConnection: newConnection).status
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}
