import Foundation
import HTTPTypes
import Hummingbird
import PlatformCore
import PlatformHTTP

/// `POST /v1/telemetry` (N1), registered by hand: the batch is read with its own 256 KiB limit (the
/// services' usual is 64 KiB) and decoded leniently so that each event is judged on its own. The answer
/// encodes the document's `IngestResult`; the fuzzer checks it like the generated operations.
struct TelemetryRoute: Sendable {
    static let maxBodyBytes = 256 * 1024
    static let maxEvents = 500
    static let appKeyHeader = HTTPField.Name("X-App-Key")

    let ingest: TelemetryIngest
    let keys: AppKeys
    /// Events per minute per app key and per client address: the ingest is public, and a key ships in every
    /// app, so neither a leaked key nor one client can flood the topic and the aggregates.
    let perApp: WindowQuota
    let perAddress: WindowQuota

    func add(to router: Router<PlatformRequestContext>) {
        router.post("v1/telemetry", use: receive)
    }

    @Sendable func receive(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        if let type = request.headers[.contentType]?.lowercased(), !type.hasPrefix("application/json") {
            throw APIError.unsupportedMediaType
        }
        guard let name = Self.appKeyHeader, let key = request.headers[name], let app = keys.app(for: key) else {
            throw APIError(.unauthorized, code: "invalid_app_key", message: "X-App-Key must be the key of an app")
        }
        var request = request
        let body = try await request.collectBody(upTo: Self.maxBodyBytes)
        let batch: TelemetryBatchInput
        do {
            batch = try JSONDecoder().decode(TelemetryBatchInput.self, from: body)
        } catch {
            throw APIError.badRequest("invalid_json", "the body must be {\"events\": [...]} with up to \(Self.maxEvents) events")
        }
        guard batch.events.count <= Self.maxEvents else {
            throw APIError(.contentTooLarge, code: "too_many_events", message: "a batch holds at most \(Self.maxEvents) events")
        }
        guard !batch.events.isEmpty else { throw APIError.badRequest("empty_batch", "events must hold at least one event") }
        let events = batch.events.count
        let address = ClientAddress.limitKey(context.remoteAddress)
        if let wait = perAddress.take(events, for: address) {
            throw APIError.rateLimited("this address sent more than \(perAddress.limit) events this minute", retryAfter: wait)
        }
        if let wait = perApp.take(events, for: app.rawValue) {
            // Refused and not stored: the address has not spent its quota on it.
            perAddress.giveBack(events, for: address)
            throw APIError.rateLimited("the \(app.rawValue) app sent more than \(perApp.limit) events this minute", retryAfter: wait)
        }
        let outcome = try await ingest.ingest(batch.events, app: app)
        let json = try JSONEncoder().encode(outcome)
        return Response(
            status: .accepted, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }
}
