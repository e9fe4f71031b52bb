import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlatformCore
import PlatformHTTP
import PlatformPostgres
import Tracing

/// Sends one notification through an APNs-compatible provider API over HTTP/2 (A5):
/// `POST /3/device/<token>` with the provider token, `apns-topic`, `apns-push-type`, `apns-priority`,
/// `apns-expiration` and `apns-collapse-id` headers and the JSON payload. AsyncHTTPClient speaks HTTP/2
/// whenever TLS negotiates it, which is how APNs (and the test's fake) run.
struct APNsClient: Sendable {
    let http: HTTPClient
    let baseURL: String
    let topic: String
    let signer: ProviderTokenSigner
    let timeout: Duration

    enum Outcome: Sendable, Equatable {
        case delivered(apnsId: String?)
        /// The provider answered with an error status and its `reason`.
        case rejected(status: Int, reason: String, retryAfter: Duration?)
        /// No answer: connection refused, TLS failure, timeout.
        case unreachable(String)
    }

    /// One request, as a client span of the current trace (no `traceparent` goes to the provider).
    func send(deviceToken: String, payload: String, collapseId: String, expiresAt: Date) async -> Outcome {
        await withSpan("POST apns", ofKind: .client) { span in
            span.attributes["http.request.method"] = "POST"
            span.attributes["server.address"] = URL(string: baseURL)?.host ?? ""
            let outcome = await sendInSpan(deviceToken: deviceToken, payload: payload, collapseId: collapseId, expiresAt: expiresAt)
            switch outcome {
            case .delivered: span.attributes["http.response.status_code"] = 200
            case .rejected(let status, let reason, _):
                span.attributes["http.response.status_code"] = status
                span.setStatus(SpanStatus(code: .error, message: reason))
            case .unreachable(let error): span.setStatus(SpanStatus(code: .error, message: error))
            }
            return outcome
        }
    }

    private func sendInSpan(deviceToken: String, payload: String, collapseId: String, expiresAt: Date) async -> Outcome {
        do {
            var request = HTTPClientRequest(url: "\(baseURL)/3/device/\(deviceToken)")
            request.method = .POST
            request.headers.add(name: "authorization", value: "bearer \(try await signer.token())")
            request.headers.add(name: "apns-topic", value: topic)
            request.headers.add(name: "apns-push-type", value: "alert")
            request.headers.add(name: "apns-priority", value: "10")
            request.headers.add(name: "apns-expiration", value: String(expiresAt.timeIntervalSince1970.rounded(.towardZero).roundedClampedInt))
            // The device shows one notification per collapse id: a resend after a crash does not show twice.
            request.headers.add(name: "apns-collapse-id", value: String(collapseId.prefix(64)))
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: payload))
            let response = try await http.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds * 1_000_000_000)))
            let body = try await response.body.collect(upTo: 64 * 1024)
            if response.status == .ok {
                return .delivered(apnsId: response.headers.first(name: "apns-id"))
            }
            let reason = (try? JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView)))?.reason ?? response.status.reasonPhrase
            if response.status == .forbidden, ["ExpiredProviderToken", "InvalidProviderToken"].contains(reason) { signer.discard() }
            let retryAfter = response.headers.first(name: "retry-after").flatMap(Int.init).map { Duration.seconds($0) }
            return .rejected(status: Int(response.status.code), reason: reason, retryAfter: retryAfter)
        } catch {
            return .unreachable(String(describing: error))
        }
    }

    private struct ErrorBody: Decodable {
        var reason: String
    }
}
