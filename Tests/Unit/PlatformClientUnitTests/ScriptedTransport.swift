import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that answers each operation from a script, in memory: the client layer's rules (renewal, retries,
/// batching) tested without a service. The services' answers themselves are tested by the journeys.
actor ScriptedTransport: ClientTransport {
    struct Sent: Sendable {
        let operationID: String
        let authorization: String?
        let body: Data
    }

    typealias Answer = @Sendable (_ operationID: String, _ request: HTTPRequest, _ body: Data, _ call: Int) -> (HTTPResponse.Status, String)

    /// Headers an answer carries besides its content type (`Retry-After`), by operation and call number.
    typealias Headers = @Sendable (_ operationID: String, _ call: Int) -> [String: String]

    private let answer: Answer
    private let headers: Headers
    private(set) var sent: [Sent] = []

    init(headers: @escaping Headers = { _, _ in [:] }, _ answer: @escaping Answer) {
        self.answer = answer
        self.headers = headers
    }

    func calls(_ operationID: String) -> [Sent] { sent.filter { $0.operationID == operationID } }

    nonisolated func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let data = if let body { try await Data(collecting: body, upTo: 1 << 20) } else { Data() }
        let call = await record(Sent(operationID: operationID, authorization: request.headerFields[.authorization], body: data))
        // Out of the actor so answers can be slow without holding other requests back.
        let (status, json) = answer(operationID, request, data, call)
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json"
        for (name, value) in headers(operationID, call) {
            if let name = HTTPField.Name(name) { response.headerFields[name] = value }
        }
        return (response, HTTPBody(json))
    }

    private func record(_ request: Sent) -> Int {
        sent.append(request)
        return sent.filter { $0.operationID == request.operationID }.count
    }
}

/// Auth's install and refresh operations fail as a connection refused would; every other operation goes to `rest`.
struct UnreachableAuth: ClientTransport {
    struct Refused: Error {}
    let rest: ScriptedTransport

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if ["createInstallAccount", "refreshSession"].contains(operationID) { throw Refused() }
        return try await rest.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// A session answer as auth sends it.
func sessionJSON(access: String, refresh: String, expiresIn: Int = 900, account: String = "7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01") -> String {
    #"{"accessToken":"\#(access)","refreshToken":"\#(refresh)","tokenType":"Bearer","expiresIn":\#(expiresIn),"account":{"id":"\#(account)","kind":"install","role":"user","entitlements":[],"banned":false}}"#
}

let errorJSON = #"{"error":{"code":"invalid_refresh_token","message":"no"}}"#
/// What a service answers to an expired or revoked access token.
let invalidTokenJSON = #"{"error":{"code":"invalid_token","message":"the access token is invalid or expired"}}"#
