import Foundation
import PlatformEvents
import Synchronization

@testable import AnalyticsAggregator

/// The telemetry topic in memory, with what the broker guarantees `TelemetryIngest`: a batch is stored whole,
/// in order, or not at all (`isDown` stands for a broker that does not take it).
final class MemoryTelemetryLog: TelemetryLog {
    struct BrokerDown: Error {}

    private let stored = Mutex<[EventEnvelope<TelemetryRecorded>]>([])
    /// How many batches were handed over, stored or not.
    let appends = Mutex(0)
    let isDown: Bool

    init(isDown: Bool = false) {
        self.isDown = isDown
    }

    var events: [EventEnvelope<TelemetryRecorded>] { stored.withLock { $0 } }

    func append(_ events: [EventEnvelope<TelemetryRecorded>]) async throws {
        appends.withLock { $0 += 1 }
        if isDown { throw BrokerDown() }
        stored.withLock { $0.append(contentsOf: events) }
    }
}

/// Account pseudonyms in memory, as `AccountPseudonyms` keeps them: one per account, made on first use, none for an
/// erased account; `isDown` stands for a database that does not answer.
final class MemoryAccountNaming: AccountNaming {
    struct StoreDown: Error {}

    private let made = Mutex<[String: String]>([:])
    let erased: Set<String>
    let isDown: Bool

    init(erased: Set<String> = [], isDown: Bool = false) {
        self.erased = erased
        self.isDown = isDown
    }

    var pseudonyms: [String: String] { made.withLock { $0 } }

    func pseudonyms(of accounts: Set<String>) async throws -> [String: String] {
        if isDown { throw StoreDown() }
        return made.withLock { made in
            var answer: [String: String] = [:]
            for account in accounts where !erased.contains(account) {
                let pseudonym = made[account] ?? UUID().uuidString.lowercased()
                made[account] = pseudonym
                answer[account] = pseudonym
            }
            return answer
        }
    }
}
