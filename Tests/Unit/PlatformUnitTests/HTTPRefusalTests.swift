import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import PlatformHTTP
import Testing

/// A rule's refusal reaches the edge as the answer its type names (X3): routes catch nothing, and the same refusal
/// thrown from a generated handler (wrapped in the generator's `ServerError`) is answered alike.
@Suite("Refusals answered at the edge")
struct HTTPRefusalTests {
    enum SlotRefusal: Error, HTTPRefusal {
        case taken

        var answer: APIError { APIError(.conflict, code: "slot_taken", message: "the slot was booked by someone else") }
    }

    struct Body: Decodable {
        struct Error: Decodable { var code: String }
        var error: Error
    }

    static func makeApp() -> some ApplicationProtocol {
        let router = Router(context: PlatformRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.get("plain") { _, _ -> String in throw SlotRefusal.taken }
        router.get("generated") { _, _ -> String in
            throw ServerError(
                operationID: "bookSlot", request: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/generated"), requestBody: nil,
                requestMetadata: .init(), operationInput: "the decoded input", operationOutput: nil, causeDescription: "handler threw",
                underlyingError: SlotRefusal.taken)
        }
        return Application(router: router)
    }

    @Test("X3: a refusal thrown by a route, or by a generated handler, is answered with the error its type names")
    func refusalsAnswered() async throws {
        try await Self.makeApp().test(.router) { client in
            for path in ["/plain", "/generated"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .conflict, "\(path)")
                    let code = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).error.code
                    #expect(code == "slot_taken", "\(path)")
                }
            }
        }
    }
}
