import Crypto
import Foundation
import Logging
import PlatformEvents

/// Checks a batch event by event and puts the good events on the telemetry topic (N1). The envelope id is
/// derived from the app and the app's event id, so a batch sent again carries the same ids and the
/// aggregates (which apply an event id once) count it once.
package struct TelemetryIngest: Sendable {
    package let log: any TelemetryLog
    /// The accounts' pseudonyms: the topic is kept for good and names an account only by its pseudonym (U9).
    package let naming: any AccountNaming
    package let rules: TelemetryRules
    package let logger: Logger

    package init(log: any TelemetryLog, naming: any AccountNaming, rules: TelemetryRules, logger: Logger) {
        self.log = log
        self.naming = naming
        self.rules = rules
        self.logger = logger
    }

    package struct Outcome: Encodable {
        package var accepted: Int
        package var duplicates: Int
        package var rejected: [TelemetryRejection]

        package init(accepted: Int, duplicates: Int, rejected: [TelemetryRejection]) {
            self.accepted = accepted
            self.duplicates = duplicates
            self.rejected = rejected
        }
    }

    /// Throws `TelemetryRefusal` when no event is valid or the broker does not take the batch.
    package func ingest(_ inputs: [TelemetryInput], app: TelemetryApp, now: Date = Date()) async throws -> Outcome {
        var rejected: [TelemetryRejection] = []
        var accepted: [EventEnvelope<TelemetryRecorded>] = []
        accepted.reserveCapacity(inputs.count)
        var seen: Set<UUID> = []
        var duplicates = 0
        for (index, input) in inputs.enumerated() {
            switch rules.check(input, app: app, now: now) {
            case .failure(let failure):
                rejected.append(TelemetryRejection(index: index, code: failure.code, message: failure.message))
            case .success(let (event, time)):
                let id = Self.eventId(app: app.rawValue, clientEventId: event.clientEventId)
                guard seen.insert(id).inserted else {
                    duplicates += 1
                    continue
                }
                accepted.append(
                    EventEnvelope(
                        id: id, type: EventTypes.telemetryRecorded, occurredAt: time, producer: ServiceIdentity.analyticsAggregator.name,
                        key: event.userKey, payload: event))
            }
        }
        if accepted.isEmpty { throw TelemetryRefusal.noValidEvents(rejected) }
        accepted = try await pseudonymised(accepted)
        do {
            try await log.append(accepted)
        } catch {
            logger.warning("telemetry batch not taken by the broker", metadata: ["error": "\(error)", "events": "\(accepted.count)"])
            throw TelemetryRefusal.brokerUnavailable
        }
        return Outcome(accepted: accepted.count + duplicates, duplicates: duplicates, rejected: rejected)
    }

    /// The batch with each account named by its pseudonym and without the device (the account is who counts);
    /// an erased account's late events under a name no row holds, so they count without a user.
    private func pseudonymised(_ envelopes: [EventEnvelope<TelemetryRecorded>]) async throws -> [EventEnvelope<TelemetryRecorded>] {
        let accounts = Set(envelopes.compactMap(\.payload.userId))  // lower case already (`TelemetryRules`)
        guard !accounts.isEmpty else { return envelopes }
        let pseudonyms: [String: String]
        do {
            pseudonyms = try await naming.pseudonyms(of: accounts)
        } catch {
            logger.warning("telemetry batch's accounts not named", metadata: ["error": "\(error)", "events": "\(envelopes.count)"])
            throw TelemetryRefusal.storeUnavailable
        }
        return envelopes.map { envelope in
            guard let account = envelope.payload.userId else { return envelope }
            var envelope = envelope
            envelope.payload.userId = pseudonyms[account].map { AccountPseudonym.prefix + $0 } ?? AccountPseudonym.nobody()
            envelope.payload.deviceId = ""
            envelope.key = envelope.payload.userKey
            return envelope
        }
    }

    /// A UUID (version 5 layout) from SHA-256 of the app and the app's event id.
    package static func eventId(app: String, clientEventId: UUID) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("telemetry/\(app)/\(clientEventId.uuidString.lowercased())".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
