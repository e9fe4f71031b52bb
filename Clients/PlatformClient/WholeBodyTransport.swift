import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIRuntime

/// The clients' transport on AsyncHTTPClient, sending each request body whole, written with its head.
///
/// The generated clients' stock transport streams the body; a service that answers before reading it (the
/// access check's 401 for a token that no longer counts) can then have its answer arrive between the head and
/// the body, and AsyncHTTPClient ends such a request with `bodyLengthMismatch` instead of handing back the
/// answer. A body written with the head leaves no such moment. The platform's request bodies are small JSON.
public struct WholeBodyTransport: ClientTransport {
    public enum TransportError: Error, CustomStringConvertible {
        case invalidURL(String)

        public var description: String {
            switch self {
            case .invalidURL(let url): "not a request URL: \(url)"
            }
        }
    }

    let client: HTTPClient
    let timeout: TimeAmount
    /// A larger body is refused before anything is sent (the services accept far less).
    let maximumBodyBytes: Int

    public init(client: HTTPClient = .shared, timeout: TimeAmount = .seconds(30), maximumBodyBytes: Int = 16 * 1024 * 1024) {
        self.client = client
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var outgoing = HTTPClientRequest(url: try Self.url(of: request, on: baseURL))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields { outgoing.headers.add(name: field.name.canonicalName, value: field.value) }
        if let body {
            outgoing.body = .bytes(ByteBuffer(bytes: try await [UInt8](collecting: body, upTo: maximumBodyBytes)))
        }
        let answer = try await client.execute(outgoing, timeout: timeout)
        var fields = HTTPFields()
        for header in answer.headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        let length: HTTPBody.Length = answer.headers.first(name: "content-length").flatMap { Int64($0) }.map { .known($0) } ?? .unknown
        let responseBody: HTTPBody? =
            [.head, .connect, .trace].contains(request.method)
            ? nil : HTTPBody(answer.body.map { $0.readableBytesView }, length: length, iterationBehavior: .single)
        return (HTTPResponse(status: .init(code: Int(answer.status.code)), headerFields: fields), responseBody)
    }

    /// The base URL's path with the operation's path and query after it.
    static func url(of request: HTTPRequest, on baseURL: URL) throws -> String {
        guard var components = URLComponents(string: baseURL.absoluteString), let target = URLComponents(string: request.path ?? "")
        else { throw TransportError.invalidURL("\(baseURL.absoluteString)\(request.path ?? "")") }
        components.percentEncodedPath += target.percentEncodedPath
        components.percentEncodedQuery = target.percentEncodedQuery
        guard let url = components.url else { throw TransportError.invalidURL("\(baseURL.absoluteString)\(request.path ?? "")") }
        return url.absoluteString
    }
}
